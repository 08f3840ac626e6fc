package reader

import "math"

// runMax is how many common docs commonRun finds at once, and runLeaps the
// most leaps a run is kept for (a longer phrase goes through leapPlain).
const (
	runMax   = 64
	runLeaps = 8
)

// leapRun is the common docs commonRun found: docs[j] (j < n) is held by
// every leap, at index ks[j*runLeaps+m] of leap m's decoded docs; stop is
// where each leap is left (stop[0], the lead's, its first doc not looked at).
type leapRun struct {
	n    int
	docs [runMax]uint32
	ks   [runMax * runLeaps]int32
	stop [runLeaps]int32
}

// commonRun finds at once the common docs of the leaps' decoded blocks
// (len(ls) <= runLeaps), from the doc every leap is on (nextCommon's): each
// doc of the lead from there is looked for in every other leap's block,
// walked forward, until runMax docs are found, the lead's block ends, or
// another leap's block ends below a lead doc (that doc is left for
// nextCommon). The leaps are not moved: r.stop says where they end.
func commonRun(ls []leap, r *leapRun) {
	nl := len(ls)
	for m := range ls {
		r.stop[m] = int32(ls[m].k)
	}
	lead := ls[0].c.docs
	n := 0
	i := ls[0].k
lead:
	for ; i < len(lead) && n < runMax; i++ {
		d := lead[i]
		for m := 1; m < nl; m++ {
			docs := ls[m].c.docs
			k := int(r.stop[m])
			end := min(k+linearProbes, len(docs))
			for k < end && docs[k] < d {
				k++
			}
			if k == end && k < len(docs) && docs[k] < d {
				k = seekGE(docs, k, d)
			}
			r.stop[m] = int32(k)
			if k == len(docs) {
				break lead // d lies beyond this leap's block
			}
			if docs[k] != d {
				continue lead
			}
		}
		r.docs[n] = d
		row := r.ks[n*runLeaps : n*runLeaps+nl]
		row[0] = int32(i)
		copy(row[1:], r.stop[1:nl])
		n++
	}
	r.stop[0] = int32(i)
	r.n = n
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
	in := -1 // the one inner term's leap (innerTF's case)
	if len(inner) == 1 {
		in = inner[0]
	}
	for {
		if _, ok, err := x.nextCommon(ls, target); !ok || err != nil {
			return out, n, err
		}
		commonRun(ls, r)
		for j := 0; j < r.n; j++ {
			d := r.docs[j]
			// Not when d lacks a kept pair (excl, walked forward by index).
			if excluded(excl, &ei, d) {
				continue
			}
			ok := false
			if l := &ls[max(in, 0)]; in >= 0 && l.open {
				ok = l.t.cur.TF(l.c.ord0+int(r.ks[j*runLeaps+in])) == 1
			}
			if ok {
				x.count.pairProved++
			} else {
				for m := range ls {
					ls[m].k = int(r.ks[j*runLeaps+m])
				}
				var err error
				if ok, err = x.leapVerify(p, ls, inner, mixed); err != nil {
					return out, n, err
				}
			}
			if ok {
				n++
				if !countOnly {
					out = append(out, d)
				}
				if n == x.limit {
					return out, n, nil // SearchOptions.Limit: the lowest ids are found
				}
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
