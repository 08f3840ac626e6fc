package chooser

import "testing"

// TestWorkedExample pins the numbers of the worked example in docs/BUDGET.md.
func TestWorkedExample(t *testing.T) {
	b := NewPrxZstdBudget(8)
	obs := func(fast, zstd int) bool { return b.Observe(Evaluate(fast, zstd)) }
	// Warm-up: 32 pairs of A (saving 4) and B (saving 60) windows.
	for i := 0; i < 32; i++ {
		if !obs(1000, 960) {
			t.Fatalf("A window %d: want fast", 2*i+1)
		}
		if obs(1000, 400) {
			t.Fatalf("B window %d: want zstd (saving 60 >= prior 30)", 2*i+2)
		}
	}
	if b.Spent() != 1280 || b.SumSmallest() != 43520 || b.Share() != PriorShare {
		t.Fatalf("after warm-up: spent %d sum %d share %d", b.Spent(), b.SumSmallest(), b.Share())
	}
	// Window 65: saving 20, the first window past warm-up; share becomes 60.
	if !obs(1000, 800) || b.Share() != 60 || b.Spent() != 1480 {
		t.Fatalf("window 65: spent %d share %d", b.Spent(), b.Share())
	}
	// Windows 66..80 are traded; window 81 hits the cap.
	for w := 66; w <= 80; w++ {
		if !obs(1000, 800) {
			t.Fatalf("window %d: want fast", w)
		}
	}
	if b.Spent() != 4480 {
		t.Fatalf("after window 80: spent %d", b.Spent())
	}
	if obs(1000, 800) {
		t.Fatal("window 81: the cap must refuse it")
	}
	if b.SumSmallest() != 57120 || b.Allowance() != 4569 || b.Share() != 20 {
		t.Fatalf("after window 81: sum %d allowance %d share %d", b.SumSmallest(), b.Allowance(), b.Share())
	}
}
