package writer

import (
	"cmp"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSelectPairsLazy: selectPairs, which computes a candidate's exact gain
// only when its bound reaches the top of the heap and it still fits, keeps
// exactly the pairs of the full sort by exact gain/cost (docs/FORMAT.md,
// "Selection (normative)"), and computes fewer gains than candidates when
// the allowance is tight. Candidates are random with many ties of ratio.
func TestSelectPairsLazy(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 9))
	lazier := 0
	for round := 0; round < 400; round++ {
		n := 1 + r.IntN(300)
		type truth struct{ df, co, ub, cost uint64 }
		byID := make(map[uint64]truth, n)
		cands := make([]pairCand, 0, n)
		var total uint64
		for len(cands) < n {
			id := uint64(r.IntN(64))<<32 | uint64(r.IntN(64))
			if _, dup := byID[id]; dup {
				continue
			}
			df := 1 + uint64(r.IntN(20))
			co := df + uint64(r.IntN(4))*uint64(r.IntN(10))
			ub := co + uint64(r.IntN(3))*uint64(r.IntN(30))
			if round%5 == 0 { // large values (below 2^32): the products need 128 bits
				df, co, ub = df<<25, co<<25, ub<<25
			}
			cost := 8 + uint64(r.IntN(6))*4
			byID[id] = truth{df, co, ub, cost}
			cands = append(cands, pairCand{id: id, df: df, cost: cost, gain: df * ub, exact: ub == df})
			total += cost
		}
		allowance := uint64(r.Int64N(int64(total) + 1))

		// The full sort by exact gain.
		full := slices.Clone(cands)
		for i := range full {
			x := byID[full[i].id]
			full[i].gain, full[i].exact = x.df*x.co, true
		}
		slices.SortFunc(full, func(x, y pairCand) int {
			xh, xl := bits.Mul64(x.gain, y.cost)
			yh, yl := bits.Mul64(y.gain, x.cost)
			if c := cmp.Or(cmp.Compare(yh, xh), cmp.Compare(yl, xl)); c != 0 {
				return c
			}
			return cmp.Compare(x.id, y.id)
		})
		var want []uint64
		var spent uint64
		for _, c := range full {
			if spent+c.cost <= allowance {
				spent += c.cost
				want = append(want, c.id)
			}
		}
		slices.Sort(want)

		calls := 0
		got, err := selectPairs(cands, allowance, func(c *pairCand) error {
			calls++
			if c.exact {
				t.Fatalf("exact gain asked twice for %x", c.id)
			}
			x := byID[c.id]
			c.gain, c.exact = x.df*x.co, true
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("round %d (allowance %d of %d): kept %x, want %x", round, allowance, total, got, want)
		}
		if calls < n/2 && allowance < total/4 {
			lazier++
		}
	}
	if lazier == 0 {
		t.Error("no round computed fewer gains than half its candidates under a tight allowance")
	}
}
