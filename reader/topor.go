package reader

import (
	"cmp"
	"slices"
)

// maxScore runs MaxScore over the clauses of a top-level Or, window by
// window: a window ends where the nearest 128-doc block (or doc window) of
// a clause ends, and holds each clause's bound over it (its impacts there).
// Within a window the clauses sorted by that bound split in two: the
// longest prefix whose bounds add up to no more than the k-th best score is
// non-essential (a document matching only those cannot enter), so
// candidates come from the essential clauses only; a candidate whose
// clauses' window bounds cannot beat the k-th score is passed unscored, and
// a scored one stops collecting non-essential scores as soon as the rest
// cannot lift it over the threshold. A window without an essential clause is
// passed whole, and its blocks are not decoded.
func (t *topRun) maxScore(kids []scorer) error {
	var total float64 // the clauses' bounds over every document
	for _, k := range kids {
		total += float64(k.maxScore())
		if _, err := k.advance(0); err != nil {
			return err
		}
	}
	w := orWindow{kids: kids, bound: make([]float64, len(kids)), ord: make([]int, len(kids)), sums: make([]float64, len(kids)), max: -1}
	for lo := int64(0); ; {
		if err := t.x.check(); err != nil {
			return err
		}
		th := float64(t.threshold())
		if total <= th {
			return nil
		}
		if lo > w.max {
			if lo >= exhausted {
				return nil
			}
			if err := w.open(lo); err != nil || w.max == exhausted {
				return err
			}
			w.firstEssential = 0
		}
		ord, sums := w.ord, w.sums
		for w.firstEssential < len(ord) && sums[w.firstEssential] <= th {
			w.firstEssential++
		}
		fe := w.firstEssential
		if fe == len(ord) { // nothing in the window can enter
			t.skipped++
			lo = w.max + 1
			continue
		}
		// The candidate, and its bound: the non-essential clauses' and those
		// of the essential clauses on it.
		cand, bound := exhausted, 0.0
		for _, i := range ord[fe:] {
			d := kids[i].doc()
			if d < lo {
				var err error
				if d, err = kids[i].advance(lo); err != nil {
					return err
				}
			}
			if d < cand {
				cand, bound = d, w.bound[i]
			} else if d == cand {
				bound += w.bound[i]
			}
		}
		if cand > w.max {
			lo = w.max + 1
			continue
		}
		lo = cand + 1
		if fe > 0 {
			bound += sums[fe-1]
		}
		if bound <= th {
			continue
		}
		var score float64
		for _, i := range ord[fe:] {
			if kids[i].doc() == cand {
				v, err := kids[i].score()
				if err != nil {
					return err
				}
				score += float64(v)
			}
		}
		enters := true
		for j := fe - 1; j >= 0; j-- {
			if score+sums[j] <= th {
				enters = false
				break
			}
			k := kids[ord[j]]
			d, err := k.advance(cand)
			if err != nil {
				return err
			}
			if d == cand {
				v, err := k.score()
				if err != nil {
					return err
				}
				score += float64(v)
			}
		}
		if enters {
			t.collect(cand, float32(score))
		}
	}
}

// orWindow is MaxScore's window of the documents (from the lo open was given
// to max): the clauses'
// bounds over it, the clauses in ascending order of them, and their running
// sums.
type orWindow struct {
	kids           []scorer
	max            int64     // the window's last document
	bound          []float64 // by clause
	ord            []int     // clause indexes, ascending bound
	sums           []float64 // sums[j]: the bounds of ord[:j+1]
	firstEssential int       // ord[:firstEssential] are non-essential
}

// open starts the window at lo: it ends where the first of the clauses'
// blocks holding (or following) lo ends; max is exhausted when no clause
// has a document left.
func (w *orWindow) open(lo int64) error {
	w.max = exhausted
	for i, k := range w.kids {
		upTo, b, err := finestBound(k, max(lo, k.doc()))
		if err != nil {
			return err
		}
		switch {
		case upTo == exhausted:
			w.bound[i] = 0
		case upTo < lo: // no finer bound here: the clause's over every document
			w.bound[i] = float64(k.maxScore())
		default:
			w.bound[i] = float64(b)
			w.max = min(w.max, upTo)
		}
	}
	for i, k := range w.kids {
		if k.doc() > w.max { // no document in the window
			w.bound[i] = 0
		}
		w.ord[i] = i
	}
	slices.SortFunc(w.ord, func(a, b int) int { return cmp.Compare(w.bound[a], w.bound[b]) })
	var acc float64
	for j, i := range w.ord {
		acc += w.bound[i]
		w.sums[j] = acc
	}
	return nil
}

// finestBound is s.shallow(target), finer for a term: the bound of the
// 128-doc block holding target when its window is blocked (deepBound).
// target must not be behind a term's loaded window.
func finestBound(s scorer, target int64) (int64, float32, error) {
	if ts, ok := s.(*termScorer); ok {
		return ts.deepBound(target)
	}
	return s.shallow(target)
}
