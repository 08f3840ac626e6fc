package reader

import "math"

// runMax is how many common docs commonRun finds at once, and runLeaps the
// most leaps a run is kept for (a longer phrase goes through leapPlain).
const (
	runMax   = 64
	runLeaps = 8
)

// leapRun is the common docs commonRun found: docs[j] (j < n) is held by
// every leap, at index ks[m][j] of leap m's decoded docs; stop is where each
// leap is left (stop[0], the lead's, its first doc not looked at).
type leapRun struct {
	n    int
	docs [runMax]uint32
	ks   [runLeaps][runMax]int32
	stop [runLeaps]int32
}

// commonRun finds at once the common docs of the leaps' decoded blocks
// (2 <= len(ls) <= runLeaps), from the doc every leap is on (nextCommon's):
// the lead's docs and the second leap's are merged, and a doc both hold is
// looked for in every further leap's block, walked forward, until runMax
// docs are found, the lead's block ends, or another leap's block ends below
// a lead doc (that doc is left for nextCommon). The leaps are not moved:
// r.stop says where they end.
func commonRun(ls []leap, r *leapRun) {
	nl := len(ls)
	for m := 2; m < nl; m++ {
		r.stop[m] = int32(ls[m].k)
	}
	a, b := ls[0].c.docs, ls[1].c.docs
	i, k, n := ls[0].k, ls[1].k, 0
lead:
	for i < len(a) && n < runMax {
		d := a[i]
		end := min(k+linearProbes, len(b))
		for k < end && b[k] < d {
			k++
		}
		if k == end {
			if k == len(b) {
				break // d lies beyond the second leap's block
			}
			if b[k] < d {
				if k = seekGE(b, k, d); k == len(b) {
					break
				}
			}
		}
		if e := b[k]; e != d {
			// the lead's next doc that can be common: >= e
			for i++; i < len(a) && a[i] < e; i++ {
			}
			continue
		}
		for m := 2; m < nl; m++ {
			docs := ls[m].c.docs
			j := walkTo(docs, int(r.stop[m]), d)
			r.stop[m] = int32(j)
			if j == len(docs) {
				break lead // d lies beyond this leap's block
			}
			if docs[j] != d {
				i++
				continue lead
			}
			r.ks[m][n] = int32(j)
		}
		r.docs[n], r.ks[0][n], r.ks[1][n] = d, int32(i), int32(k)
		n++
		i++
	}
	r.stop[0], r.stop[1] = int32(i), int32(k)
	r.n = n
}

// walkTo returns the index of docs' first doc >= d from j on (len(docs)
// when none): a few docs one by one, then a gallop, as advance walks.
func walkTo(docs []uint32, j int, d uint32) int {
	end := min(j+linearProbes, len(docs))
	for j < end && docs[j] < d {
		j++
	}
	if j == end && j < len(docs) && docs[j] < d {
		j = seekGE(docs, j, d)
	}
	return j
}

// leapChain is leapPlain for a chain plan of at most runLeaps terms: the
// common docs are found a run at once (commonRun) after nextCommon finds
// the first, and a candidate whose one inner term occurs once is proved in
// the run's loop; any other goes to leapVerify with the leaps put on it.
func (x *qctx) leapChain(p *phrasePlan, ls []leap, inner []int, mixed bool, out []uint32, countOnly bool) ([]uint32, int, error) {
	excl := p.excl
	ei, n := 0, 0
	target := uint32(0)
	var run leapRun
	r := &run
	in := 0 // the one inner term's leap (innerTF's case)
	if len(inner) == 1 {
		in = inner[0]
	}
	proved := 0
	defer func() { x.count.pairProved += int64(proved) }()
	for {
		if _, ok, err := x.nextCommon(ls, target); !ok || err != nil {
			return out, n, err
		}
		commonRun(ls, r)
		// The inner term's tf column, read in place while its unit is
		// parsed (the run lies in one block of each leap; leapVerify may
		// open it).
		il := &ls[in]
		open := len(inner) == 1 && il.open
		ord0 := il.c.ord0
		for j := 0; j < r.n; j++ {
			d := r.docs[j]
			// Not when d lacks a kept pair (excl, walked forward by index).
			if excluded(excl, &ei, d) {
				continue
			}
			if open && il.t.cur.TF(ord0+int(r.ks[in][j])) == 1 {
				proved++
			} else {
				for m := range ls {
					ls[m].k = int(r.ks[m][j])
				}
				ok, err := x.leapVerify(p, ls, inner, mixed)
				if err != nil {
					return out, n, err
				}
				open = len(inner) == 1 && il.open
				if !ok {
					continue
				}
			}
			n++
			if !countOnly {
				out = append(out, d)
			}
			if n == x.limit {
				return out, n, nil // SearchOptions.Limit: the lowest ids are found
			}
		}
		for m := range ls {
			ls[m].k = int(r.stop[m])
		}
		lead := ls[0].c.docs
		switch k := ls[0].k; {
		case k < len(lead):
			target = lead[k]
		case lead[k-1] == math.MaxUint32:
			return out, n, nil
		default:
			target = lead[k-1] + 1
		}
	}
}
