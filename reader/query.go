package reader

import (
	"strconv"
	"strings"
)

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

type termQuery struct{ field, term string }

type phraseQuery struct {
	field string
	terms []string
	// prefix: the last term is a prefix expanded to at most maxExp terms.
	prefix bool
	maxExp int
	slop   int // SloppyPhrase; 0 is exact
	// pats (a PatternPhrase's phrase): pats[i] set makes position i the
	// expansions of that pattern instead of terms[i].
	pats []*pattern
}

type prefixQuery struct {
	field, prefix string
	maxExp        int
}

type boolQuery struct {
	and bool
	qs  []Query
}

// Term matches the documents whose field holds term, an analyzed token (see
// Segment.Match for raw text).
func Term(field, term string) Query { return &termQuery{field, term} }

// Phrase matches the documents whose field holds terms at adjacent, ascending
// positions (exact, ordered phrase; a term may repeat: "a a b"). A single term is
// a Term query; no terms is an invalid-argument error at search time.
func Phrase(field string, terms ...string) Query {
	return &phraseQuery{field: field, terms: append([]string(nil), terms...)}
}

// PhrasePrefix is a phrase whose last term is a prefix: it matches when any of
// the first maxExpansions terms of the field (in byte order) that start with it
// completes the phrase. maxExpansions 0 means unlimited; negative is an
// invalid-argument error at search time. A single term is a Prefix query.
// Like SloppyPhrase, it takes its number before the terms.
func PhrasePrefix(field string, maxExpansions int, terms ...string) Query {
	return &phraseQuery{field: field, terms: append([]string(nil), terms...), prefix: true, maxExp: maxExpansions}
}

// Prefix matches the documents holding any of the first maxExpansions terms of
// the field (in byte order) that start with prefix (0: unlimited).
func Prefix(field, prefix string, maxExpansions int) Query {
	return &prefixQuery{field, prefix, maxExpansions}
}

// And matches the documents every query matches (no queries: none).
func And(qs ...Query) Query { return &boolQuery{and: true, qs: append([]Query(nil), qs...)} }

// Or matches the documents any query matches.
func Or(qs ...Query) Query { return &boolQuery{qs: append([]Query(nil), qs...)} }

func (q *termQuery) String() string { return "term(" + q.field + ":" + strconv.Quote(q.term) + ")" }

func (q *phraseQuery) String() string {
	s := q.field + ":" + strconv.Quote(strings.Join(q.terms, " "))
	if q.prefix {
		return "phraseprefix(" + s + "*,max=" + strconv.Itoa(q.maxExp) + ")"
	}
	return "phrase(" + s + q.sloppySuffix() + ")"
}

func (q *prefixQuery) String() string {
	return "prefix(" + q.field + ":" + strconv.Quote(q.prefix) + "*,max=" + strconv.Itoa(q.maxExp) + ")"
}

func (q *boolQuery) String() string {
	op := "or("
	if q.and {
		op = "and("
	}
	parts := make([]string, len(q.qs))
	for i, c := range q.qs {
		if c == nil {
			parts[i] = "<nil>"
		} else {
			parts[i] = c.String()
		}
	}
	return op + strings.Join(parts, ", ") + ")"
}
