package reader

import (
	"cmp"
	"slices"
	"strings"

	"github.com/snii-go/snii/internal/errs"
)

type boolQuery struct {
	and bool
	qs  []Query
}

// And matches the documents every query matches (no queries: none).
func And(qs ...Query) Query { return &boolQuery{and: true, qs: append([]Query(nil), qs...)} }

// Or matches the documents any query matches.
func Or(qs ...Query) Query { return &boolQuery{qs: append([]Query(nil), qs...)} }

func (q *boolQuery) String() string {
	op := "or("
	if q.and {
		op = "and("
	}
	parts := make([]string, len(q.qs))
	for i, c := range q.qs {
		if c == nil {
			parts[i] = "<nil>"
		} else {
			parts[i] = c.String()
		}
	}
	return op + strings.Join(parts, ", ") + ")"
}

// and intersects the children, cheapest first; each later child only looks at
// the documents still matching.
func (x *qctx) and(qs []Query, filter docFilter) ([]uint32, error) {
	if len(qs) == 0 {
		return x.buf(), nil
	}
	type est struct {
		q Query
		n uint64
	}
	ests := make([]est, len(qs))
	for i, c := range qs {
		n, err := x.estimate(c)
		if err != nil {
			return x.buf(), err
		}
		ests[i] = est{c, n}
	}
	slices.SortStableFunc(ests, func(a, b est) int {
		return cmp.Compare(a.n, b.n)
	})
	var cur []uint32
	owned := false
	for _, e := range ests {
		r, err := x.eval(e.q, filter)
		if owned {
			x.put(cur)
		}
		if err != nil {
			return r, err
		}
		cur, owned = r, true
		filter = only(cur)
		if len(cur) == 0 {
			break
		}
	}
	return cur, nil
}

// or unites the children (each restricted to filter).
func (x *qctx) or(qs []Query, filter docFilter) ([]uint32, error) {
	acc := x.buf()
	for _, c := range qs {
		r, err := x.eval(c, filter)
		if err != nil {
			x.put(acc)
			return r, err
		}
		acc = x.uniteInto(acc, r)
	}
	return acc, nil
}

// The node methods of And and Or.

func (q *boolQuery) docs(x *qctx, filter docFilter, out []uint32) ([]uint32, error) {
	x.put(out)
	if q.and {
		return x.and(q.qs, filter)
	}
	return x.or(q.qs, filter)
}

// estimate is the smallest of the clauses' for And, their sum (at most the
// document count) for Or.
func (q *boolQuery) estimate(x *qctx) (uint64, error) {
	all := uint64(x.s.docCount)
	var r uint64
	if q.and {
		r = all
	}
	for _, c := range q.qs {
		v, err := x.estimate(c)
		if err != nil {
			return 0, err
		}
		if q.and {
			r = min(r, v)
		} else {
			r = min(all, r+v)
		}
	}
	return r, nil
}

func (q *boolQuery) count(x *qctx) (uint64, error) { return x.countDocs(q) }

func (q *boolQuery) stopsAtLimit() bool { return false }

// planTerms plans the clauses' terms as for documents (not a count).
func (q *boolQuery) planTerms(w *termWalk, _ bool) {
	for _, c := range q.qs {
		w.walk(c, false)
	}
}

func (q *boolQuery) addStats(x *qctx, st *Stats) error {
	for _, c := range q.qs {
		if err := x.walkStats(c, st); err != nil {
			return err
		}
	}
	return nil
}

// scorer combines the clauses' scorers: And matches nothing when a clause
// matches nothing; Or leaves such clauses out.
func (q *boolQuery) scorer(t *topRun) (scorer, error) {
	var kids []scorer
	for _, c := range q.qs {
		if c == nil {
			return nil, errs.Invalidf("reader: nil query in %s", q)
		}
		k, err := t.build(c)
		if err != nil {
			return nil, err
		}
		if k == nil {
			if q.and {
				return nil, nil
			}
			continue
		}
		kids = append(kids, k)
	}
	if len(kids) == 0 {
		return nil, nil
	}
	if q.and {
		return newConj(kids, t.label(q)), nil
	}
	return newDisj(kids, t.label(q)), nil
}

// withoutMissing rewrites the clauses (q itself when none changes or one is
// nil).
func (q *boolQuery) withoutMissing(s *Segment) Query {
	var qs []Query
	for i, c := range q.qs {
		if c == nil {
			return q
		}
		if r := s.withoutMissing(c); r != c {
			if qs == nil {
				qs = append([]Query(nil), q.qs...)
			}
			qs[i] = r
		}
	}
	if qs == nil {
		return q
	}
	return &boolQuery{and: q.and, qs: qs}
}

func (q *boolQuery) interest(h *highlighter) {
	for _, c := range q.qs {
		h.collect(c)
	}
}

func (q *boolQuery) highlight(h *highlighter) error {
	for _, c := range q.qs {
		if err := h.walk(c); err != nil {
			return err
		}
	}
	return nil
}
