package reader

import (
	"context"

	"github.com/snii-go/snii/internal/errs"
)

// Stats is what BM25 scores a query with (see CollectionStats): for each
// field the query scores, the documents holding it and its tokens, and for
// each term it scores (a Term's, or an exact or sloppy Phrase's; prefixes
// score a constant), the documents holding it. It implements
// CollectionStats.
//
// Segment.Stats gives one segment's; Add sums another's. The sum over the
// segments of a collection, passed as TopOptions.Stats to each segment's Top,
// scores every document exactly as one segment merged from them would, since
// the merged segment's statistics are those sums. A Stats is safe for
// concurrent reads once no Add runs.
type Stats struct {
	fields map[string]fieldCounts
	dfs    map[fieldTerm]uint64
}

// fieldCounts is what BM25 counts of a field: the documents holding it and
// its tokens in all.
type fieldCounts struct{ docs, tokens uint64 }

type fieldTerm struct{ field, term string }

// Field returns the documents holding the field and its tokens (zero for a
// field the query does not score).
func (st *Stats) Field(field string) (docCount, sumTotalTermFreq uint64) {
	f := st.fields[field]
	return f.docs, f.tokens
}

// DocFreq returns the documents holding the term in the field (zero for a
// term the query does not score).
func (st *Stats) DocFreq(field, term string) uint64 { return st.dfs[fieldTerm{field, term}] }

// Add adds o's counts to st's.
func (st *Stats) Add(o *Stats) {
	if st.fields == nil {
		st.fields = make(map[string]fieldCounts, len(o.fields))
	}
	if st.dfs == nil {
		st.dfs = make(map[fieldTerm]uint64, len(o.dfs))
	}
	for k, v := range o.fields {
		f := st.fields[k]
		st.fields[k] = fieldCounts{f.docs + v.docs, f.tokens + v.tokens}
	}
	for k, v := range o.dfs {
		st.dfs[k] += v
	}
}

// Stats returns this segment's statistics of what q scores. A field the
// segment does not have counts zero documents (no error), so the segments
// of a collection need not all hold every field.
func (s *Segment) Stats(ctx context.Context, q Query) (_ *Stats, err error) {
	if q == nil {
		return nil, errs.Invalidf("reader: nil query")
	}
	if ctx == nil {
		ctx = context.Background()
	}
	if err := s.acquire(); err != nil {
		return nil, err
	}
	defer s.release()
	x := s.getCtx(ctx, false)
	defer s.putCtx(x)
	if s.guarding() {
		defer s.faultGuard(&err, x, enableFaults())
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	q = s.withoutMissing(q)
	x.planQuery(q, true) // remote segments: the dict blocks in one round
	st := &Stats{fields: map[string]fieldCounts{}, dfs: map[fieldTerm]uint64{}}
	if err := x.walkStats(q, st); err != nil {
		return nil, err
	}
	return st, nil
}

// walkStats records the statistics of q's scored terms (none for a nil
// query).
func (x *qctx) walkStats(q Query, st *Stats) error {
	if q == nil {
		return nil
	}
	return q.addStats(x, st)
}

// addStats records the field's statistics and the term's df (a field the
// segment lacks was made a noneQuery and is not met here).
func (x *qctx) addStats(st *Stats, field, term string) error {
	f, err := x.s.field(field)
	if err != nil {
		return err
	}
	if _, ok := st.fields[field]; !ok {
		st.fields[field] = fieldCounts{f.meta.DocsWithField, f.meta.SumTTF}
	}
	k := fieldTerm{field, term}
	if _, ok := st.dfs[k]; ok {
		return nil
	}
	e, err := x.lookupEntry(f, term)
	if err != nil {
		return err
	}
	if e != nil {
		st.dfs[k] = e.DF
	} else {
		st.dfs[k] = 0
	}
	return nil
}

// DocFreq returns the number of documents whose field holds term (0 when
// none does); an unknown field is an snii.ErrNotFound error.
func (s *Segment) DocFreq(ctx context.Context, field, term string) (uint64, error) {
	return s.Count(ctx, Term(field, term), nil)
}
