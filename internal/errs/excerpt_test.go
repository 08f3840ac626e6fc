package errs

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestExcerpt(t *testing.T) {
	short := strings.Repeat("é", MaxEcho)
	if got := Excerpt(short); got != short {
		t.Errorf("Excerpt of %d characters = %q, want it whole", MaxEcho, got)
	}
	long := strings.Repeat("é", 1<<20)
	got := Excerpt(long)
	if want := strings.Repeat("é", MaxEcho) + "… (1048576 characters)"; got != want {
		t.Errorf("Excerpt of 1M characters = %q, want %q", got, want)
	}
	if !utf8.ValidString(got) {
		t.Errorf("Excerpt cut a character: %q", got)
	}
}
