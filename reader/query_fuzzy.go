package reader

import (
	"strconv"

	"github.com/snii-go/snii/internal/codec/format"
	"github.com/snii-go/snii/internal/errs"
)

// MaxEdits is the largest edit distance of a Fuzzy query (Lucene's bound).
const MaxEdits = 2

type fuzzyQuery struct {
	field, term string
	maxEdits    int
	maxExp      int
}

// Fuzzy matches the documents holding any of the first maxExpansions terms of
// the field (in byte order; 0: unlimited) within maxEdits edits of term. An
// edit inserts, deletes or substitutes one character (rune), or transposes two
// adjacent ones: the optimal string alignment distance, as Lucene's FuzzyQuery
// counts by default. maxEdits outside 0..MaxEdits, or a negative
// maxExpansions, is an invalid-argument error at search time. Top scores
// each match 1, as it does a Prefix.
//
// The dictionary is walked in byte order keeping one row of the distance
// table per character of the current term, so a term reuses the rows of the
// prefix it shares with the previous one. A prefix that no continuation can
// bring within maxEdits ends the walk of every term starting with it, and a
// dict block whose terms all share such a prefix (the common prefix of its
// first term and the next block's, in the sampled index) is not read.
func Fuzzy(field, term string, maxEdits, maxExpansions int) Query {
	return &fuzzyQuery{field, term, maxEdits, maxExpansions}
}

func (q *fuzzyQuery) String() string {
	return "fuzzy(" + q.field + ":" + strconv.Quote(q.term) + "~" + strconv.Itoa(q.maxEdits) + ",max=" + strconv.Itoa(q.maxExp) + ")"
}

func (q *fuzzyQuery) check() error {
	switch {
	case q.maxEdits < 0 || q.maxEdits > MaxEdits:
		return errs.Invalidf("reader: %s: max edits %d (want 0..%d)", q, q.maxEdits, MaxEdits)
	case q.maxExp < 0:
		return errs.Invalidf("reader: %s: negative max expansions", q)
	}
	return nil
}

// The node methods of a Fuzzy query.

// docs appends the docs of q's expansions (within filter) to out.
func (q *fuzzyQuery) docs(x *qctx, filter docFilter, out []uint32) ([]uint32, error) {
	if err := q.check(); err != nil {
		return out, err
	}
	f, err := x.s.field(q.field)
	if err != nil {
		return out, err
	}
	return x.expansionDocs(f, func(fn func([]byte, *format.Entry) (bool, error)) error {
		return f.scanFuzzy(x, []rune(q.term), q.maxEdits, q.maxExp, fn)
	}, filter, out)
}

func (q *fuzzyQuery) estimate(x *qctx) (uint64, error) { return uint64(x.s.docCount), nil }

func (q *fuzzyQuery) count(x *qctx) (uint64, error) { return x.countDocs(q) }

func (q *fuzzyQuery) stopsAtLimit() bool { return false }

func (q *fuzzyQuery) planTerms(w *termWalk, _ bool) {
	w.fn(plannedTerm{field: q.field, fuzzy: q, whole: true, maxExp: q.maxExp, phrase: -1})
}

// addStats records nothing: a fuzzy term scores a constant.
func (q *fuzzyQuery) addStats(*qctx, *Stats) error { return nil }

func (q *fuzzyQuery) scorer(t *topRun) (scorer, error) { return t.constScorer(q) }

// withoutMissing keeps the query: a fuzzy term of a missing field reports it.
func (q *fuzzyQuery) withoutMissing(*Segment) Query { return q }

func (q *fuzzyQuery) interest(h *highlighter) {
	if q.check() == nil {
		in := h.interestIn(q.field)
		in.matches = append(in.matches, fuzzyMatcher(q))
	}
}

func (q *fuzzyQuery) highlight(h *highlighter) error {
	if err := q.check(); err != nil {
		return err
	}
	if _, err := h.field(q.field); err != nil {
		return err
	}
	return h.matching(q.field, fuzzyMatcher(q))
}
