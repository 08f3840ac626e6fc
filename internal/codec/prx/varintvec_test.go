package prx

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/snii-go/snii/internal/codec/bitpack"
)

// shortStream returns n uvarints of one to three bytes in the proportions
// asked, with now and then a non-canonical two-byte value (second byte 0).
func shortStream(rng *rand.Rand, n int, twoPct, threePct, badPct int) []byte {
	var b []byte
	for range n {
		switch r := rng.IntN(100); {
		case r < badPct:
			b = append(b, byte(0x80|rng.IntN(128)), 0)
		case r < badPct+threePct:
			b = bitpack.AppendUvarint(b, uint32(1<<14+rng.IntN(1<<20)))
		case r < badPct+threePct+twoPct:
			b = bitpack.AppendUvarint(b, uint32(128+rng.IntN(1<<14-128)))
		default:
			b = append(b, byte(rng.IntN(128)))
		}
	}
	return b
}

// TestDecodeShort compares decodeShort (the vector decoder where the CPU has
// one, then one value the scalar way, and again) with decodeShortScalar on
// streams of one-, two- and three-byte values and non-canonical ones, from
// every start in the first bytes and into outputs of every length up to 40:
// the same values, the same stop.
func TestDecodeShort(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 34))
	for _, mix := range [][3]int{{0, 0, 0}, {25, 0, 0}, {60, 0, 0}, {100, 0, 0}, {25, 3, 0}, {25, 0, 2}, {40, 5, 5}} {
		for range 20 {
			src := shortStream(rng, 60, mix[0], mix[1], mix[2])
			for p := 0; p < 10 && p < len(src); p++ {
				for n := 0; n <= 40; n++ {
					want := make([]uint32, n)
					wk, wq := decodeShortScalar(src, p, want)
					got := make([]uint32, n)
					gk, gq := decodeShort(src, p, got)
					if gk != wk || gq != wq || !slices.Equal(got[:gk], want[:wk]) {
						t.Fatalf("mix %v, from %d into %d: %d values to %d, want %d to %d\ngot  %v\nwant %v", mix, p, n, gk, gq, wk, wq, got[:gk], want[:wk])
					}
				}
			}
		}
	}
}

// FuzzDecodeShort: decodeShort and decodeShortScalar agree on any bytes.
func FuzzDecodeShort(f *testing.F) {
	f.Add(shortStream(rand.New(rand.NewPCG(1, 1)), 40, 30, 5, 5), uint8(30))
	f.Fuzz(func(t *testing.T, src []byte, n uint8) {
		want := make([]uint32, n)
		wk, wq := decodeShortScalar(src, 0, want)
		got := make([]uint32, n)
		gk, gq := decodeShort(src, 0, got)
		if gk != wk || gq != wq || !slices.Equal(got[:gk], want[:wk]) {
			t.Fatalf("%d bytes into %d: %d values to %d, want %d to %d", len(src), n, gk, gq, wk, wq)
		}
	})
}
