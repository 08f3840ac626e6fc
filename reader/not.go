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

// difference appends to dst the elements of a (ascending) not in b (ascending).
func difference(dst, a, b []uint32) []uint32 {
	j := 0
	for _, v := range a {
		for j < len(b) && b[j] < v {
			j++
		}
		if j < len(b) && b[j] == v {
			continue
		}
		dst = append(dst, v)
	}
	return dst
}
