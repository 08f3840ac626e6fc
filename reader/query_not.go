package reader

import "github.com/snii-go/snii/internal/errs"

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
