package jsonstr

import (
	"unicode/utf16"
	"unicode/utf8"
)

// Hex4 returns the value of the four hex digits b starts with, or -1 when one
// of them is not a hex digit. b holds at least four bytes.
func Hex4(b []byte) rune {
	var r rune
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}

// AppendUnit appends the decoding of the unit of raw (the bytes inside a JSON
// string's quotes) at i, an escape or a character, to out and returns the
// index of the next unit. A \u surrogate pair is joined; a lone surrogate, a
// malformed escape and a byte that is not UTF-8 become U+FFFD, as
// encoding/json decodes them.
func AppendUnit(raw []byte, i int, out []byte) ([]byte, int) {
	c := raw[i]
	switch {
	case c == '\\' && i+1 < len(raw):
		switch raw[i+1] {
		case 'b':
			return append(out, '\b'), i + 2
		case 'f':
			return append(out, '\f'), i + 2
		case 'n':
			return append(out, '\n'), i + 2
		case 'r':
			return append(out, '\r'), i + 2
		case 't':
			return append(out, '\t'), i + 2
		case 'u':
			r := rune(utf8.RuneError)
			n := 6
			if i+6 <= len(raw) {
				r = Hex4(raw[i+2 : i+6])
			}
			if utf16.IsSurrogate(r) {
				r2 := rune(-1)
				if i+12 <= len(raw) && raw[i+6] == '\\' && raw[i+7] == 'u' {
					r2 = Hex4(raw[i+8 : i+12])
				}
				if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
					r, n = d, 12
				} else {
					r = utf8.RuneError
				}
			}
			if r < 0 {
				r = utf8.RuneError
			}
			return utf8.AppendRune(out, r), min(i+n, len(raw))
		}
		return append(out, raw[i+1]), i + 2 // '"', '\\', '/'
	case c < utf8.RuneSelf:
		return append(out, c), i + 1
	}
	r, size := utf8.DecodeRune(raw[i:])
	if r == utf8.RuneError && size == 1 {
		return utf8.AppendRune(out, utf8.RuneError), i + 1
	}
	return append(out, raw[i:i+size]...), i + size
}
