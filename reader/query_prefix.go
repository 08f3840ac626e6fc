package reader

import (
	"strconv"

	"github.com/snii-go/snii/internal/errs"
)

type prefixQuery struct {
	field, prefix string
	maxExp        int
}

// Prefix matches the documents holding any of the first maxExpansions terms of
// the field (in byte order) that start with prefix (0: unlimited).
func Prefix(field, prefix string, maxExpansions int) Query {
	return &prefixQuery{field, prefix, maxExpansions}
}

func (q *prefixQuery) String() string {
	return "prefix(" + q.field + ":" + strconv.Quote(q.prefix) + "*,max=" + strconv.Itoa(q.maxExp) + ")"
}

// The node methods of a Prefix query.

func (q *prefixQuery) docs(x *qctx, filter docFilter, out []uint32) ([]uint32, error) {
	if q.maxExp < 0 {
		return out, errs.Invalidf("reader: %s: negative max expansions", q)
	}
	f, err := x.s.field(q.field)
	if err != nil {
		return out, err
	}
	return x.prefixDocs(f, bytesOf(q.prefix), q.maxExp, filter, out)
}

func (q *prefixQuery) estimate(x *qctx) (uint64, error) { return uint64(x.s.docCount), nil }

func (q *prefixQuery) count(x *qctx) (uint64, error) { return x.countDocs(q) }

func (q *prefixQuery) stopsAtLimit() bool { return false }

func (q *prefixQuery) planTerms(w *termWalk, _ bool) {
	w.fn(plannedTerm{field: q.field, term: bytesOf(q.prefix), prefix: true, whole: true, maxExp: q.maxExp, phrase: -1})
}

// addStats records nothing: a prefix scores a constant.
func (q *prefixQuery) addStats(*qctx, *Stats) error { return nil }

func (q *prefixQuery) scorer(t *topRun) (scorer, error) { return t.constScorer(q) }

func (q *prefixQuery) withoutMissing(s *Segment) Query {
	if q.maxExp < 0 {
		return q
	}
	return s.noneIfMissing(q, q.field)
}

func (q *prefixQuery) interest(h *highlighter) {
	in := h.interestIn(q.field)
	in.prefixes = append(in.prefixes, q.prefix)
}

func (q *prefixQuery) highlight(h *highlighter) error {
	if _, err := h.field(q.field); err != nil {
		return err
	}
	ok, err := h.prefixMatcher(q.field, q.prefix, q.maxExp)
	if err != nil {
		return err
	}
	return h.matching(q.field, ok)
}
