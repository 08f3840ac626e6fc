package intcol

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ronanh/intcomp"
)

// Every column intcomp writes is accepted and unpacks to its values; any flipped
// bit or truncation is either rejected by Check or still unpacked without a panic.
func TestCheckUnpackRoundTripAndDamage(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 2, 127, 128, 129, 255, 256, 257, 1000, 1024} {
		vals := make([]uint32, n)
		v := uint32(0)
		for i := range vals {
			v += uint32(rng.IntN(1 << uint(rng.IntN(20))))
			vals[i] = v
		}
		words := intcomp.CompressUint32(vals, nil)
		end, last, err := Check(words, 0, n)
		if err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		if end != len(words)-1 || words[len(words)-1] != words[last+1] {
			t.Fatalf("n=%d: end %d of %d words, last block at %d (trailer %d)", n, end, len(words), last, words[len(words)-1])
		}
		got, err := Unpack(words, 0, n, make([]uint32, 0, n))
		if err != nil || !slices.Equal(got, vals) {
			t.Fatalf("n=%d: unpack: %v", n, err)
		}
		if _, _, err := Check(words, 0, n+1); err == nil {
			t.Fatalf("n=%d: a column checked for n+1 values must fail", n)
		}
		for cut := 0; cut < end; cut++ {
			if _, _, err := Check(words[:cut], 0, n); err == nil {
				t.Fatalf("n=%d: truncated at %d words accepted", n, cut)
			}
		}
		for k := 0; k < 200; k++ {
			bad := slices.Clone(words[:end])
			bad[rng.IntN(len(bad))] ^= 1 << uint(rng.IntN(32))
			if e, _, err := Check(bad, 0, n); err == nil {
				if _, err := Unpack(bad, 0, n, make([]uint32, 0, n)); err != nil && e == end {
					t.Logf("n=%d: damage passed Check and failed Unpack: %v", n, err)
				}
			}
		}
	}
}
