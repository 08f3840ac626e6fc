package reader

import (
	"github.com/snii-go/snii/internal/codec/format"
	"github.com/snii-go/snii/internal/errs"
)

// eval returns the ascending docs matching q (within filter) in a buffer of
// the context (give it back with put).
func (x *qctx) eval(q Query, filter docFilter) ([]uint32, error) {
	if err := x.check(); err != nil {
		return nil, err
	}
	out := x.buf()
	if q == nil {
		return out, errs.Invalidf("reader: nil query")
	}
	return q.docs(x, filter, out)
}

// countDocs counts the docs matching q through eval.
func (x *qctx) countDocs(q Query) (uint64, error) {
	r, err := x.eval(q, docFilter{})
	n := uint64(len(r))
	x.put(r)
	return n, err
}

// termDocs appends the docs of one term (within filter) to out.
func (x *qctx) termDocs(f *field, term []byte, filter docFilter, out []uint32) ([]uint32, error) {
	t, err := x.resolve(f, term)
	if err != nil || t == nil {
		return out, err
	}
	if !filter.on {
		out, err = x.appendDocs(t, out)
		x.popTerm(t)
		return out, err
	}
	if err := x.collect(t, filter.ids, false); err != nil {
		return out, err
	}
	out = append(out, t.docs...)
	x.popTerm(t)
	return out, nil
}

// prefixDocs appends the union of the docs of the expansions of prefix.
func (x *qctx) prefixDocs(f *field, prefix []byte, maxExp int, filter docFilter, out []uint32) ([]uint32, error) {
	return x.expansionDocs(f, func(fn func([]byte, *format.Entry) (bool, error)) error {
		return f.scanPrefix(x, prefix, maxExp, fn)
	}, filter, out)
}

// expansionDocs appends the union of the docs of the terms scan calls its
// function with (a prefix's or a pattern's expansions).
func (x *qctx) expansionDocs(f *field, scan func(fn func([]byte, *format.Entry) (bool, error)) error, filter docFilter, out []uint32) ([]uint32, error) {
	u := &x.union
	u.reset(x.s.docCount)
	err := scan(func(term []byte, e *format.Entry) (bool, error) {
		t, err := x.resolved(f, term, e)
		if err != nil {
			return false, err
		}
		if !filter.on {
			x.docAll, err = x.appendDocs(t, x.docAll[:0])
			if err != nil {
				return false, err
			}
			u.add(x.docAll)
			x.popTerm(t)
			return true, nil
		}
		if err := x.collect(t, filter.ids, false); err != nil {
			return false, err
		}
		u.add(t.docs)
		x.popTerm(t)
		return true, nil
	})
	return u.appendTo(out), err
}

// popTerm releases the most recently resolved term when it is t.
func (x *qctx) popTerm(t *termRef) {
	if x.nterms > 0 && x.terms[x.nterms-1] == t {
		x.nterms--
		t.reset()
	}
}

// estimate is a cheap upper bound of the docs q can match, to order And (the
// document count for a nil query, which eval reports).
func (x *qctx) estimate(q Query) (uint64, error) {
	if q == nil {
		return uint64(x.s.docCount), nil
	}
	return q.estimate(x)
}

// uniteInto returns the union of acc and r (context buffers, ascending),
// giving both back to the context.
func (x *qctx) uniteInto(acc, r []uint32) []uint32 {
	if len(acc) == 0 {
		x.put(acc)
		return r
	}
	u := union(x.buf(), acc, r)
	x.put(acc)
	x.put(r)
	return u
}
