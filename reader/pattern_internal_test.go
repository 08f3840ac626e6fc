package reader

import (
	"testing"
)

// FuzzPatternViable: viable never rules out a prefix of a term the pattern
// matches (block pruning is sound), for any expression and term; a wildcard
// and its regexp agree on compiling.
func FuzzPatternViable(f *testing.F) {
	f.Add("conn(ection)?", "connection", false)
	f.Add("(alpha|zeta)1[0-9]", "zeta17", false)
	f.Add("*Exception", "nullpointer*exception", true)
	f.Add("f?o", "f\xffo", true)
	f.Add("a\\\xff*", "a\xffb", true)
	f.Add(`\bab\B.*`, "abc", false)
	f.Add("é+x", "ééx", false)
	f.Fuzz(func(t *testing.T, expr, term string, wildcard bool) {
		var p *pattern
		var err error
		if wildcard {
			p, err = compileWildcard(expr)
		} else {
			p, err = compileRegexp(expr)
		}
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
		for i := 0; i <= len(term); i++ {
			if !p.viable([]byte(term[:i])) {
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
		if got := p.viable([]byte(c.prefix)); got != c.want {
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
