package reader

import (
	"cmp"
	"slices"

	"github.com/snii-go/snii/internal/codec/format"
	"github.com/snii-go/snii/internal/errs"
)

// lookupEntry returns a copy of a term's dict entry, or nil when absent.
func (x *qctx) lookupEntry(f *field, term string) (*format.Entry, error) {
	e := &x.entry
	found, err := f.lookup(x, bytesOf(term), e)
	if err != nil || !found {
		return nil, err
	}
	return e, nil
}

// eval returns the ascending docs matching q (restricted to filter when
// hasFilter) in a buffer of the context (give it back with put).
func (x *qctx) eval(q Query, filter []uint32, hasFilter bool) ([]uint32, error) {
	if err := x.check(); err != nil {
		return nil, err
	}
	out := x.buf()
	switch q := q.(type) {
	case *termQuery:
		f, err := x.s.field(q.field)
		if err != nil {
			return out, err
		}
		return x.termDocs(f, bytesOf(q.term), filter, hasFilter, out)
	case *prefixQuery:
		if q.maxExp < 0 {
			return out, errs.Invalidf("reader: %s: negative max expansions", q)
		}
		f, err := x.s.field(q.field)
		if err != nil {
			return out, err
		}
		return x.prefixDocs(f, bytesOf(q.prefix), q.maxExp, filter, hasFilter, out)
	case *fuzzyQuery:
		return x.fuzzyDocs(q, filter, hasFilter, out)
	case *phraseQuery:
		if err := q.check(); err != nil {
			return out, err
		}
		f, err := x.s.field(q.field)
		if err != nil {
			return out, err
		}
		if len(q.terms) == 1 {
			if q.prefix {
				return x.prefixDocs(f, bytesOf(q.terms[0]), q.maxExp, filter, hasFilter, out)
			}
			return x.termDocs(f, bytesOf(q.terms[0]), filter, hasFilter, out)
		}
		out, _, err = x.phrase(f, q, filter, hasFilter, out, false)
		return out, err
	case *patternQuery:
		return x.patternDocs(q, filter, hasFilter, out)
	case *patternPhraseQuery:
		return x.patternPhraseDocs(q, filter, hasFilter, out)
	case *boolQuery:
		x.put(out)
		if q.and {
			return x.and(q.qs, filter, hasFilter)
		}
		return x.or(q.qs, filter, hasFilter)
	case *notQuery:
		x.put(out)
		return x.andNot(q, filter, hasFilter)
	case *noneQuery:
		return out, nil
	case nil:
		return out, errs.Invalidf("reader: nil query")
	}
	return out, errs.Invalidf("reader: unknown query type %T", q)
}

// termDocs appends the docs of one term (within filter) to out.
func (x *qctx) termDocs(f *field, term []byte, filter []uint32, hasFilter bool, out []uint32) ([]uint32, error) {
	t, err := x.resolve(f, term)
	if err != nil || t == nil {
		return out, err
	}
	if !hasFilter {
		out, err = x.appendDocs(t, out)
		x.popTerm(t)
		return out, err
	}
	if err := x.collect(t, filter, false); err != nil {
		return out, err
	}
	out = append(out, t.docs...)
	x.popTerm(t)
	return out, nil
}

// prefixDocs appends the union of the docs of the expansions of prefix.
func (x *qctx) prefixDocs(f *field, prefix []byte, maxExp int, filter []uint32, hasFilter bool, out []uint32) ([]uint32, error) {
	return x.expansionDocs(f, func(fn func([]byte, *format.Entry) (bool, error)) error {
		return f.scanPrefix(x, prefix, maxExp, fn)
	}, filter, hasFilter, out)
}

// expansionDocs appends the union of the docs of the terms scan calls its
// function with (a prefix's or a pattern's expansions).
func (x *qctx) expansionDocs(f *field, scan func(fn func([]byte, *format.Entry) (bool, error)) error, filter []uint32, hasFilter bool, out []uint32) ([]uint32, error) {
	u := &x.union
	u.reset(x.s.docCount)
	err := scan(func(term []byte, e *format.Entry) (bool, error) {
		t, err := x.resolved(f, term, e)
		if err != nil {
			return false, err
		}
		if !hasFilter {
			x.docAll, err = x.appendDocs(t, x.docAll[:0])
			if err != nil {
				return false, err
			}
			u.add(x.docAll)
			x.popTerm(t)
			return true, nil
		}
		if err := x.collect(t, filter, false); err != nil {
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

// estimate is a cheap upper bound of the docs q can match, to order And.
func (x *qctx) estimate(q Query) (uint64, error) {
	all := uint64(x.s.docCount)
	switch q := q.(type) {
	case *termQuery:
		f, err := x.s.field(q.field)
		if err != nil {
			return 0, err
		}
		e, err := x.lookupEntry(f, q.term)
		if err != nil || e == nil {
			return 0, err
		}
		return e.DF, nil
	case *phraseQuery:
		f, err := x.s.field(q.field)
		if err != nil {
			return 0, err
		}
		n := len(q.terms)
		if q.prefix {
			n--
		}
		best := all
		for _, t := range q.terms[:max(n, 0)] {
			e, err := x.lookupEntry(f, t)
			if err != nil {
				return 0, err
			}
			if e == nil {
				return 0, nil
			}
			best = min(best, e.DF)
		}
		return best, nil
	case *boolQuery:
		var r uint64
		if q.and {
			r = all
		}
		for _, c := range q.qs {
			v, err := x.estimate(c)
			if err != nil {
				return 0, err
			}
			if q.and {
				r = min(r, v)
			} else {
				r = min(all, r+v)
			}
		}
		return r, nil
	case *notQuery:
		return x.estimate(q.include)
	case *noneQuery:
		return 0, nil
	}
	return all, nil
}

// and intersects the children, cheapest first; each later child only looks at
// the documents still matching.
func (x *qctx) and(qs []Query, filter []uint32, hasFilter bool) ([]uint32, error) {
	if len(qs) == 0 {
		return x.buf(), nil
	}
	type est struct {
		q Query
		n uint64
	}
	ests := make([]est, len(qs))
	for i, c := range qs {
		n, err := x.estimate(c)
		if err != nil {
			return x.buf(), err
		}
		ests[i] = est{c, n}
	}
	slices.SortStableFunc(ests, func(a, b est) int {
		return cmp.Compare(a.n, b.n)
	})
	var cur []uint32
	owned := false
	for _, e := range ests {
		r, err := x.eval(e.q, filter, hasFilter)
		if owned {
			x.put(cur)
		}
		if err != nil {
			return r, err
		}
		cur, owned = r, true
		filter, hasFilter = cur, true
		if len(cur) == 0 {
			break
		}
	}
	return cur, nil
}

// or unites the children (each restricted to filter).
func (x *qctx) or(qs []Query, filter []uint32, hasFilter bool) ([]uint32, error) {
	acc := x.buf()
	for _, c := range qs {
		r, err := x.eval(c, filter, hasFilter)
		if err != nil {
			x.put(acc)
			return r, err
		}
		acc = x.uniteInto(acc, r)
	}
	return acc, nil
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
