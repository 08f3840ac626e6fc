package reader

import "github.com/snii-go/snii/internal/errs"

// searchFilter checks the options' limit and returns their filter as ascending
// ids below the document count (hasFilter false when there is none).
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
	f := make([]uint32, 0, min(o.Filter.GetCardinality(), uint64(s.docCount)))
	it := o.Filter.Iterator()
	for it.HasNext() {
		d := it.Next()
		if d >= s.docCount {
			break
		}
		f = append(f, d)
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
