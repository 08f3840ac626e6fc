package reader

// The node methods of a Fuzzy query.

func (q *fuzzyQuery) docs(x *qctx, filter docFilter, out []uint32) ([]uint32, error) {
	return x.fuzzyDocs(q, filter, out)
}

func (q *fuzzyQuery) estimate(x *qctx) (uint64, error) { return uint64(x.s.docCount), nil }

func (q *fuzzyQuery) count(x *qctx) (uint64, error) { return x.countDocs(q) }

func (q *fuzzyQuery) stopsAtLimit() bool { return false }

func (q *fuzzyQuery) planTerms(w *termWalk, _ bool) {
	w.fn(plannedTerm{field: q.field, fuzzy: q, whole: true, maxExp: q.maxExp, phrase: -1})
}

// addStats records nothing: a fuzzy term scores a constant.
func (q *fuzzyQuery) addStats(*qctx, *Stats) error { return nil }

func (q *fuzzyQuery) scorer(t *topRun) (scorer, error) { return t.constScorer(q) }

// withoutMissing keeps the query: a fuzzy term of a missing field reports it.
func (q *fuzzyQuery) withoutMissing(*Segment) Query { return q }

func (q *fuzzyQuery) interest(h *highlighter) {
	if q.check() == nil {
		in := h.interestIn(q.field)
		in.matches = append(in.matches, fuzzyMatcher(q))
	}
}

func (q *fuzzyQuery) highlight(h *highlighter) error {
	if err := q.check(); err != nil {
		return err
	}
	if _, err := h.field(q.field); err != nil {
		return err
	}
	return h.matching(q.field, fuzzyMatcher(q))
}
