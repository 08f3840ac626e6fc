package reader

import "strconv"

type termQuery struct{ field, term string }

// Term matches the documents whose field holds term, an analyzed token (see
// Segment.Match for raw text).
func Term(field, term string) Query { return &termQuery{field, term} }

func (q *termQuery) String() string { return "term(" + q.field + ":" + strconv.Quote(q.term) + ")" }

// The node methods of a Term query.

func (q *termQuery) docs(x *qctx, filter docFilter, out []uint32) ([]uint32, error) {
	f, err := x.s.field(q.field)
	if err != nil {
		return out, err
	}
	return x.termDocs(f, bytesOf(q.term), filter, out)
}

func (q *termQuery) estimate(x *qctx) (uint64, error) { return x.termDF(q.field, q.term) }

// count is the term's df.
func (q *termQuery) count(x *qctx) (uint64, error) { return x.termDF(q.field, q.term) }

func (q *termQuery) stopsAtLimit() bool { return false }

func (q *termQuery) planTerms(w *termWalk, countOnly bool) {
	w.fn(plannedTerm{field: q.field, term: bytesOf(q.term), whole: !countOnly, phrase: -1})
}

func (q *termQuery) addStats(x *qctx, st *Stats) error { return x.addStats(st, q.field, q.term) }

func (q *termQuery) scorer(t *topRun) (scorer, error) {
	return t.termScorer(q.field, q.term, t.label(q))
}

func (q *termQuery) withoutMissing(s *Segment) Query { return s.noneIfMissing(q, q.field) }

func (q *termQuery) interest(h *highlighter) { h.interestIn(q.field).terms[q.term] = true }

func (q *termQuery) highlight(h *highlighter) error {
	return h.matching(q.field, func(t string) bool { return t == q.term })
}
