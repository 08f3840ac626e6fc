package prx

import (
	"math/rand/v2"
	"runtime/debug"
	"testing"

	"github.com/snii-go/snii/budget"
	"github.com/snii-go/snii/limits"
)

// allocsPerRun warms fn up, then measures its allocations with the collector off
// (a collection during the measurement could otherwise free and reallocate
// buffers that a pool or a zstd decoder keeps).
func allocsPerRun(fn func()) float64 {
	for i := 0; i < 3; i++ {
		fn()
	}
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	return testing.AllocsPerRun(50, fn)
}

// Decoding from a warmed Source into a reused Window allocates nothing, for every
// codec, single- and multi-unit, full and selective, CRC and inline form, with
// and without stats.
func TestDecodeAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are meaningless under the race detector")
	}
	rng := rand.New(rand.NewPCG(31, 32))
	small := genWindow(rng, 256, 1, 8, 300)  // one unit
	large := genWindow(rng, 2000, 1, 8, 300) // multi-unit
	long := genWindow(rng, 1, 3000, 3000, 9) // one doc over UnitValues
	src := NewSource(limits.Limits{})
	defer src.Close()
	var st Stats
	for _, w := range []*Window{small, large, long} {
		ords := randomOrds(rng, w.Docs(), 5)
		for _, c := range allCodecs {
			f := frameOf(t, c, w)
			for _, withStats := range []bool{false, true} {
				if withStats {
					src.SetStats(&st)
				} else {
					src.SetStats(nil)
				}
				var dst Window
				runs := map[string]func(){
					"full": func() {
						if _, err := src.Decode(f, true, &dst); err != nil {
							t.Fatal(err)
						}
					},
					"selective": func() {
						if _, err := src.DecodeSelected(f, true, ords, &dst); err != nil {
							t.Fatal(err)
						}
					},
				}
				if f[0] != codecMulti {
					runs["inline"] = func() {
						if _, err := src.Decode(f[:len(f)-CRCSize], false, &dst); err != nil {
							t.Fatal(err)
						}
					}
				}
				for name, fn := range runs {
					if a := allocsPerRun(fn); a != 0 {
						t.Errorf("%d docs %s %s (stats %v): %v allocs per decode, want 0", w.Docs(), c, name, withStats, a)
					}
				}
			}
		}
	}
	// A pooled Source keeps its decoder and buffers.
	pool := NewSourcePool(limits.Limits{})
	defer pool.Close()
	z := frameOf(t, CodecZstd, large)
	var dst Window
	if a := allocsPerRun(func() {
		s := pool.Get()
		if _, err := s.Decode(z, true, &dst); err != nil {
			t.Fatal(err)
		}
		pool.Put(s)
	}); a != 0 {
		t.Errorf("pooled zstd decode: %v allocs, want 0", a)
	}
}

// Encoding into a warmed Encoder allocates nothing either, for Encode (every rule,
// multi-unit windows) and EncodeCodec.
func TestEncodeAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are meaningless under the race detector")
	}
	rng := rand.New(rand.NewPCG(33, 34))
	ws := append(eligibleWindows(rng, 6), genWindow(rng, 20, 1, 3, 100), newWindow([]uint32{5}),
		genWindow(rng, 200, 1, 1, 10), genWindow(rng, 3000, 1, 5, 50), tfWindow(3000, 1),
		sharedWindow()) // its zstd frame is rewritten with a shared literal table
	e := newTestEncoder(t, budget.Policy{})
	if a := allocsPerRun(func() {
		for _, w := range ws {
			if _, err := e.Encode(w); err != nil {
				t.Fatal(err)
			}
		}
	}); a != 0 {
		t.Errorf("Encode: %v allocs per %d windows, want 0", a, len(ws))
	}
	for _, c := range allCodecs {
		if a := allocsPerRun(func() {
			for _, w := range ws {
				if _, err := e.EncodeCodec(w, c); err != nil {
					t.Fatal(err)
				}
			}
		}); a != 0 {
			t.Errorf("EncodeCodec(%s): %v allocs per %d windows, want 0", c, a, len(ws))
		}
	}
}
