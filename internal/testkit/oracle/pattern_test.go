package oracle

import "testing"

func TestGlob(t *testing.T) {
	for _, c := range []struct {
		w, s string
		want bool
	}{
		{"*exception", "nullpointerexception", true},
		{"*exception", "exceptions", false},
		{"f?o", "foo", true},
		{"f?o", "fo", false},
		{"f?o", "fééo", false},
		{"f?o", "féo", true},
		{"a*b*c", "aXXbYc", true},
		{"a*b*c", "acb", false},
		{`a\*b`, "a*b", true},
		{`a\*b`, "axb", false},
		{`a\?`, "a?", true},
		{`a\\`, `a\`, true},
		{"*", "", true},
		{"", "", true},
		{"?", "", false},
		{"f?o", "f\xffo", true}, // an invalid byte is one character
	} {
		if got := Glob(c.w, c.s); got != c.want {
			t.Errorf("Glob(%q, %q) = %v, want %v", c.w, c.s, got, c.want)
		}
	}
}
