package peers

import (
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/snii-go/snii/internal/testkit/oracle"
)

// Oracle answers queries by scanning every document's token sequence. It
// shares no code with any engine: its tokenizer is Tokenize, written from the
// analyzer's definition. Tokens are interned so that a large corpus fits.
type Oracle struct {
	docs  [][]int32 // per doc, the term id at each position (-1: skipped token)
	terms []string  // term id -> term
}

// NewOracle tokenizes docs (doc id = index).
func NewOracle(docs []string) *Oracle {
	o := &Oracle{docs: make([][]int32, len(docs))}
	ids := map[string]int32{}
	for d, text := range docs {
		toks := Tokenize(text)
		seq := make([]int32, len(toks))
		for i, t := range toks {
			if t == "" {
				seq[i] = -1
				continue
			}
			id, ok := ids[t]
			if !ok {
				id = int32(len(o.terms))
				ids[t] = id
				o.terms = append(o.terms, t)
			}
			seq[i] = id
		}
		o.docs[d] = seq
	}
	return o
}

// NumDocs returns the number of documents.
func (o *Oracle) NumDocs() int { return len(o.docs) }

// NumPositions returns the number of positions (kept and skipped tokens).
func (o *Oracle) NumPositions() int {
	n := 0
	for _, d := range o.docs {
		n += len(d)
	}
	return n
}

// slot is the set of term ids allowed at one phrase position, indexed by term id.
type slot []bool

func (o *Oracle) exact(t string) slot {
	s := make(slot, len(o.terms))
	for id, term := range o.terms {
		if term == t {
			s[id] = true
		}
	}
	return s
}

func (o *Oracle) prefixed(p string) slot {
	s := make(slot, len(o.terms))
	for id, term := range o.terms {
		if strings.HasPrefix(term, p) {
			s[id] = true
		}
	}
	return s
}

// Expansions returns the terms of the corpus that start with p, in byte order.
func (o *Oracle) Expansions(p string) []string {
	var out []string
	for _, t := range o.terms {
		if strings.HasPrefix(t, p) {
			out = append(out, t)
		}
	}
	sort.Strings(out)
	return out
}

// PatternTerms returns the terms of the corpus that a KindRegexp query (Go's
// regexp, anchored at both ends) or a KindWildcard query (oracle.Glob, the
// test oracle's character-by-character wildcard match)
// matches, in byte order; nil for other kinds.
func (o *Oracle) PatternTerms(q *Query) []string {
	var match func(string) bool
	switch q.Kind {
	case KindRegexp:
		match = regexp.MustCompile(`^(?:` + q.Text + `)$`).MatchString
	case KindWildcard:
		match = func(t string) bool { return oracle.Glob(q.Text, t) }
	default:
		return nil
	}
	out := []string{}
	for _, t := range o.terms {
		if match(t) {
			out = append(out, t)
		}
	}
	sort.Strings(out)
	return out
}

// Docs answers q: the ascending ids of the matching documents (never nil).
func (o *Oracle) Docs(q *Query) []uint32 {
	slots := make([]slot, len(q.Terms))
	if terms := o.PatternTerms(q); terms != nil {
		s := make(slot, len(o.terms))
		for id, t := range o.terms {
			_, s[id] = slices.BinarySearch(terms, t)
		}
		slots[0] = s
	}
	for i, t := range q.Terms {
		last := i == len(q.Terms)-1
		if slots[i] != nil {
			continue
		}
		if last && (q.Kind == KindPrefix || q.Kind == KindPhrasePrefix) {
			slots[i] = o.prefixed(t)
		} else {
			slots[i] = o.exact(t)
		}
	}
	out := []uint32{}
	for d, seq := range o.docs {
		if matchAt(seq, slots) {
			out = append(out, uint32(d))
		}
	}
	return out
}

func matchAt(seq []int32, slots []slot) bool {
	n := len(slots)
	for p := 0; p+n <= len(seq); p++ {
		ok := true
		for i, s := range slots {
			if id := seq[p+i]; id < 0 || !s[id] {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// DF returns each term's document frequency (for query generation).
func (o *Oracle) DF() map[string]int {
	df := make([]int, len(o.terms))
	seen := make([]int32, len(o.terms))
	for i := range seen {
		seen[i] = -1
	}
	for d, seq := range o.docs {
		for _, id := range seq {
			if id >= 0 && seen[id] != int32(d) {
				seen[id] = int32(d)
				df[id]++
			}
		}
	}
	out := make(map[string]int, len(o.terms))
	for i, t := range o.terms {
		out[t] = df[i]
	}
	return out
}

// DocTerms returns the terms of document d ("" for a skipped token).
func (o *Oracle) DocTerms(d int) []string {
	out := make([]string, len(o.docs[d]))
	for i, id := range o.docs[d] {
		if id >= 0 {
			out[i] = o.terms[id]
		}
	}
	return out
}
