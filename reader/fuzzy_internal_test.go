package reader

import (
	"math/rand/v2"
	"slices"
	"testing"
	"unicode/utf8"

	"github.com/snii-go/snii/internal/testkit/oracle"
)

// The distance rows against the whole table: over sorted strings of a small
// alphabet (multi-byte runes and invalid UTF-8 bytes among them), a distance
// is the table's, and a prefix declared dead starts no string within the
// edits, whatever follows it.
func TestEditRows(t *testing.T) {
	alphabet := []string{"a", "b", "c", "é", "\xc3", "\xa9", "\xff"}
	r := rand.New(rand.NewPCG(39, 5))
	word := func(n int) string {
		var s string
		for range r.IntN(n + 1) {
			s += alphabet[r.IntN(len(alphabet))]
		}
		return s
	}
	for range 300 {
		q := word(5)
		terms := make([]string, 400)
		for i := range terms {
			terms[i] = word(7)
		}
		slices.Sort(terms)
		for maxEdits := range MaxEdits + 1 {
			m := newEditRows([]rune(q), maxEdits)
			for _, term := range terms {
				d, deadAt := m.distance([]byte(term))
				if deadAt < 0 {
					if want := oracle.Distance(term, q); d != want {
						t.Fatalf("distance(%q, %q) = %d, want %d", term, q, d, want)
					}
					continue
				}
				p := term[:deadAt]
				for range 20 {
					if s := p + word(4); utf8.ValidString(p) && oracle.Distance(s, q) <= maxEdits {
						t.Fatalf("q %q, %d edits: prefix %q of %q declared dead, but %q is within", q, maxEdits, p, term, s)
					}
				}
				if oracle.Distance(term, q) <= maxEdits {
					t.Fatalf("q %q, %d edits: %q declared dead, but it is within", q, maxEdits, term)
				}
			}
		}
	}
}

func TestWholeRunes(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", ""}, {"ab", "ab"}, {"aé", "aé"}, {"a\xc3", "a"}, {"a\xe2\x82", "a"}, {"a\xff", "a\xff"}, {"\xa9", "\xa9"},
	} {
		if got := string(wholeRunes([]byte(c.in))); got != c.want {
			t.Errorf("wholeRunes(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
