package reader

// dfCounter is a query whose count may be a document frequency read without
// evaluating it. A search given SearchOptions.Total counts such a query apart
// and stops its evaluation at Limit; any other query is evaluated whole once
// and counted from its matches.
type dfCounter interface {
	countsFromDF(x *qctx) bool
}

// countsFromDF: an exact phrase of two terms (no pattern) with an entry in
// its field's pair section counts from that entry's df.
func (q *phraseQuery) countsFromDF(x *qctx) bool {
	if q.slop != 0 || q.prefix || len(q.terms) != 2 || q.pats != nil || x.noPairs {
		return false
	}
	f, err := x.s.field(q.field)
	if err != nil || f.meta.PairCount == 0 || !f.remotePairs(x) {
		return false
	}
	_, ok, err := x.pairEntry(f, q.terms[0], q.terms[1])
	return err == nil && ok
}

// countFirst reports whether a search given Total counts q before finding its
// matches (with no filter, and q a dfCounter whose count is a df).
func (x *qctx) countFirst(q Query, filter docFilter) bool {
	c, ok := q.(dfCounter)
	return ok && !filter.on && c.countsFromDF(x)
}
