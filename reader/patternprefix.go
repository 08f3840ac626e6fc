package reader

import (
	"regexp/syntax"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxPrefixes bounds a pattern's set of literal prefixes: a larger set is
// given up (cut at the last part that fits, or dropped).
const maxPrefixes = 16

// prefixSet is what a regexp tells about how its matches start: each match
// starts with one of set, or, when exact, is one of set.
type prefixSet struct {
	set   []string
	exact bool
}

var anyPrefix = prefixSet{set: []string{""}}

// literalPrefixes returns the literal strings one of which starts every term
// the regexp re (parsed, simplified) matches, prefix-free and sorted; nil
// when no such set of at most maxPrefixes non-empty strings is known.
// Zero-width assertions are taken as satisfied (the set may only grow), a
// case-folded literal stands for every case of it, and U+FFFD (which also
// matches an invalid byte) ends what is known.
func literalPrefixes(re *syntax.Regexp) []string {
	set := slices.Clone(prefixesOf(re).set)
	slices.Sort(set)
	out := set[:0]
	for _, s := range set {
		if s == "" {
			return nil
		}
		if len(out) > 0 && strings.HasPrefix(s, out[len(out)-1]) {
			continue // the shorter one covers it
		}
		out = append(out, s)
	}
	return out
}

func prefixesOf(re *syntax.Regexp) prefixSet {
	switch re.Op {
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return prefixSet{set: []string{""}, exact: true}
	case syntax.OpLiteral:
		set := []string{""}
		for _, r := range re.Rune {
			if r == utf8.RuneError {
				return prefixSet{set: set}
			}
			alts := []string{string(r)}
			if re.Flags&syntax.FoldCase != 0 {
				for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
					alts = append(alts, string(f))
				}
			}
			next := crossPrefixes(set, alts)
			if next == nil {
				return prefixSet{set: set}
			}
			set = next
		}
		return prefixSet{set: set, exact: true}
	case syntax.OpCharClass:
		var set []string
		for i := 0; i+1 < len(re.Rune); i += 2 {
			lo, hi := re.Rune[i], re.Rune[i+1]
			if hi-lo >= maxPrefixes || len(set)+int(hi-lo)+1 > maxPrefixes || lo <= utf8.RuneError && utf8.RuneError <= hi {
				return anyPrefix
			}
			for r := lo; r <= hi; r++ {
				set = append(set, string(r))
			}
		}
		return prefixSet{set: set, exact: true}
	case syntax.OpCapture:
		return prefixesOf(re.Sub[0])
	case syntax.OpConcat:
		acc := prefixSet{set: []string{""}, exact: true}
		for _, sub := range re.Sub {
			x := prefixesOf(sub)
			c := crossPrefixes(acc.set, x.set)
			if c == nil {
				return prefixSet{set: acc.set}
			}
			acc = prefixSet{set: c, exact: x.exact}
			if !x.exact {
				break
			}
		}
		return acc
	case syntax.OpAlternate:
		out := prefixSet{exact: true}
		for _, sub := range re.Sub {
			x := prefixesOf(sub)
			out.set = append(out.set, x.set...)
			out.exact = out.exact && x.exact
		}
		slices.Sort(out.set)
		if out.set = slices.Compact(out.set); len(out.set) > maxPrefixes {
			return anyPrefix
		}
		return out
	case syntax.OpQuest:
		if x := prefixesOf(re.Sub[0]); x.exact && len(x.set) < maxPrefixes {
			return prefixSet{set: append(slices.Clone(x.set), ""), exact: true}
		}
	case syntax.OpPlus:
		return prefixSet{set: prefixesOf(re.Sub[0]).set}
	case syntax.OpRepeat:
		if re.Min > 0 {
			return prefixSet{set: prefixesOf(re.Sub[0]).set}
		}
	}
	// OpStar, OpAnyChar, OpAnyCharNotNL, OpNoMatch, a large class: nothing known.
	return anyPrefix
}

// crossPrefixes returns every a+b, or nil when there would be more than
// maxPrefixes.
func crossPrefixes(a, b []string) []string {
	if len(a)*len(b) > maxPrefixes {
		return nil
	}
	out := make([]string, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			out = append(out, x+y)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
