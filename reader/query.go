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
	sealed()
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

func (*termQuery) sealed()   {}
func (*phraseQuery) sealed() {}
func (*prefixQuery) sealed() {}
func (*boolQuery) sealed()   {}

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
