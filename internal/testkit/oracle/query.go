package oracle

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Query is a query the oracle can answer by scanning.
type Query interface {
	// String renders the query for messages, e.g. phrase(text:"a b").
	String() string
	eval(c *Corpus) []uint32
}

// Term matches the documents whose field holds the term.
type Term struct{ Field, Term string }

// Phrase matches the exact, ordered, adjacent sequence of terms.
type Phrase struct {
	Field string
	Terms []string
}

// PhrasePrefix is a phrase whose last term is a prefix, expanded to the first
// MaxExpansions matching terms in byte order (0: all).
type PhrasePrefix struct {
	Field         string
	Terms         []string
	MaxExpansions int
}

// Prefix matches the documents holding any of the first MaxExpansions terms (in
// byte order, 0: all) that start with Prefix.
type Prefix struct {
	Field, Prefix string
	MaxExpansions int
}

// And is the intersection of its children (empty for no children).
type And []Query

// Or is the union of its children.
type Or []Query

func (q Term) String() string { return fmt.Sprintf("term(%s:%q)", q.Field, q.Term) }
func (q Phrase) String() string {
	return fmt.Sprintf("phrase(%s:%q)", q.Field, strings.Join(q.Terms, " "))
}
func (q PhrasePrefix) String() string {
	return fmt.Sprintf("phraseprefix(%s:%q*,max=%d)", q.Field, strings.Join(q.Terms, " "), q.MaxExpansions)
}
func (q Prefix) String() string {
	return fmt.Sprintf("prefix(%s:%q*,max=%d)", q.Field, q.Prefix, q.MaxExpansions)
}
func (q And) String() string { return join("and", q) }
func (q Or) String() string  { return join("or", q) }

func join(op string, qs []Query) string {
	parts := make([]string, len(qs))
	for i, q := range qs {
		parts[i] = q.String()
	}
	return op + "(" + strings.Join(parts, ", ") + ")"
}

// Eval answers q by scanning every document; the result is ascending doc ids
// (never nil).
func (c *Corpus) Eval(q Query) []uint32 {
	out := q.eval(c)
	if out == nil {
		out = []uint32{}
	}
	return out
}

// slotSet is the set of term ids allowed at one phrase slot: one id, or a
// membership table indexed by term id.
type slotSet struct {
	n      int   // number of ids
	single int32 // the id when n == 1
	member []bool
}

func (s *slotSet) has(t int32) bool {
	if s.n == 1 {
		return t == s.single
	}
	return s.member[t]
}

func (c *Corpus) set(terms ...string) slotSet {
	var s slotSet
	for _, t := range terms {
		id, ok := c.ids[t]
		if !ok {
			continue
		}
		if s.n == 0 {
			s.single = id
		} else {
			if s.member == nil {
				s.member = make([]bool, len(c.terms))
				s.member[s.single] = true
			}
			if s.member[id] {
				continue
			}
			s.member[id] = true
		}
		s.n++
	}
	return s
}

// scan returns the docs of field with a start p such that seq[p+i] is in slots[i].
func (c *Corpus) scan(field string, slots []slotSet) []uint32 {
	fd := c.fields[field]
	if fd == nil || len(slots) == 0 {
		return nil
	}
	for _, s := range slots {
		if s.n == 0 {
			return nil
		}
	}
	var out []uint32
docs:
	for di := range fd.docs {
		d := &fd.docs[di]
		for i := range slots { // quick reject: a single-term slot's term must occur
			if slots[i].n == 1 {
				if _, ok := slices.BinarySearch(d.uniq, slots[i].single); !ok {
					continue docs
				}
			}
		}
		seq := d.seq
	starts:
		for p := 0; p+len(slots) <= len(seq); p++ {
			for i := range slots {
				if t := seq[p+i]; t < 0 || !slots[i].has(t) {
					continue starts
				}
			}
			out = append(out, d.doc)
			break
		}
	}
	return out // fd.docs is ascending
}

func (q Term) eval(c *Corpus) []uint32 {
	return c.scan(q.Field, []slotSet{c.set(q.Term)})
}

func (q Phrase) eval(c *Corpus) []uint32 {
	slots := make([]slotSet, len(q.Terms))
	for i, t := range q.Terms {
		slots[i] = c.set(t)
	}
	return c.scan(q.Field, slots)
}

func (q PhrasePrefix) eval(c *Corpus) []uint32 {
	if len(q.Terms) == 0 {
		return nil
	}
	n := len(q.Terms) - 1
	slots := make([]slotSet, n+1)
	for i, t := range q.Terms[:n] {
		slots[i] = c.set(t)
	}
	slots[n] = c.set(c.Expand(q.Field, q.Terms[n], q.MaxExpansions)...)
	return c.scan(q.Field, slots)
}

func (q Prefix) eval(c *Corpus) []uint32 {
	return c.scan(q.Field, []slotSet{c.set(c.Expand(q.Field, q.Prefix, q.MaxExpansions)...)})
}

func (q And) eval(c *Corpus) []uint32 {
	if len(q) == 0 {
		return nil
	}
	out := q[0].eval(c)
	for _, sub := range q[1:] {
		other := sub.eval(c)
		var kept []uint32
		for _, d := range out {
			if _, ok := slices.BinarySearch(other, d); ok {
				kept = append(kept, d)
			}
		}
		out = kept
	}
	return out
}

func (q Or) eval(c *Corpus) []uint32 {
	seen := map[uint32]bool{}
	var out []uint32
	for _, sub := range q {
		for _, d := range sub.eval(c) {
			if !seen[d] {
				seen[d] = true
				out = append(out, d)
			}
		}
	}
	slices.Sort(out)
	return out
}

// Describe renders doc ids compactly for test messages (at most 20 ids).
func Describe(docs []uint32) string {
	var b strings.Builder
	b.WriteString(strconv.Itoa(len(docs)))
	b.WriteString(" docs [")
	for i, d := range docs {
		if i == 20 {
			b.WriteString(" ...")
			break
		}
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.FormatUint(uint64(d), 10))
	}
	b.WriteByte(']')
	return b.String()
}
