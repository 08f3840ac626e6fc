package reader

import (
	"slices"

	"github.com/snii-go/snii/internal/errs"
)

// noneQuery matches no document: a term, phrase or prefix of a field the
// segment does not have, when the search skips missing fields
// (SearchOptions.SkipMissingFields, TopOptions.SkipMissingFields). It renders
// as the query it stands for, so a plan or an explanation reads the same in
// every segment.
type noneQuery struct{ q Query }

func (q *noneQuery) String() string { return q.q.String() }

// withoutMissing returns q with each leaf on a field the segment lacks
// replaced by a noneQuery (q itself when every field is present). A leaf that
// is invalid whatever the segment (a phrase without terms, a negative bound)
// and a nil query are kept, so that the search reports them.
func (s *Segment) withoutMissing(q Query) Query {
	if q == nil {
		return q
	}
	return q.withoutMissing(s)
}

func (s *Segment) noneIfMissing(q Query, field string) Query {
	if _, ok := slices.BinarySearch(s.names, field); ok {
		return q
	}
	return &noneQuery{q}
}

// The node methods of a noneQuery (a leaf on a field the segment lacks).

func (q *noneQuery) docs(_ *qctx, _ docFilter, out []uint32) ([]uint32, error) { return out, nil }

func (q *noneQuery) estimate(*qctx) (uint64, error) { return 0, nil }

func (q *noneQuery) count(x *qctx) (uint64, error) { return x.countDocs(q) }

func (q *noneQuery) stopsAtLimit() bool { return false }

func (q *noneQuery) planTerms(*termWalk, bool) {}

func (q *noneQuery) addStats(*qctx, *Stats) error { return nil }

func (q *noneQuery) scorer(*topRun) (scorer, error) { return nil, nil }

func (q *noneQuery) withoutMissing(*Segment) Query { return q }

func (q *noneQuery) interest(*highlighter) {}

// highlight refuses: a search that skips missing fields is not highlighted.
func (q *noneQuery) highlight(*highlighter) error {
	return errs.Invalidf("reader: highlights: unsupported query %s", q)
}
