package reader

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// FuzzPatternViable: viable never rules out a prefix of a term the pattern
// matches (block pruning is sound), and the term starts with the literal
// prefix or one of the literal prefixes (seeking is sound), for any
// expression and term; a wildcard and its regexp agree on compiling.
func FuzzPatternViable(f *testing.F) {
	f.Add("conn(ection)?", "connection", false)
	f.Add("(alpha|zeta)1[0-9]", "zeta17", false)
	f.Add("*Exception", "nullpointer*exception", true)
	f.Add("f?o", "f\xffo", true)
	f.Add("a\\\xff*", "a\xffb", true)
	f.Add(`\bab\B.*`, "abc", false)
	f.Add("é+x", "ééx", false)
	f.Add("(?i)(get|set)[a-z]+", "GetValue", false)
	f.Add("time[ds]?out", "timeout", false)
	f.Add(`(a|\x{FFFD})b`, "\xffb", false)
	f.Fuzz(func(t *testing.T, expr, term string, wildcard bool) {
		p, err := compilePattern(expr, wildcard)
		if err != nil {
			return
		}
		if !p.re.MatchString(term) {
			return
		}
		if !p.whole && len(term) >= len(p.lit) && term[:len(p.lit)] != string(p.lit) {
			t.Fatalf("%q matches %q but does not start with the literal prefix %q", expr, term, p.lit)
		}
		if p.whole && term != string(p.lit) {
			t.Fatalf("%q matches %q, but its whole literal is %q", expr, term, p.lit)
		}
		if p.prefixes != nil && !slices.ContainsFunc(p.prefixes, func(pre []byte) bool { return strings.HasPrefix(term, string(pre)) }) {
			t.Fatalf("%q matches %q, which starts with none of its literal prefixes %q", expr, term, p.prefixes)
		}
		d := newTermDFA(p.prog)
		for i := 0; i <= len(term); i++ {
			if !d.viable([]byte(term[:i])) {
				t.Fatalf("%q matches %q, but prefix %q is ruled out", expr, term, term[:i])
			}
		}
	})
}

// TestPatternViablePrunes: viable rules out prefixes no match can start with.
func TestPatternViablePrunes(t *testing.T) {
	for _, c := range []struct {
		expr, prefix string
		want         bool
	}{
		{"(alpha|zeta)1[0-9]", "k0001", false},
		{"(alpha|zeta)1[0-9]", "alp", true},
		{"(alpha|zeta)1[0-9]", "zeta12", true},
		{"(alpha|zeta)1[0-9]", "zeta123", false},
		{"[0-9]+", "12a", false},
		{".*x", "anything", true},
		{"é+", "\xc3", true}, // a character cut short
		{"é+", "e", false},
	} {
		p, err := compileRegexp(c.expr)
		if err != nil {
			t.Fatal(err)
		}
		if got := newTermDFA(p.prog).viable([]byte(c.prefix)); got != c.want {
			t.Errorf("%q: viable(%q) = %v, want %v", c.expr, c.prefix, got, c.want)
		}
	}
}

// TestPatternLiteral: the literal prefix every match starts with, also for
// expressions regexp does not run one-pass.
func TestPatternLiteral(t *testing.T) {
	for _, c := range []struct {
		expr, lit string
		whole     bool
	}{
		{"assert.*error", "assert", false},
		{"conn(ection)?", "conn", false},
		{"refused", "refused", true},
		{"(?i)refused", "", false},
		{"a|b", "", false},
		{"^foo", "foo", false},
	} {
		p, err := compileRegexp(c.expr)
		if err != nil {
			t.Fatal(err)
		}
		if string(p.lit) != c.lit || p.whole != c.whole {
			t.Errorf("%q: literal %q whole %v, want %q %v", c.expr, p.lit, p.whole, c.lit, c.whole)
		}
	}
}

// FuzzTermMatcher: the automaton's answer for each term of a sorted walk is
// the regexp's, whatever the pattern, the terms (invalid UTF-8 included) and
// the prefixes they share.
func FuzzTermMatcher(f *testing.F) {
	f.Add("conn.*", "conn connect connection reconnect", false)
	f.Add("[0-9]+ms", "10ms 10s 200ms ms", false)
	f.Add("€+x", "\xe2\x82x \xe2\x82\xacx \xe2\x82\xac\xe2\x82\xacx", false)
	f.Add("\\x{FFFD}.", "\xe2\x82x \xe2\x82\xac", false)
	f.Add("*Exception", "AException exception xexception", true)
	f.Add(`\bab\B.*`, "abc ab", false)
	f.Add("(?i)straße", "STRASSE straße strasse", false)
	f.Add(".", "a a0 a1 ab b b0 é é0", false)
	f.Add("err?r", "err erra errar error errors erz", false)
	f.Add("?", "\xe2 \xe2\x82 \xe2\x82\xac", true)
	f.Fuzz(func(t *testing.T, expr, blob string, wildcard bool) {
		p, err := compilePattern(expr, wildcard)
		if err != nil {
			return
		}
		terms := strings.Fields(blob)
		slices.Sort(terms)
		terms = slices.Compact(terms)
		m := newTermMatcher(p)
		var skipTo []byte // as the walk does: terms before it are not read
		for _, term := range terms {
			want := p.re.MatchString(term)
			if skipTo != nil && term < string(skipTo) {
				if want {
					t.Fatalf("%q matches %q, but the automaton skipped to %q (terms %q)", expr, term, skipTo, terms)
				}
				continue
			}
			got, to := m.match([]byte(term))
			if got != want {
				t.Fatalf("%q on %q: automaton %v, regexp %v (terms %q)", expr, term, got, want, terms)
			}
			if to != nil && (got || string(to) <= term) {
				t.Fatalf("%q on %q: matched %v, skip to %q", expr, term, got, to)
			}
			skipTo = to
		}
	})
}

// TestTermMatcherWork: the automaton reads each term only past its common
// prefix with the previous term, and nothing past a prefix with no thread
// left: its steps are at most the dictionary's front-coded length.
func TestTermMatcherWork(t *testing.T) {
	var terms []string
	for i := range 1000 {
		terms = append(terms, fmt.Sprintf("commonprefixlongword%04d", i))
	}
	bound := int64(0)
	prev := ""
	for _, term := range terms {
		bound += int64(len(term) - lcpLen([]byte(prev), []byte(term)))
		prev = term
	}
	for _, c := range []struct {
		expr     string
		hits     int
		maxSteps int64
	}{
		{"[a-z]+[0-9]*5", 100, bound},
		{"common.*9", 100, bound},
		{"x.*", 0, 1},                           // dead after one character, for every term
		{"commonz.*", 0, int64(len("commonz"))}, // dead at the seventh
	} {
		p, err := compileRegexp(c.expr)
		if err != nil {
			t.Fatal(err)
		}
		m := newTermMatcher(p)
		hits := 0
		for _, term := range terms {
			if ok, _ := m.match([]byte(term)); ok {
				hits++
			}
		}
		if hits != c.hits || m.steps > c.maxSteps {
			t.Errorf("%q: %d hits in %d steps, want %d in at most %d (the terms' total length is %d)", c.expr, hits, m.steps, c.hits, c.maxSteps, len(terms)*len(terms[0]))
		}
	}
}

// TestPatternPrefixes: the literal prefixes a pattern's expansion seeks to.
func TestPatternPrefixes(t *testing.T) {
	for _, c := range []struct {
		expr string
		want []string // nil: none beyond the literal prefix
	}{
		{"(get|set)[a-z]+", []string{"get", "set"}},
		{"time[ds]?out", []string{"timedout", "timeout", "timesout"}},
		{"err(or)?s?", nil}, // "err" covers them all: the literal prefix
		{"chrome|firefox", []string{"chrome", "firefox"}},
		{"(jk2|mod)[a-z]*", []string{"jk2", "mod"}},
		{"(?i)ab", []string{"AB", "Ab", "aB", "ab"}},
		{"[0-9]+ms", []string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}},
		{"[a-z]+d", nil},
		{".*exception", nil},
		{"(a|b*)c", nil},
		{"(a|\\x{FFFD})b", nil},
	} {
		p, err := compileRegexp(c.expr)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, b := range p.prefixes {
			got = append(got, string(b))
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%q: prefixes %q, want %q", c.expr, got, c.want)
		}
	}
}

// compilePattern compiles expr as a wildcard or a regexp.
func compilePattern(expr string, wildcard bool) (*pattern, error) {
	if wildcard {
		return compileWildcard(expr)
	}
	return compileRegexp(expr)
}
