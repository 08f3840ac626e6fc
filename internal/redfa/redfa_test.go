package redfa

import (
	"math/rand/v2"
	"regexp"
	"regexp/syntax"
	"testing"
)

func compile(t *testing.T, expr string) *syntax.Prog {
	t.Helper()
	re, err := syntax.Parse(`\A(?:`+expr+`)\z`, syntax.Perl)
	if err != nil {
		t.Fatal(err)
	}
	prog, err := syntax.Compile(re.Simplify())
	if err != nil {
		t.Fatal(err)
	}
	return prog
}

// TestAgreesWithRegexp: on an anchored program without other assertions,
// the automaton accepts exactly the strings regexp matches whole.
func TestAgreesWithRegexp(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, expr := range []string{`[0-9]+ms`, `(get|set)[a-z]*`, `(?i)straße`, `a*b?a+`, `é.x`, `[^a]{2,3}`} {
		d, re := New(compile(t, expr)), regexp.MustCompile(`^(?:`+expr+`)$`)
		if d.EmptyWidths() != 2 {
			t.Fatalf("%q: %d empty-width instructions, want the 2 anchors", expr, d.EmptyWidths())
		}
		alphabet := []rune("0123456789msgetabxéSTRASSEßẞ\uFFFD")
		for range 2000 {
			rs := make([]rune, r.IntN(8))
			for i := range rs {
				rs[i] = alphabet[r.IntN(len(alphabet))]
			}
			s := d.Start()
			for _, c := range rs {
				if s == Dead {
					break
				}
				s = d.Step(s, c)
			}
			if got, want := s != Dead && d.Match(s), re.MatchString(string(rs)); got != want {
				t.Fatalf("%q on %q: automaton %v, regexp %v", expr, string(rs), got, want)
			}
		}
	}
}

// TestGivesUp: an automaton that would need more than MaxStates states
// returns Unknown instead of building them.
func TestGivesUp(t *testing.T) {
	d := New(compile(t, `[ab]*a[ab]{12}`)) // 2^13 states to tell the last 13 characters
	r := rand.New(rand.NewPCG(3, 4))
	s := d.Start()
	for i := 0; i < 1<<16 && s != Unknown; i++ {
		s = d.Step(s, rune('a'+r.IntN(2)))
	}
	if s != Unknown {
		t.Fatalf("still state %d after 65536 steps", s)
	}
	if len(d.states) > MaxStates {
		t.Fatalf("%d states built, at most %d allowed", len(d.states), MaxStates)
	}
}
