package reader

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestCandSetIndex: index of a ranked set is each candidate's position in the
// ascending candidates, and -1 for every other doc, over sets of several
// spans and densities, reused from one set to the next.
func TestCandSetIndex(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var c candSet
	for round := range 200 {
		span := 1 + r.IntN(5000)
		base := uint32(r.IntN(1 << 20))
		var cands []uint32
		for d := range span {
			if r.IntN(1+round%7) == 0 {
				cands = append(cands, base+uint32(d))
			}
		}
		c.setRanked(cands)
		for d := base - min(base, 130); d < base+uint32(span)+130; d++ {
			want := -1
			if i, ok := slices.BinarySearch(cands, d); ok {
				want = i
			}
			if got := c.index(d); got != want {
				t.Fatalf("round %d: index(%d) = %d, want %d", round, d, got, want)
			}
		}
		c.reset()
		if c.on || len(c.bits) != 0 || len(c.rank) != 0 {
			t.Fatalf("round %d: reset left the set in use", round)
		}
	}
}
