package reader

import (
	"strconv"
	"strings"

	"github.com/snii-go/snii/internal/errs"
)

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

func (q *phraseQuery) String() string {
	s := q.field + ":" + strconv.Quote(strings.Join(q.terms, " "))
	if q.prefix {
		return "phraseprefix(" + s + "*,max=" + strconv.Itoa(q.maxExp) + ")"
	}
	return "phrase(" + s + q.sloppySuffix() + ")"
}

func (q *phraseQuery) check() error {
	if len(q.terms) == 0 {
		return errs.Invalidf("reader: %s: no terms", q)
	}
	if q.maxExp < 0 {
		return errs.Invalidf("reader: %s: negative max expansions", q)
	}
	if q.slop < 0 {
		return errs.Invalidf("reader: %s: negative slop", q)
	}
	return nil
}

// The node methods of a phrase: Phrase, SloppyPhrase and PhrasePrefix.

func (q *phraseQuery) docs(x *qctx, filter docFilter, out []uint32) ([]uint32, error) {
	if err := q.check(); err != nil {
		return out, err
	}
	f, err := x.s.field(q.field)
	if err != nil {
		return out, err
	}
	if len(q.terms) == 1 {
		if q.prefix {
			return x.prefixDocs(f, bytesOf(q.terms[0]), q.maxExp, filter, out)
		}
		return x.termDocs(f, bytesOf(q.terms[0]), filter, out)
	}
	out, _, err = x.phrase(f, q, filter, out, false)
	return out, err
}

// estimate is the smallest df of the phrase's exact terms.
func (q *phraseQuery) estimate(x *qctx) (uint64, error) {
	f, err := x.s.field(q.field)
	if err != nil {
		return 0, err
	}
	n := len(q.terms)
	if q.prefix {
		n--
	}
	best := uint64(x.s.docCount)
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
}

// count counts a phrase of two terms or more without collecting its
// documents.
func (q *phraseQuery) count(x *qctx) (uint64, error) {
	if len(q.terms) < 2 {
		return x.countDocs(q)
	}
	if err := q.check(); err != nil {
		return 0, err
	}
	f, err := x.s.field(q.field)
	if err != nil {
		return 0, err
	}
	_, n, err := x.phrase(f, q, docFilter{}, nil, true)
	return uint64(n), err
}

// stopsAtLimit: the lowest ids come first, so a phrase stops verifying at the
// limit.
func (q *phraseQuery) stopsAtLimit() bool { return true }

func (q *phraseQuery) planTerms(w *termWalk, _ bool) {
	id := w.n
	w.n++
	nExact := len(q.terms)
	if q.prefix {
		nExact--
	}
	for i, t := range q.terms {
		pt := plannedTerm{field: q.field, term: bytesOf(t), phrase: id, pairs: q.slop == 0 && nExact >= 2}
		if q.prefix && i == len(q.terms)-1 {
			pt.prefix, pt.maxExp, pt.phrase = true, q.maxExp, -1
		}
		if len(q.terms) == 1 {
			pt.whole, pt.phrase = true, -1 // a term or prefix query
		}
		w.fn(pt)
	}
}

// addStats records the terms of an exact or sloppy phrase (a phrase prefix
// scores a constant).
func (q *phraseQuery) addStats(x *qctx, st *Stats) error {
	if q.prefix {
		return nil
	}
	for _, t := range q.terms {
		if err := x.addStats(st, q.field, t); err != nil {
			return err
		}
	}
	return nil
}

func (q *phraseQuery) scorer(t *topRun) (scorer, error) {
	if err := q.check(); err != nil {
		return nil, err
	}
	if q.prefix {
		return t.constScorer(q)
	}
	if len(q.terms) == 1 {
		return t.termScorer(q.field, q.terms[0], t.label(q))
	}
	if q.slop > 0 {
		return t.sloppyScorer(q)
	}
	return t.phraseScorer(q)
}

func (q *phraseQuery) withoutMissing(s *Segment) Query {
	if q.check() != nil {
		return q
	}
	return s.noneIfMissing(q, q.field)
}

func (q *phraseQuery) interest(h *highlighter) {
	in := h.interestIn(q.field)
	for i, t := range q.terms {
		if q.prefix && i == len(q.terms)-1 {
			in.prefixes = append(in.prefixes, t)
		} else {
			in.terms[t] = true
		}
	}
}

func (q *phraseQuery) highlight(h *highlighter) error { return h.phrase(q) }
