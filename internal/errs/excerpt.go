package errs

import (
	"fmt"
	"unicode/utf8"
)

// MaxEcho is the most characters of caller-given text (query text, a field
// name) that an error message quotes.
const MaxEcho = 64

// Excerpt returns s for an error message: s itself up to MaxEcho characters,
// longer text cut there with an ellipsis and its length in characters.
func Excerpt(s string) string { return Clip(s, MaxEcho) }

// Clip returns s up to max characters, longer text cut there with an
// ellipsis and its length in characters.
func Clip(s string, max int) string {
	n := 0
	for i := range s {
		if n == max {
			return fmt.Sprintf("%s… (%d characters)", s[:i], utf8.RuneCountInString(s))
		}
		n++
	}
	return s
}
