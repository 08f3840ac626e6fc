package grep

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/snii-go/snii/internal/redfa"
)

// FuzzRecordMatcher: the record matcher (an automaton when the regexp has
// no literal prefix and no assertion) answers as regexp's Match on any
// record, invalid UTF-8 included, over a sequence of records.
func FuzzRecordMatcher(f *testing.F) {
	f.Add(`[0-9]{5}`, "a 12345 b\n1234\nx99999")
	f.Add(`(ERROR|WARN).*time[ds]? ?out`, "ERROR: timed out\nWARN timeout\nINFO timeout")
	f.Add(`(?i)straße|x+`, "STRASSE\nstraße\nSTRAßE\n")
	f.Add(`[^a-z]+é`, "\xe2\x82 é\nabcé\n")
	f.Add(`^ab|cd$`, "xab\nabx\nxcd\n")
	f.Add(``, "\n")
	f.Add(`[a-z]+ refused|x`, "conn refused\nrefused\nx")
	f.Add(`a\x{fffd}b`, "a\xffb\na\xef\xbf\xbdb\nab")
	f.Add(`^(?m)abc$`, "x\nabc\n")
	ab := rand.New(rand.NewPCG(5, 6)) // past redfa.MaxStates: regexp takes over
	var long strings.Builder
	for range 1 << 15 {
		long.WriteByte(byte('a' + ab.IntN(2)))
	}
	f.Add(`[ab]*a[ab]{12}c`, long.String()+"\nab\nbbbbbbbbbbbbbbbbbbbbbbbbabbbbbbbbbbbb")
	f.Fuzz(func(t *testing.T, expr, blob string) {
		re, err := regexp.Compile(expr)
		if err != nil {
			return
		}
		match := matcherFactory(re)()
		for _, rec := range strings.Split(blob, "\n") {
			if got, want := match([]byte(rec)), re.MatchString(rec); got != want {
				t.Fatalf("%q on %q: matcher %v, regexp %v", expr, rec, got, want)
			}
		}
	})
}

// TestRecordMatcherAutomaton: a regexp without a literal prefix or an
// assertion is matched by the automaton, others by regexp.
func TestRecordMatcherAutomaton(t *testing.T) {
	for _, c := range []struct {
		expr string
		dfa  bool
	}{
		{`[0-9]{12}`, true},
		{`(ERROR|WARN): [a-z]+`, true},
		{`AssertionError: [a-z]+`, false}, // a literal prefix: regexp's own scan
		{`\bconn`, false},                 // an assertion
	} {
		re := regexp.MustCompile(c.expr)
		if got := recordProgram(re) != nil; got != c.dfa {
			t.Errorf("%q: automaton %v, want %v", c.expr, got, c.dfa)
		}
	}
}

// TestRecordMatcherGivesUp: a regexp whose automaton would pass
// redfa.MaxStates still answers as regexp does, on that record and after.
func TestRecordMatcherGivesUp(t *testing.T) {
	re := regexp.MustCompile(`[ab]*a[ab]{12}c`)
	if recordProgram(re) == nil {
		t.Fatal("no automaton")
	}
	r := rand.New(rand.NewPCG(5, 6))
	match := matcherFactory(re)()
	for k, n := range []int{1 << 15, 14, 13, 1 << 15} {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('a' + r.IntN(2))
		}
		if k%2 == 1 {
			b[n-1] = 'c' // a match only at the very end, when an a stands 13 before
		}
		if k == 0 { // the first record takes the automaton past its bound
			d := redfa.New(recordProgram(re))
			s := d.Start()
			for _, c := range b {
				if s = d.Step(s, rune(c)); s == redfa.Unknown || d.Match(s) {
					break
				}
			}
			if s != redfa.Unknown {
				t.Fatal("the automaton kept within its bound: the test reads no fallback")
			}
		}
		if got, want := match(b), re.Match(b); got != want {
			t.Fatalf("record of %d bytes: matcher %v, regexp %v", n, got, want)
		}
	}
}

// TestRequiredLiteral: the literal every match holds, byte for byte, and
// none where an alternation, case folding or U+FFFD (which regexp matches on
// an invalid byte) leaves no such string.
func TestRequiredLiteral(t *testing.T) {
	for expr, want := range map[string]string{
		`[a-z]+ refused`:                      " refused",
		`Traceback \(most recent call last\)`: "Traceback (most recent call last)",
		`user=\w+ failed`:                     " failed",
		`^connection refused$`:                "connection refused",
		`conn(ection)? refused`:               "",
		`(?i)refused`:                         "",
		`a|b`:                                 "",
		`[0-9]{5}`:                            "",
		`x\x{fffd}y.*abc`:                     "abc",
		`(foo|bar).*bazaar`:                   "bazaar",
	} {
		if got := requiredLiteral(regexp.MustCompile(expr)); got != want {
			t.Errorf("%s: %q, want %q", expr, got, want)
		}
	}
}
