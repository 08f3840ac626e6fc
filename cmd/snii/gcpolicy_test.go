package main

import "testing"

// TestGCPercentFor: the reading commands get readGCPercent and the writing
// ones writeGCPercent unless GOGC is set; every other command line keeps the
// runtime's setting.
func TestGCPercentFor(t *testing.T) {
	for _, c := range []struct {
		args []string
		gogc string
		want int
	}{
		{[]string{"query", "a.snii", "x"}, "", readGCPercent},
		{[]string{"grep", "a.snii", "x"}, "", readGCPercent},
		{[]string{"get", "a.snii", "1"}, "", readGCPercent},
		{[]string{"query", "a.snii", "x"}, "100", 0},
		{[]string{"query", "a.snii", "x"}, "off", 0},
		{[]string{"build", "-o", "a.snii", "a.log"}, "", writeGCPercent},
		{[]string{"merge", "-o", "c.snii", "a.snii", "b.snii"}, "", writeGCPercent},
		{[]string{"build", "-o", "a.snii", "a.log"}, "200", 0},
		{[]string{"inspect", "a.snii"}, "", 0},
		{[]string{"--help"}, "", 0},
		{nil, "", 0},
	} {
		if got := gcPercentFor(c.args, c.gogc); got != c.want {
			t.Errorf("gcPercentFor(%q, GOGC=%q) = %d, want %d", c.args, c.gogc, got, c.want)
		}
	}
}
