package chooser

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/snii-go/snii"
	"github.com/snii-go/snii/budget"
)

// refBudget is a literal transcription of the rules of docs/BUDGET.md, used as an oracle for
// the optimised PrxZstdBudget (which never computes the full share per window).
type refBudget struct {
	p, n, sumSmallest, spent int64
	hist                     [100]int64
}

func (r *refBudget) observe(fast, zstd int) bool {
	var smallest, trade, saving int64 = int64(fast), 0, 0
	if zstd < fast {
		smallest = int64(zstd)
		trade = int64(fast - zstd)
		saving = 100 * trade / int64(fast)
	}
	r.n++
	r.sumSmallest += smallest
	r.hist[saving] += trade
	allow := func(x int64) bool { return 100*x <= r.p*r.sumSmallest }
	s := int64(PriorShare)
	if r.n > WarmupWindows {
		s = 0
		for cand := int64(0); cand <= 100; cand++ {
			var sum int64
			for b := int64(0); b < cand; b++ {
				sum += r.hist[b]
			}
			if allow(sum) {
				s = cand
			}
		}
	}
	if zstd < fast && saving < s && allow(r.spent+trade) {
		r.spent += trade
		return true
	}
	return false
}

type win struct{ fast, zstd int }

// genWindows draws eligible windows: fast frames 512..8 KiB, zstd from 10% to 130% of fast.
func genWindows(rng *rand.Rand, n int) []win {
	ws := make([]win, n)
	for i := range ws {
		fast := 512 + rng.IntN(8<<10)
		zstd := fast * (10 + rng.IntN(121)) / 100
		if zstd < 1 {
			zstd = 1
		}
		ws[i] = win{fast, zstd}
	}
	return ws
}

func savingOf(w win) int { return Evaluate(w.fast, w.zstd).Saving }

func orders(ws []win, seed uint64) map[string][]win {
	asc := slices.Clone(ws)
	slices.SortStableFunc(asc, func(a, b win) int { return savingOf(a) - savingOf(b) })
	desc := slices.Clone(asc)
	slices.Reverse(desc)
	shuf := slices.Clone(ws)
	rand.New(rand.NewPCG(seed, 7)).Shuffle(len(shuf), func(i, j int) { shuf[i], shuf[j] = shuf[j], shuf[i] })
	return map[string][]win{"captured": ws, "ascending": asc, "descending": desc, "shuffled": shuf}
}

func TestEvaluate(t *testing.T) {
	for _, tc := range []struct {
		fast, zstd, smallest, trade, saving int
		wins                                bool
	}{
		{1000, 400, 400, 600, 60, true},
		{1000, 1000, 1000, 0, 0, false}, // tie: zstd is not strictly smaller
		{1000, 1001, 1000, 0, 0, false},
		{1000, 999, 999, 1, 0, true},
		{1000, 1, 1, 999, 99, true},
		{3, 2, 2, 1, 33, true}, // floor(33.3)
	} {
		e := Evaluate(tc.fast, tc.zstd)
		if e.Smallest != tc.smallest || e.Trade != tc.trade || e.Saving != tc.saving || e.ZstdWins != tc.wins {
			t.Errorf("Evaluate(%d,%d) = %+v, want smallest %d trade %d saving %d wins %v",
				tc.fast, tc.zstd, e, tc.smallest, tc.trade, tc.saving, tc.wins)
		}
	}
}

func TestFastSize(t *testing.T) {
	if s, p := FastSize(100, 100, true); s != 100 || !p {
		t.Errorf("tie must pick PFOR, got %d %v", s, p)
	}
	if s, p := FastSize(100, 90, false); s != 100 || p {
		t.Errorf("PFOR not a candidate must pick RAW, got %d %v", s, p)
	}
	if s, p := FastSize(90, 100, true); s != 90 || p {
		t.Errorf("smaller RAW must win, got %d %v", s, p)
	}
}

// New refuses what Policy.Validate refuses.
func TestNewValidates(t *testing.T) {
	for _, p := range []budget.Policy{{Kind: budget.Budget, Percent: -1}, {Kind: budget.FixedShare}, {Percent: 8}} {
		if _, err := New(p); !errors.Is(err, snii.ErrInvalidArgument) {
			t.Errorf("New(%+v): got %v", p, err)
		}
	}
}

// The default policy and the budget at DefaultBudgetPercent decide alike; a
// zero allowance trades nothing.
func TestDefaultIsTheBudgetAt8(t *testing.T) {
	ws := genWindows(rand.New(rand.NewPCG(3, 4)), 2000)
	def, _ := New(budget.Policy{})
	at8, _ := New(budget.Policy{Kind: budget.Budget, Percent: budget.DefaultBudgetPercent})
	none, _ := New(budget.Policy{Kind: budget.Budget})
	for i, w := range ws {
		a, _ := def.Choose(w.fast, w.zstd)
		b, _ := at8.Choose(w.fast, w.zstd)
		if a != b {
			t.Fatalf("window %d: default stores zstd %v, budget 8%% %v", i, a, b)
		}
		if z, e := none.Choose(w.fast, w.zstd); z != e.ZstdWins {
			t.Fatalf("window %d: a zero allowance traded", i)
		}
	}
	if o := def.Outcome(); o.Traded == 0 || o.Allowance == 0 {
		t.Fatalf("the default traded nothing: %+v", o)
	}
	if o := none.Outcome(); o.Traded != 0 || o.Allowance != 0 {
		t.Fatalf("a zero allowance: %+v", o)
	}
}

// The optimised budget makes exactly the decisions of the literal transcription.
func TestBudgetMatchesReference(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		rng := rand.New(rand.NewPCG(seed, seed))
		for name, ws := range orders(genWindows(rng, 400), seed) {
			for _, p := range []int{0, 1, 5, 8, 12, 50, 100} {
				b := NewPrxZstdBudget(p)
				r := &refBudget{p: int64(p)}
				for i, w := range ws {
					got := b.Observe(Evaluate(w.fast, w.zstd))
					want := r.observe(w.fast, w.zstd)
					if got != want {
						t.Fatalf("seed %d %s P=%d window %d %+v: got %v want %v", seed, name, p, i, w, got, want)
					}
				}
				if b.Spent() != r.spent || b.SumSmallest() != r.sumSmallest || b.Windows() != r.n {
					t.Fatalf("accounting differs: %d/%d %d/%d", b.Spent(), r.spent, b.SumSmallest(), r.sumSmallest)
				}
			}
		}
	}
}

// spent <= P% of the smallest frames after every window, in any order.
func TestBudgetBoundAnyOrder(t *testing.T) {
	for seed := uint64(1); seed <= 50; seed++ {
		rng := rand.New(rand.NewPCG(seed, 99))
		n := 1 + rng.IntN(2000)
		for name, ws := range orders(genWindows(rng, n), seed) {
			for _, p := range []int{1, 3, 5, 8, 12, 30} {
				b := NewPrxZstdBudget(p)
				for i, w := range ws {
					b.Observe(Evaluate(w.fast, w.zstd))
					if 100*b.Spent() > int64(p)*b.SumSmallest() {
						t.Fatalf("seed %d %s P=%d after window %d: spent %d > %d%% of %d",
							seed, name, p, i, b.Spent(), p, b.SumSmallest())
					}
					if b.Spent() > b.Allowance() {
						t.Fatalf("spent %d above allowance %d", b.Spent(), b.Allowance())
					}
				}
			}
		}
	}
}

func TestBudgetWarmupUsesPrior(t *testing.T) {
	// Huge allowance (100%): during warm-up only savings below 30 are traded.
	b := NewPrxZstdBudget(100)
	for i := 0; i < WarmupWindows; i++ {
		if got := b.Share(); i > 0 && got != PriorShare {
			t.Fatalf("share during warm-up = %d", got)
		}
		saving := 20 + i%20 // 20..39
		fast := 10000
		zstd := fast - fast*saving/100
		e := Evaluate(fast, zstd)
		if e.Saving != saving {
			t.Fatalf("setup: saving %d != %d", e.Saving, saving)
		}
		if got, want := b.Observe(e), saving < PriorShare; got != want {
			t.Fatalf("window %d saving %d: stored fast = %v, want %v", i, saving, got, want)
		}
	}
	if b.Share() != PriorShare {
		t.Fatalf("share at n=64 = %d, want prior", b.Share())
	}
	// After warm-up with everything fitting, the share is 100 and a 39% saving is traded.
	if !b.Observe(Evaluate(10000, 6100)) {
		t.Fatal("after warm-up with a 100% allowance a 39% saving must be traded")
	}
	if b.Share() != 100 {
		t.Fatalf("share = %d, want 100", b.Share())
	}
}

func TestBudgetTradesLeastShrunkFirst(t *testing.T) {
	// After warm-up with windows of mixed savings, the share settles where the
	// cheapest trades fill the allowance: low-saving windows are traded, high ones not.
	b := NewPrxZstdBudget(8)
	var traded, refused [100]int
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 5000; i++ {
		saving := rng.IntN(90)
		fast := 4096
		zstd := fast - fast*saving/100 - 1
		e := Evaluate(fast, zstd)
		if b.Observe(e) {
			traded[e.Saving]++
		} else {
			refused[e.Saving]++
		}
	}
	share := b.Share()
	if share <= 0 || share >= 90 {
		t.Fatalf("share %d should be strictly inside the range of savings", share)
	}
	for s := share + 1; s < 100; s++ {
		if traded[s] > 0 && s >= PriorShare {
			t.Fatalf("saving %d traded although above the share %d and the prior", s, share)
		}
	}
	lowTraded := 0
	for s := 0; s < share && s < 5; s++ {
		lowTraded += traded[s]
	}
	if lowTraded == 0 {
		t.Fatal("the windows zstd shrinks least were not traded")
	}
	if 100*b.Spent() > 8*b.SumSmallest() {
		t.Fatal("bound violated")
	}
}

func TestNothingToTradeStillCredits(t *testing.T) {
	b := NewPrxZstdBudget(8)
	// 100 windows where fast is the smallest: nothing traded, allowance grows.
	for i := 0; i < 100; i++ {
		if b.Observe(Evaluate(1000, 1200)) {
			t.Fatal("nothing to trade, yet stored fast as a trade")
		}
	}
	if b.Spent() != 0 || b.SumSmallest() != 100*1000 || b.Allowance() != 8000 {
		t.Fatalf("spent %d sum %d allowance %d", b.Spent(), b.SumSmallest(), b.Allowance())
	}
	// A window with a 5% saving trading 60 bytes now fits the allowance.
	if !b.Observe(Evaluate(1200, 1140)) {
		t.Fatal("a cheap trade must use the allowance credited by windows with nothing to trade")
	}
}

func TestChooserFixedShares(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	ws := genWindows(rng, 3000)
	for _, share := range []int{0, 30, 100} {
		c, err := New(budget.FromPercents(share, 8))
		if err != nil {
			t.Fatal(err)
		}
		var extra int64
		for _, w := range ws {
			storeZstd, e := c.Choose(w.fast, w.zstd)
			wantFast := e.ZstdWins && e.Saving < share
			if storeZstd == wantFast && e.ZstdWins {
				t.Fatalf("share %d window %+v saving %d: storeZstd %v", share, w, e.Saving, storeZstd)
			}
			if !e.ZstdWins && storeZstd {
				t.Fatalf("zstd stored although not smaller: %+v", w)
			}
			if !storeZstd && e.ZstdWins {
				extra += int64(e.Trade)
			}
		}
		o := c.Outcome()
		if o.Traded != extra {
			t.Fatalf("share %d: outcome traded %d, recount %d", share, o.Traded, extra)
		}
		if share == 0 && o.Traded != 0 {
			t.Fatal("policy 0 must add nothing")
		}
		if o.Eligible != int64(len(ws)) {
			t.Fatalf("eligible %d", o.Eligible)
		}
	}
}

func TestChooserDeterministic(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	ws := genWindows(rng, 2000)
	run := func() []bool {
		c, _ := New(budget.Policy{})
		out := make([]bool, len(ws))
		for i, w := range ws {
			out[i], _ = c.Choose(w.fast, w.zstd)
		}
		return out
	}
	a, b := run(), run()
	if !slices.Equal(a, b) {
		t.Fatal("same input gave different decisions")
	}
	c, _ := New(budget.Policy{})
	for _, w := range ws {
		c.Choose(w.fast, w.zstd)
	}
	o := c.Outcome()
	if o.Traded != c.Budget().Spent() || 100*o.Traded > 8*o.SumSmallest || o.Allowance != c.Budget().Allowance() {
		t.Fatalf("outcome %+v inconsistent with budget", o)
	}
}

func BenchmarkChoose(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	ws := genWindows(rng, 4096)
	c, _ := New(budget.Policy{})
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		w := ws[i&4095]
		c.Choose(w.fast, w.zstd)
	}
}
