package reader

import (
	"slices"

	"github.com/snii-go/snii/internal/errs"
)

// notScorer ranks AndNot(include, exclude) as Lucene ranks a required clause
// beside a prohibited one: include's score, on the documents exclude does not
// match. Excluding only removes documents, so include's bounds stay valid.
type notScorer struct {
	scorer
	excl []uint32 // ascending
	k    int      // next candidate of excl
}

func (n *notScorer) advance(target int64) (int64, error) {
	for {
		d, err := n.scorer.advance(target)
		if err != nil || d >= exhausted {
			return d, err
		}
		for n.k < len(n.excl) && int64(n.excl[n.k]) < d {
			n.k++
		}
		if n.k == len(n.excl) || int64(n.excl[n.k]) != d {
			return d, nil
		}
		target = d + 1
	}
}

// notScorer builds the scorer of q: the exclusion is evaluated over include's
// documents only (as AndNot does for sets).
func (t *topRun) notScorer(q *notQuery) (scorer, error) {
	if q.include == nil || q.exclude == nil {
		return nil, errs.Invalidf("reader: %s: nil include or exclude", q)
	}
	inc, err := t.build(q.include)
	if err != nil || inc == nil {
		return nil, err
	}
	x := t.x
	docs, err := x.eval(q.include, t.filter)
	if err != nil {
		x.put(docs)
		return nil, err
	}
	exc, err := x.eval(q.exclude, only(docs))
	x.put(docs)
	if err != nil {
		x.put(exc)
		return nil, err
	}
	ns := &notScorer{scorer: inc, excl: slices.Clone(exc)}
	x.put(exc)
	return ns, nil
}
