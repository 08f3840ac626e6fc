package reader

import (
	"strings"
	"testing"
)

// TestInnerDoubles: a phrase's inner repeated terms qualify for a chain's
// proof only as one adjacent double each.
func TestInnerDoubles(t *testing.T) {
	for phrase, want := range map[string]bool{
		"a b c":     true,  // no repeat
		"a b b":     true,  // a double at the end
		"b b c":     true,  // a double at the start
		"a b b c":   true,  // an inner double
		"a b a":     true,  // only the ends repeat
		"a b b c c": true,  // two doubles
		"a b b b":   false, // a run of three
		"a b c b":   false, // a repeat apart
		"b a b b":   false, // a double and a repeat apart
		"a a a":     false,
	} {
		if got := innerDoubles(strings.Fields(phrase)); got != want {
			t.Errorf("innerDoubles(%q) = %v, want %v", phrase, got, want)
		}
	}
}
