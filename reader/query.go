package reader

// Query is a query over one segment: Term, Phrase, PhrasePrefix, Prefix, Fuzzy
// and the And/Or of queries. Their terms are analyzed tokens, matched byte for
// byte: Term("text", "Refused") matches nothing in a field whose analyzer
// lowercases. Build queries from raw text with Segment.Match (or package
// query), which run the field's analyzer.
// A Query is immutable and may be shared between goroutines and segments. The
// interface is sealed: only this package implements it.
type Query interface {
	// String renders the query, e.g. phrase(text:"connection reset").
	String() string
	node
}

// node is what each kind of query does on a segment: the query engine calls
// these methods once per node of a query (never per document), through the
// helpers that also accept a nil query (eval, estimate, walkTerms, build, ...).
type node interface {
	// docs appends the ascending docs matching within filter to out, a
	// buffer of the context (see qctx.eval).
	docs(x *qctx, filter docFilter, out []uint32) ([]uint32, error)
	// estimate is a cheap upper bound of the docs the query can match, to
	// order And.
	estimate(x *qctx) (uint64, error)
	// count is the number of docs matching, without a filter (see
	// Segment.Count).
	count(x *qctx) (uint64, error)
	// stopsAtLimit reports whether the query stops verifying candidates at
	// SearchOptions.Limit matches.
	stopsAtLimit() bool
	// planTerms lists the terms and prefixes a remote segment fetches ahead
	// (stages 1 and 2, see planQuery).
	planTerms(w *termWalk, countOnly bool)
	// addStats records the statistics of the query's scored terms (see
	// Segment.Stats).
	addStats(x *qctx, st *Stats) error
	// scorer returns the query's scorer for Top, or nil when it matches
	// nothing.
	scorer(t *topRun) (scorer, error)
	// withoutMissing returns the query with each leaf on a field the segment
	// lacks replaced by a noneQuery (see Segment.withoutMissing).
	withoutMissing(s *Segment) Query
	// interest records the terms, prefixes and matchers of the query's
	// positive clauses per field (see highlighter.collect).
	interest(h *highlighter)
	// highlight adds the spans the query's positive clauses match (see
	// highlighter.walk).
	highlight(h *highlighter) error
}
