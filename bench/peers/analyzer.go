package peers

import (
	"unicode"
	"unicode/utf8"
)

// MaxTokenBytes is the longest token (in bytes, after lowercasing) the shared
// analyzer keeps. A longer token is dropped but still takes its position.
const MaxTokenBytes = 255

// TokenPattern is the regular expression every peer tokenizes with: a maximal
// run of Unicode letters or decimal digits. \p{Nd}, not \p{N}: the latter
// also takes characters such as '²' and '½' that unicode.IsDigit rejects.
const TokenPattern = `[\p{L}\p{Nd}]+`

// isTokenRune is the rune class of the shared analyzer.
func isTokenRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// Tokenize splits text with the shared analyzer ("standard"): maximal runs of
// letters or decimal digits, lowercased rune by rune; an invalid UTF-8 byte
// separates tokens. It returns one entry per position; a token longer than
// MaxTokenBytes is returned as "" (it takes a position but matches nothing).
//
// This is the bench module's own implementation, written from the analyzer's
// definition, so that the oracle does not share code with any engine.
func Tokenize(text string) []string {
	var out []string
	var buf []byte
	inTok := false
	flush := func() {
		if !inTok {
			return
		}
		if len(buf) > MaxTokenBytes {
			out = append(out, "")
		} else {
			out = append(out, string(buf))
		}
		buf = buf[:0]
		inTok = false
	}
	for i := 0; i < len(text); {
		r, w := utf8.DecodeRuneInString(text[i:])
		if r == utf8.RuneError && w <= 1 {
			flush()
			i++
			continue
		}
		if isTokenRune(r) {
			inTok = true
			buf = utf8.AppendRune(buf, unicode.ToLower(r))
		} else {
			flush()
		}
		i += w
	}
	flush()
	return out
}

// lowerRunes lowercases b rune by rune (unicode.ToLower), the way the shared
// analyzer does; invalid bytes are copied as they are. bleve's own to_lower
// filter is not used: it garbles the bytes after a rune whose lowercase is
// shorter in UTF-8 (İ) and maps a final Σ to ς.
func lowerRunes(dst, b []byte) []byte {
	for i := 0; i < len(b); {
		r, w := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && w <= 1 {
			dst = append(dst, b[i])
			i++
			continue
		}
		dst = utf8.AppendRune(dst, unicode.ToLower(r))
		i += w
	}
	return dst
}
