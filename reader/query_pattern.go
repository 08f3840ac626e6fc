package reader

import (
	"strconv"
	"strings"

	"github.com/snii-go/snii/internal/codec/format"
	"github.com/snii-go/snii/internal/errs"
)

type patternQuery struct {
	field, src string
	wildcard   bool
	maxExp     int
	pat        *pattern
	err        error // the pattern does not compile
}

// Regexp matches the documents holding any of the first maxExpansions terms
// of the field (in byte order) that match expr, a regular expression in Go's
// RE2 syntax (regexp/syntax) matched against the whole term: "conn.*" matches
// "connection", not "reconnect". maxExpansions 0 means unlimited; a negative
// one, or an expr that does not compile, is an invalid-argument error at
// search time. The expression is matched as written: terms are analyzed
// tokens, so a field whose analyzer lowercases holds no upper-case letter
// (the query package lowercases a pattern's literal characters for such
// fields). Matching takes time linear in each term (RE2); the expansion seeks
// to the expression's literal prefix and skips the dictionary blocks that no
// term matching it can lie in.
func Regexp(field, expr string, maxExpansions int) Query {
	p, err := compileRegexp(expr)
	return &patternQuery{field: field, src: expr, maxExp: maxExpansions, pat: p, err: err}
}

// Wildcard is Regexp for a wildcard: '*' stands for any run of characters
// (none included, also at the start: "*exception"), '?' for one character,
// and '\' makes the next character literal (`\*`, `\?`, `\\`).
func Wildcard(field, wildcard string, maxExpansions int) Query {
	p, err := compileWildcard(wildcard)
	return &patternQuery{field: field, src: wildcard, wildcard: true, maxExp: maxExpansions, pat: p, err: err}
}

// SlotKind says what a Slot of a PatternPhrase holds.
type SlotKind uint8

const (
	// SlotTerm is one term, as Phrase takes it.
	SlotTerm SlotKind = iota
	// SlotRegexp is a regular expression matched against whole terms (Regexp).
	SlotRegexp
	// SlotWildcard is a wildcard (Wildcard).
	SlotWildcard
)

// Slot is one position of a PatternPhrase.
type Slot struct {
	Kind SlotKind
	Text string // the term, expression or wildcard
}

type patternPhraseQuery struct {
	field  string
	slots  []Slot
	maxExp int
	ph     phraseQuery // the phrase to run: pats[i] is set for a pattern slot
	err    error
}

// PatternPhrase is an exact phrase some of whose positions are patterns: a
// position of kind SlotRegexp or SlotWildcard is the set of the first
// maxExpansions terms of the field (in byte order) its pattern matches, and
// the phrase matches when some term of each position's set stands at adjacent,
// ascending positions. maxExpansions 0 means unlimited (per pattern). A
// single slot is a Term, Regexp or Wildcard query; no slots, an unknown kind,
// a negative maxExpansions or a pattern that does not compile is an
// invalid-argument error at search time.
func PatternPhrase(field string, slots []Slot, maxExpansions int) Query {
	q := &patternPhraseQuery{field: field, slots: append([]Slot(nil), slots...), maxExp: maxExpansions}
	q.ph = phraseQuery{field: field, terms: make([]string, len(slots)), pats: make([]*pattern, len(slots)), maxExp: maxExpansions}
	for i, s := range slots {
		q.ph.terms[i] = s.Text
		var err error
		switch s.Kind {
		case SlotTerm:
		case SlotRegexp:
			q.ph.pats[i], err = compileRegexp(s.Text)
		case SlotWildcard:
			q.ph.pats[i], err = compileWildcard(s.Text)
		default:
			err = errs.Invalidf("reader: phrase slot %d: unknown kind %d", i, s.Kind)
		}
		if err != nil && q.err == nil {
			q.err = err
		}
	}
	return q
}

func (q *patternQuery) String() string {
	if q.wildcard {
		return "wildcard(" + q.field + ":" + strconv.Quote(q.src) + ",max=" + strconv.Itoa(q.maxExp) + ")"
	}
	return "regexp(" + q.field + ":/" + q.src + "/,max=" + strconv.Itoa(q.maxExp) + ")"
}

func (q *patternPhraseQuery) String() string {
	parts := make([]string, len(q.slots))
	for i, s := range q.slots {
		switch s.Kind {
		case SlotRegexp:
			parts[i] = "/" + s.Text + "/"
		case SlotWildcard:
			parts[i] = "wildcard" + strconv.Quote(s.Text)
		default:
			parts[i] = strconv.Quote(s.Text)
		}
	}
	return "patternphrase(" + q.field + ":" + strings.Join(parts, " ") + ",max=" + strconv.Itoa(q.maxExp) + ")"
}

func (q *patternQuery) check() error {
	if q.err != nil {
		return q.err
	}
	if q.maxExp < 0 {
		return errs.Invalidf("reader: %s: negative max expansions", q)
	}
	return nil
}

func (q *patternPhraseQuery) check() error {
	if q.err != nil {
		return q.err
	}
	if len(q.slots) == 0 {
		return errs.Invalidf("reader: %s: no slots", q)
	}
	if q.maxExp < 0 {
		return errs.Invalidf("reader: %s: negative max expansions", q)
	}
	return nil
}

// The node methods of Regexp, Wildcard and PatternPhrase queries.

// docs appends the docs of the expansions of the pattern.
func (q *patternQuery) docs(x *qctx, filter docFilter, out []uint32) ([]uint32, error) {
	if err := q.check(); err != nil {
		return out, err
	}
	f, err := x.s.field(q.field)
	if err != nil {
		return out, err
	}
	return x.expansionDocs(f, func(fn func([]byte, *format.Entry) (bool, error)) error {
		return f.scanPattern(x, q.pat, q.maxExp, fn)
	}, filter, out)
}

func (q *patternQuery) estimate(x *qctx) (uint64, error) { return uint64(x.s.docCount), nil }

func (q *patternQuery) count(x *qctx) (uint64, error) { return x.countDocs(q) }

func (q *patternQuery) stopsAtLimit() bool { return false }

// planTerms plans nothing: a pattern's expansions are read as it runs.
func (q *patternQuery) planTerms(*termWalk, bool) {}

// addStats records nothing: a pattern scores a constant.
func (q *patternQuery) addStats(*qctx, *Stats) error { return nil }

func (q *patternQuery) scorer(t *topRun) (scorer, error) { return t.constScorer(q) }

func (q *patternQuery) withoutMissing(s *Segment) Query {
	if q.check() != nil {
		return q
	}
	return s.noneIfMissing(q, q.field)
}

func (q *patternQuery) interest(h *highlighter) {
	if q.check() == nil {
		in := h.interestIn(q.field)
		in.matches = append(in.matches, q.pat.re.MatchString)
	}
}

// highlight adds the spans of each token the pattern matches (its bound on
// the expansions is not applied).
func (q *patternQuery) highlight(h *highlighter) error {
	if err := q.check(); err != nil {
		return err
	}
	f, err := h.field(q.field)
	if err != nil {
		return err
	}
	h.exact(f, []func(string) bool{q.pat.re.MatchString})
	return nil
}

// docs appends the docs of the pattern phrase.
func (q *patternPhraseQuery) docs(x *qctx, filter docFilter, out []uint32) ([]uint32, error) {
	if err := q.check(); err != nil {
		return out, err
	}
	f, err := x.s.field(q.field)
	if err != nil {
		return out, err
	}
	if len(q.slots) == 1 {
		if p := q.ph.pats[0]; p != nil {
			return x.expansionDocs(f, func(fn func([]byte, *format.Entry) (bool, error)) error {
				return f.scanPattern(x, p, q.maxExp, fn)
			}, filter, out)
		}
		return x.termDocs(f, bytesOf(q.slots[0].Text), filter, out)
	}
	out, _, err = x.phrasePlain(f, &q.ph, filter, pairUse{}, out, false)
	return out, err
}

func (q *patternPhraseQuery) estimate(x *qctx) (uint64, error) { return uint64(x.s.docCount), nil }

func (q *patternPhraseQuery) count(x *qctx) (uint64, error) { return x.countDocs(q) }

func (q *patternPhraseQuery) stopsAtLimit() bool { return false }

// planTerms plans nothing: a pattern's expansions are read as it runs.
func (q *patternPhraseQuery) planTerms(*termWalk, bool) {}

// addStats records nothing: a pattern phrase scores a constant.
func (q *patternPhraseQuery) addStats(*qctx, *Stats) error { return nil }

func (q *patternPhraseQuery) scorer(t *topRun) (scorer, error) { return t.constScorer(q) }

func (q *patternPhraseQuery) withoutMissing(s *Segment) Query {
	if q.check() != nil {
		return q
	}
	return s.noneIfMissing(q, q.field)
}

func (q *patternPhraseQuery) interest(h *highlighter) {
	if q.check() == nil {
		in := h.interestIn(q.field)
		for i, t := range q.ph.terms {
			if p := q.ph.pats[i]; p != nil {
				in.matches = append(in.matches, p.re.MatchString)
			} else {
				in.terms[t] = true
			}
		}
	}
}

// highlight adds the spans of the phrase as an exact phrase whose pattern
// positions take every token their pattern matches (the bound on the
// expansions is not applied).
func (q *patternPhraseQuery) highlight(h *highlighter) error {
	if err := q.check(); err != nil {
		return err
	}
	var match []func(string) bool
	for i, t := range q.ph.terms {
		if p := q.ph.pats[i]; p != nil {
			match = append(match, p.re.MatchString)
		} else {
			match = append(match, func(s string) bool { return s == t })
		}
	}
	f, err := h.field(q.field)
	if err != nil {
		return err
	}
	h.exact(f, match)
	return nil
}
