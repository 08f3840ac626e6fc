package reader

import "github.com/snii-go/snii/internal/errs"

// searchFilter checks the options' limit and returns their filter as ascending
// ids below the document count (hasFilter false when there is none). A filter
// holding every document is no filter: nothing is materialized and the query
// runs as without one. Otherwise the ids below the document count are copied
// out in bulk.
func (s *Segment) searchFilter(o *SearchOptions) ([]uint32, bool, error) {
	if o == nil {
		return nil, false, nil
	}
	if o.Limit < 0 {
		return nil, false, errs.Invalidf("reader: negative search limit %d", o.Limit)
	}
	if o.Filter == nil {
		return nil, false, nil
	}
	if s.docCount == 0 {
		return nil, true, nil
	}
	in := o.Filter.Rank(s.docCount - 1) // the filter's ids below the document count
	if in == uint64(s.docCount) {
		return nil, false, nil
	}
	f := make([]uint32, in)
	if in > 0 {
		f = f[:o.Filter.ManyIterator().NextMany(f)]
	}
	return f, true, nil
}

// limitCount caps n at the options' limit.
func limitCount(n uint64, o *SearchOptions) uint64 {
	if o != nil && o.Limit > 0 {
		return min(n, uint64(o.Limit))
	}
	return n
}
