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

// TestRankPays: a ranked set is built for candidates that fill at least a
// quarter of the words they span, not for a few spread far apart.
func TestRankPays(t *testing.T) {
	for _, c := range []struct {
		cands []uint32
		want  bool
	}{
		{nil, false},
		{[]uint32{7}, true},
		{[]uint32{0, 64, 128, 192}, true},
		{[]uint32{0, 1 << 20}, false},
		{[]uint32{5, 300, 600, 900, 1200, 1500, 1800, 1990}, true},  // 32 words, 8 candidates
		{[]uint32{5, 300, 600, 900, 1200, 1500, 1800, 2100}, false}, // 33 words
	} {
		if got := rankPays(c.cands); got != c.want {
			t.Errorf("rankPays(%v) = %v, want %v", c.cands, got, c.want)
		}
	}
}
