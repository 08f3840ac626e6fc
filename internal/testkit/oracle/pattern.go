package oracle

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"
)

// Regexp matches the documents holding any of the first MaxExpansions terms
// (in byte order, 0: all) that the regular expression Expr matches whole.
type Regexp struct {
	Field, Expr   string
	MaxExpansions int
}

// Wildcard matches the documents holding any of the first MaxExpansions terms
// (in byte order, 0: all) that match Pattern: '*' any run of characters, '?'
// one character, '\' the next character literally.
type Wildcard struct {
	Field, Pattern string
	MaxExpansions  int
}

// Slot is one position of a PatternPhrase: a term (neither Regexp nor
// Wildcard set), a regular expression or a wildcard.
type Slot struct {
	Text             string
	Regexp, Wildcard bool
}

// PatternPhrase is an exact phrase whose positions are terms or patterns
// (each pattern expanded to its first MaxExpansions matching terms).
type PatternPhrase struct {
	Field         string
	Slots         []Slot
	MaxExpansions int
}

func (q Regexp) String() string {
	return fmt.Sprintf("regexp(%s:/%s/,max=%d)", q.Field, q.Expr, q.MaxExpansions)
}
func (q Wildcard) String() string {
	return fmt.Sprintf("wildcard(%s:%q,max=%d)", q.Field, q.Pattern, q.MaxExpansions)
}
func (q PatternPhrase) String() string {
	parts := make([]string, len(q.Slots))
	for i, s := range q.Slots {
		switch {
		case s.Regexp:
			parts[i] = "/" + s.Text + "/"
		case s.Wildcard:
			parts[i] = "wildcard" + fmt.Sprintf("%q", s.Text)
		default:
			parts[i] = fmt.Sprintf("%q", s.Text)
		}
	}
	return fmt.Sprintf("patternphrase(%s:%s,max=%d)", q.Field, strings.Join(parts, " "), q.MaxExpansions)
}

// matching returns the first max terms of field (byte order, max <= 0: all)
// that match, by testing every term of the field.
func (c *Corpus) matching(field string, max int, match func(string) bool) []string {
	fd := c.fields[field]
	if fd == nil {
		return nil
	}
	var out []string
	for _, t := range c.sortedTerms(fd) {
		if max > 0 && len(out) == max {
			break
		}
		if match(t) {
			out = append(out, t)
		}
	}
	return out
}

// regexpMatcher returns the whole-term match of expr (nil for an invalid one).
func regexpMatcher(expr string) func(string) bool {
	re, err := regexp.Compile(`^(?:` + expr + `)$`)
	if err != nil {
		return nil
	}
	return re.MatchString
}

// Glob reports whether s matches the wildcard w, character by character.
func Glob(w, s string) bool {
	var pat []globTok
	for i := 0; i < len(w); {
		r, n := utf8.DecodeRuneInString(w[i:])
		i += n
		switch r {
		case '*':
			pat = append(pat, globTok{star: true})
		case '?':
			pat = append(pat, globTok{any: true})
		case '\\':
			if i < len(w) {
				r, n = utf8.DecodeRuneInString(w[i:])
				i += n
			}
			pat = append(pat, globTok{r: r})
		default:
			pat = append(pat, globTok{r: r})
		}
	}
	var rs []rune
	for _, r := range s { // invalid bytes read as U+FFFD, one each
		rs = append(rs, r)
	}
	// ok[j]: pat[:i] matches rs[:j]
	ok := make([]bool, len(rs)+1)
	ok[0] = true
	for _, p := range pat {
		next := make([]bool, len(rs)+1)
		for j := range next {
			switch {
			case p.star:
				next[j] = ok[j] || j > 0 && next[j-1]
			case j > 0 && (p.any || p.r == rs[j-1]):
				next[j] = ok[j-1]
			}
		}
		ok = next
	}
	return ok[len(rs)]
}

type globTok struct {
	star, any bool
	r         rune
}

func (q Regexp) eval(c *Corpus) []uint32 {
	m := regexpMatcher(q.Expr)
	if m == nil {
		return nil
	}
	return c.scan(q.Field, []slotSet{c.set(c.matching(q.Field, q.MaxExpansions, m)...)})
}

func (q Wildcard) eval(c *Corpus) []uint32 {
	m := func(t string) bool { return Glob(q.Pattern, t) }
	return c.scan(q.Field, []slotSet{c.set(c.matching(q.Field, q.MaxExpansions, m)...)})
}

func (q PatternPhrase) eval(c *Corpus) []uint32 {
	slots := make([]slotSet, len(q.Slots))
	for i, s := range q.Slots {
		switch {
		case s.Regexp:
			m := regexpMatcher(s.Text)
			if m == nil {
				return nil
			}
			slots[i] = c.set(c.matching(q.Field, q.MaxExpansions, m)...)
		case s.Wildcard:
			w := s.Text
			slots[i] = c.set(c.matching(q.Field, q.MaxExpansions, func(t string) bool { return Glob(w, t) })...)
		default:
			slots[i] = c.set(s.Text)
		}
	}
	return c.scan(q.Field, slots)
}
