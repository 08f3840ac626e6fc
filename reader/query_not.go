package reader

import "github.com/snii-go/snii/internal/errs"

// notQuery matches what include matches and exclude does not.
type notQuery struct{ include, exclude Query }

// AndNot matches the documents include matches and exclude does not. The
// exclusion is evaluated only over include's documents: a common excluded
// term reads only the doc windows that hold one of them, and an excluded
// phrase verifies positions only there, so the cost follows include, not the
// size of what is excluded. A nil exclude is an invalid-argument error at
// search time, as is a nil include.
func AndNot(include, exclude Query) Query { return &notQuery{include, exclude} }

func (q *notQuery) String() string {
	return "andnot(" + queryString(q.include) + ", " + queryString(q.exclude) + ")"
}

// queryString renders q, or <nil>.
func queryString(q Query) string {
	if q == nil {
		return "<nil>"
	}
	return q.String()
}

// andNot evaluates q within filter.
func (x *qctx) andNot(q *notQuery, filter docFilter) ([]uint32, error) {
	if q.exclude == nil {
		return x.buf(), errs.Invalidf("reader: %s: nil exclude", q)
	}
	inc, err := x.eval(q.include, filter)
	if err != nil || len(inc) == 0 {
		return inc, err
	}
	exc, err := x.eval(q.exclude, only(inc))
	if err != nil {
		x.put(inc)
		return exc, err
	}
	out := difference(x.buf(), inc, exc)
	x.put(inc)
	x.put(exc)
	return out, nil
}

// The node methods of AndNot.

func (q *notQuery) docs(x *qctx, filter docFilter, out []uint32) ([]uint32, error) {
	x.put(out)
	return x.andNot(q, filter)
}

func (q *notQuery) estimate(x *qctx) (uint64, error) { return x.estimate(q.include) }

func (q *notQuery) count(x *qctx) (uint64, error) { return x.countDocs(q) }

func (q *notQuery) stopsAtLimit() bool { return false }

// planTerms plans nothing: the exclusion runs over the include side's
// documents, which stage 3 plans.
func (q *notQuery) planTerms(*termWalk, bool) {}

// addStats records the include side's terms (the exclude side is not
// scored).
func (q *notQuery) addStats(x *qctx, st *Stats) error { return x.walkStats(q.include, st) }

func (q *notQuery) scorer(t *topRun) (scorer, error) { return t.notScorer(q) }

func (q *notQuery) withoutMissing(s *Segment) Query {
	if q.include == nil || q.exclude == nil {
		return q
	}
	in, ex := s.withoutMissing(q.include), s.withoutMissing(q.exclude)
	if in == q.include && ex == q.exclude {
		return q
	}
	return &notQuery{include: in, exclude: ex}
}

// interest records the include side's (the exclude side is not highlighted).
func (q *notQuery) interest(h *highlighter) { h.collect(q.include) }

func (q *notQuery) highlight(h *highlighter) error {
	if q.exclude == nil {
		return errs.Invalidf("reader: highlights: AndNot with a nil exclude")
	}
	return h.walk(q.include)
}
