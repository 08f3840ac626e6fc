package reader

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestCommonRunBruteForce: commonRun's run equals the brute-force
// intersection of the leaps' decoded blocks from where they stand, up to the
// lead doc it stops at, each doc with every leap's index of it; it stops only
// when the run is full, the lead's block ends, or another leap's block ends
// below the lead's next doc; and the leaps' stops leave below them no doc at
// or past that lead doc (nextCommon goes on from there without missing one).
// Blocks are random sorted doc sets of varied densities, some ending at
// MaxUint32, with 2 to runLeaps leaps.
func TestCommonRunBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 35))
	var r leapRun
	for iter := 0; iter < 3000; iter++ {
		nl := 2 + rng.IntN(runLeaps-1)
		span := uint32(50 + rng.IntN(3000))
		base := uint32(0)
		if rng.IntN(8) == 0 {
			base = ^uint32(0) - span // blocks that end at MaxUint32
		}
		ls := make([]leap, nl)
		start := base + uint32(rng.IntN(int(span/4)))
		for m := range ls {
			p := 0.02 + rng.Float64()*0.98 // this leap's density
			var docs []uint32
			for d := uint64(base); d <= uint64(base)+uint64(span); d++ {
				if uint32(d) == start || rng.Float64() < p {
					docs = append(docs, uint32(d))
				}
			}
			if m > 0 && rng.IntN(3) == 0 { // a shorter block: ends before the lead's
				cut := max(slices.Index(docs, start)+1, rng.IntN(len(docs)+1))
				docs = docs[:cut]
			}
			ls[m].c.docs, ls[m].k = docs, slices.Index(docs, start)
		}
		k0 := make([]int, nl)
		for m := range ls {
			k0[m] = ls[m].k
		}
		commonRun(ls, &r)
		for m := range ls {
			if ls[m].k != k0[m] {
				t.Fatalf("iter %d: leap %d moved from %d to %d", iter, m, k0[m], ls[m].k)
			}
		}
		lead := ls[0].c.docs
		stop0 := int(r.stop[0])
		// The brute-force common docs of lead[k0:stop0].
		var want []uint32
		for _, d := range lead[k0[0]:stop0] {
			in := true
			for m := 1; m < nl; m++ {
				if _, ok := slices.BinarySearch(ls[m].c.docs[k0[m]:], d); !ok {
					in = false
				}
			}
			if in {
				want = append(want, d)
			}
		}
		if !slices.Equal(r.docs[:r.n], want) {
			t.Fatalf("iter %d (%d leaps): run %v, want %v", iter, nl, r.docs[:r.n], want)
		}
		if r.n == 0 || r.docs[0] != start {
			t.Fatalf("iter %d: the run does not start at the common doc %d: %v", iter, start, r.docs[:r.n])
		}
		for j := 0; j < r.n; j++ {
			for m := range ls {
				if k := r.ks[m][j]; ls[m].c.docs[k] != r.docs[j] {
					t.Fatalf("iter %d: leap %d index %d holds %d, not the run's doc %d", iter, m, k, ls[m].c.docs[k], r.docs[j])
				}
			}
		}
		// Why it stopped, and where the leaps stand.
		if stop0 == len(lead) {
			continue
		}
		next := lead[stop0]
		short := false
		for m := 1; m < nl; m++ {
			docs, s := ls[m].c.docs, int(r.stop[m])
			if s < k0[m] || s > len(docs) {
				t.Fatalf("iter %d: leap %d stops at %d (from %d, of %d)", iter, m, s, k0[m], len(docs))
			}
			if s > k0[m] && docs[s-1] >= next {
				t.Fatalf("iter %d: leap %d stops past %d, a doc >= the lead's next %d", iter, m, docs[s-1], next)
			}
			short = short || docs[len(docs)-1] < next
		}
		if r.n < runMax && !short {
			t.Fatalf("iter %d: stopped at lead doc %d with %d docs, every block going on", iter, next, r.n)
		}
	}
}
