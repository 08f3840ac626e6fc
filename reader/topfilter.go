package reader

import "slices"

// filterScorer walks the documents of a term's scorer that TopOptions.Filter
// allows: it advances the term straight to the next allowed document, so the
// doc windows and 128-doc blocks between two allowed documents are skipped
// by their first and last ids without decoding, and its bounds cover only the
// blocks that hold an allowed document. The other leaves (phrases, prefixes)
// are evaluated within the filter, and And, Or and AndNot combine leaves
// that match allowed documents only.
type filterScorer struct {
	scorer
	allow []uint32 // ascending
	k     int      // allow[:k] are below the last target
	cur   int64
}

// filtered returns s restricted to the filter, or s when there is none.
func (t *topRun) filtered(s scorer) scorer {
	if !t.filter.on {
		return s
	}
	return &filterScorer{scorer: s, allow: t.filter.ids, cur: -1}
}

// next returns the first allowed document >= target, or exhausted.
func (f *filterScorer) next(target int64) int64 {
	if target >= exhausted {
		return exhausted
	}
	tg := uint32(max(target, 0))
	if f.k > 0 && f.allow[f.k-1] >= tg { // behind the last target (shallow may look back)
		f.k, _ = slices.BinarySearch(f.allow, tg)
	} else {
		f.k = seekGE(f.allow, f.k, tg)
	}
	if f.k == len(f.allow) {
		return exhausted
	}
	return int64(f.allow[f.k])
}

func (f *filterScorer) doc() int64 { return f.cur }

func (f *filterScorer) advance(target int64) (int64, error) {
	if f.cur >= target || f.cur == exhausted {
		return f.cur, nil
	}
	for {
		a := f.next(target)
		if a == exhausted {
			f.cur = exhausted
			return f.cur, nil
		}
		d, err := f.scorer.advance(a)
		if err != nil || d == exhausted || d == a {
			f.cur = d
			return d, err
		}
		if f.next(d) == d {
			f.cur = d
			return d, nil
		}
		target = d + 1
	}
}

func (f *filterScorer) shallow(target int64) (int64, float32, error) {
	a := f.next(target)
	if a == exhausted {
		return exhausted, 0, nil
	}
	return f.scorer.shallow(a)
}
