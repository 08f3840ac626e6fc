package prx

import (
	"math/rand/v2"
	"testing"

	"github.com/snii-go/snii/budget"
)

// Decoding from a warmed Source into a reused Window allocates nothing, for every
// codec, full and selective, with and without stats.
func TestDecodeAllocatesNothing(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	w := genWindow(rng, 256, 1, 8, 300)
	ords := []uint32{3, 17, 128, 200, 255}
	src := NewSource(Limits{})
	defer src.Close()
	var st Stats
	for _, c := range []Codec{CodecRaw, CodecPFOR, CodecZstd} {
		f := frameOf(t, c, w)
		for _, withStats := range []bool{false, true} {
			if withStats {
				src.SetStats(&st)
			} else {
				src.SetStats(nil)
			}
			var dst Window
			full := func() {
				if _, err := src.Decode(f, true, &dst); err != nil {
					t.Fatal(err)
				}
			}
			sel := func() {
				if _, err := src.DecodeSelected(f, true, ords, &dst); err != nil {
					t.Fatal(err)
				}
			}
			inline := func() {
				if _, err := src.Decode(f[:len(f)-CRCSize], false, &dst); err != nil {
					t.Fatal(err)
				}
			}
			full() // warm the Source and dst
			sel()
			for name, fn := range map[string]func(){"full": full, "selective": sel, "inline": inline} {
				if a := testing.AllocsPerRun(50, fn); a != 0 {
					t.Errorf("%s %s (stats %v): %v allocs per decode, want 0", c, name, withStats, a)
				}
			}
		}
	}
	// A pooled Source keeps its decoder and buffers.
	pool := NewSourcePool(Limits{})
	defer pool.Close()
	z := frameOf(t, CodecZstd, w)
	var dst Window
	s := pool.Get()
	if _, err := s.Decode(z, true, &dst); err != nil {
		t.Fatal(err)
	}
	pool.Put(s)
	if a := testing.AllocsPerRun(50, func() {
		s := pool.Get()
		if _, err := s.Decode(z, true, &dst); err != nil {
			t.Fatal(err)
		}
		pool.Put(s)
	}); a != 0 {
		t.Errorf("pooled zstd decode: %v allocs, want 0", a)
	}
}

// Encoding into a warmed Encoder allocates nothing either.
func TestEncodeAllocatesNothing(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 34))
	ws := append(eligibleWindows(rng, 8), genWindow(rng, 20, 1, 3, 100), newWindow([]uint32{5}), genWindow(rng, 200, 1, 1, 10))
	e := newTestEncoder(t, budget.DefaultPolicy())
	run := func() {
		for _, w := range ws {
			if _, err := e.Encode(w); err != nil {
				t.Fatal(err)
			}
		}
	}
	run()
	if a := testing.AllocsPerRun(20, run); a != 0 {
		t.Errorf("Encode: %v allocs per %d windows, want 0", a, len(ws))
	}
}
