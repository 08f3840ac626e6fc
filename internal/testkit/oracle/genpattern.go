package oracle

import (
	"regexp"
	"strings"
)

// patternOf draws a regular expression or (wildcard) a wildcard derived from
// term t, so that it usually matches t and often other terms.
func (g *Gen) patternOf(t string, wildcard bool) string {
	rs := []rune(t)
	cut := func() int { return g.rng.IntN(len(rs) + 1) }
	lit := func(s []rune) string {
		if wildcard {
			var b strings.Builder
			for _, r := range s {
				if r == '*' || r == '?' || r == '\\' {
					b.WriteByte('\\')
				}
				b.WriteRune(r)
			}
			return b.String()
		}
		return regexp.QuoteMeta(string(s))
	}
	any, one := ".*", "."
	if wildcard {
		any, one = "*", "?"
	}
	switch k := g.rng.IntN(7); {
	case k == 0: // a prefix
		i := cut()
		return lit(rs[:i]) + any
	case k == 1: // a suffix: a leading wildcard
		i := cut()
		return any + lit(rs[i:])
	case k == 2: // one character left open
		if len(rs) == 0 {
			return one
		}
		i := g.rng.IntN(len(rs))
		return lit(rs[:i]) + one + lit(rs[i+1:])
	case k == 3: // an infix
		i := cut()
		j := i + g.rng.IntN(len(rs)-i+1)
		return any + lit(rs[i:j]) + any
	case k == 4 && !wildcard: // an alternation of two terms' prefixes
		u := []rune(g.vocab[g.rng.IntN(len(g.vocab))].Term)
		return "(" + lit(rs[:cut()]) + "|" + lit(u[:g.rng.IntN(len(u)+1)]) + ")[a-z0-9]*"
	case k == 5 && !wildcard: // a class after a prefix
		i := cut()
		return lit(rs[:i]) + "[^q]+"
	default: // the term itself, or a prefix and a suffix
		i := cut()
		j := i + g.rng.IntN(len(rs)-i+1)
		return lit(rs[:i]) + any + lit(rs[j:])
	}
}

func (g *Gen) someTerm() string {
	if len(g.vocab) == 0 {
		return "a"
	}
	if g.rng.IntN(2) == 0 {
		return g.byDF[g.rng.IntN(min(50, len(g.byDF)))].Term
	}
	return g.vocab[g.rng.IntN(len(g.vocab))].Term
}

// Regexp draws a regular expression query derived from a term.
func (g *Gen) Regexp() Query {
	return Regexp{g.field, g.patternOf(g.someTerm(), false), maxExps[g.rng.IntN(len(maxExps))]}
}

// Wildcard draws a wildcard query derived from a term.
func (g *Gen) Wildcard() Query {
	return Wildcard{g.field, g.patternOf(g.someTerm(), true), maxExps[g.rng.IntN(len(maxExps))]}
}

// PatternPhrase draws a 2–5 term phrase from a document with one or two of
// its positions (any of them) made patterns of their terms.
func (g *Gen) PatternPhrase() Query {
	t := g.take(2 + g.rng.IntN(4))
	if len(t) == 0 {
		t = []string{"a", "b"}
	}
	slots := make([]Slot, len(t))
	for i, s := range t {
		slots[i] = Slot{Text: s}
	}
	for n := 1 + g.rng.IntN(2); n > 0; n-- {
		i := g.rng.IntN(len(t))
		w := g.rng.IntN(2) == 0
		slots[i] = Slot{Text: g.patternOf(t[i], w), Regexp: !w, Wildcard: w}
	}
	return PatternPhrase{g.field, slots, maxExps[g.rng.IntN(len(maxExps))]}
}

// PatternBool draws an And or Or of 2–3 queries, at least one of them a
// pattern query or a pattern phrase.
func (g *Gen) PatternBool() Query {
	n := 2 + g.rng.IntN(2)
	qs := make([]Query, n)
	for i := range qs {
		switch g.rng.IntN(4) {
		case 0:
			qs[i] = g.Term()
		case 1:
			qs[i] = g.Wildcard()
		case 2:
			qs[i] = g.PatternPhrase()
		default:
			qs[i] = g.Regexp()
		}
	}
	qs[0] = g.Regexp()
	if g.rng.IntN(2) == 0 {
		return And(qs)
	}
	return Or(qs)
}
