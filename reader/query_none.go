package reader

import "github.com/snii-go/snii/internal/errs"

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
