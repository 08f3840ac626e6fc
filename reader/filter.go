package reader

import "github.com/snii-go/snii/internal/errs"

// docFilter restricts a query to a set of documents: when on, only the
// ascending ids of ids are considered (none when ids is empty); otherwise
// every document is.
type docFilter struct {
	ids []uint32
	on  bool
}

// only returns the filter that keeps the documents of ids (ascending).
func only(ids []uint32) docFilter { return docFilter{ids: ids, on: true} }

// searchFilter checks the options' limit and returns their filter as ascending
// ids below the document count (off when there is none). A filter holding
// every document is no filter: nothing is materialized and the query runs as
// without one. Otherwise the ids below the document count are copied out in
// bulk.
func (s *Segment) searchFilter(o *SearchOptions) (docFilter, error) {
	if o == nil {
		return docFilter{}, nil
	}
	if o.Limit < 0 {
		return docFilter{}, errs.Invalidf("reader: negative search limit %d", o.Limit)
	}
	if o.Filter == nil {
		return docFilter{}, nil
	}
	if s.docCount == 0 {
		return only(nil), nil
	}
	in := o.Filter.Rank(s.docCount - 1) // the filter's ids below the document count
	if in == uint64(s.docCount) {
		return docFilter{}, nil
	}
	f := make([]uint32, in)
	if in > 0 {
		f = f[:o.Filter.ManyIterator().NextMany(f)]
	}
	return only(f), nil
}

// limitCount caps n at the options' limit.
func limitCount(n uint64, o *SearchOptions) uint64 {
	if o != nil && o.Limit > 0 {
		return min(n, uint64(o.Limit))
	}
	return n
}
