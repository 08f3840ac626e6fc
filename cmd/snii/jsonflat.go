package main

import (
	"unicode/utf8"

	"github.com/snii-go/snii/internal/jsonstr"
	"github.com/snii-go/snii/writer"
)

// flatJSON extracts the --field values of a JSON line in one pass, without
// building the object, for the common line: one object whose members are
// all strings, numbers, booleans or null, with keys free of escapes and
// valid UTF-8. It gives the same values as jsonDoc, which handles every
// other line (nested values, escaped keys, and every invalid line, so that
// errors keep jsonDoc's messages).
type flatJSON struct {
	members []flatMember
	spans   []flatSpan
	buf     []byte // the values of the current line, unescaped
}

// flatMember is one member of the object: its key, and its value's bytes
// in the line (strings with their quotes).
type flatMember struct {
	key        []byte
	start, end int
}

// doc appends the values of line at each path to dst, like jsonDoc. ok is
// false, with dst unchanged, when the line is not of the flat form (the
// caller then uses jsonDoc). The values of a line share one string.
func (f *flatJSON) doc(line []byte, paths []string, dst []writer.Field) (_ []writer.Field, ok bool) {
	if !f.scan(line) {
		return dst, false
	}
	f.buf, f.spans = f.buf[:0], f.spans[:0]
	for _, p := range paths {
		m := f.lookup(p)
		if m == nil || line[m.start] == 'n' { // absent or null: no value
			continue
		}
		at := len(f.buf)
		if line[m.start] == '"' {
			f.buf = appendUnquoted(f.buf, line[m.start+1:m.end-1])
		} else { // numbers as written, booleans as true/false: the literal
			f.buf = append(f.buf, line[m.start:m.end]...)
		}
		f.spans = append(f.spans, flatSpan{path: p, lo: at, hi: len(f.buf)})
	}
	if len(f.spans) == 0 {
		return dst, true
	}
	all := string(f.buf)
	vals := make([]string, len(f.spans))
	for k, s := range f.spans {
		vals[k] = all[s.lo:s.hi]
		dst = append(dst, writer.Field{Name: s.path, Values: vals[k : k+1 : k+1]})
	}
	if cap(f.buf) > maxFlatScratch {
		f.buf = nil
	}
	return dst, true
}

// maxFlatScratch bounds the scratch a flatJSON keeps between lines.
const maxFlatScratch = 1 << 20

// flatSpan is one value of the current line: bytes lo..hi of buf.
type flatSpan struct {
	path   string
	lo, hi int
}

// lookup returns the member that gives path's value in a flat object, as
// extract does: the last member named path (duplicate keys: the last one
// wins). A member named a dotted prefix of path is a scalar and has no
// members, so nothing else gives a value.
func (f *flatJSON) lookup(path string) *flatMember {
	if path == "" {
		return nil
	}
	return f.last(path)
}

// last returns the last member named key, or nil.
func (f *flatJSON) last(key string) *flatMember {
	for i := len(f.members) - 1; i >= 0; i-- {
		if string(f.members[i].key) == key {
			return &f.members[i]
		}
	}
	return nil
}

// scan checks that line is one flat JSON object (with only JSON whitespace
// around it) and records its members.
func (f *flatJSON) scan(b []byte) bool {
	f.members = f.members[:0]
	i := skipWS(b, 0)
	if i == len(b) || b[i] != '{' {
		return false
	}
	i = skipWS(b, i+1)
	if i < len(b) && b[i] == '}' {
		return skipWS(b, i+1) == len(b)
	}
	for {
		if i == len(b) || b[i] != '"' {
			return false
		}
		end, esc := scanString(b, i)
		if end < 0 || esc {
			return false
		}
		key := b[i+1 : end-1]
		if !utf8.Valid(key) {
			return false
		}
		i = skipWS(b, end)
		if i == len(b) || b[i] != ':' {
			return false
		}
		i = skipWS(b, i+1)
		start := i
		if i = scanScalar(b, i); i < 0 {
			return false
		}
		f.members = append(f.members, flatMember{key: key, start: start, end: i})
		i = skipWS(b, i)
		if i == len(b) {
			return false
		}
		switch b[i] {
		case ',':
			i = skipWS(b, i+1)
		case '}':
			return skipWS(b, i+1) == len(b)
		default:
			return false
		}
	}
}

// skipWS returns the index of the first byte at or after i that is not JSON
// whitespace.
func skipWS(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// scanScalar returns the end of the string, number, true, false or null at
// b[i], or -1 when there is none (an object, an array or invalid JSON).
func scanScalar(b []byte, i int) int {
	if i == len(b) {
		return -1
	}
	switch c := b[i]; {
	case c == '"':
		end, _ := scanString(b, i)
		return end
	case c == '-' || '0' <= c && c <= '9':
		return scanNumber(b, i)
	case c == 't':
		return literal(b, i, "true")
	case c == 'f':
		return literal(b, i, "false")
	case c == 'n':
		return literal(b, i, "null")
	}
	return -1
}

func literal(b []byte, i int, lit string) int {
	if len(b)-i >= len(lit) && string(b[i:i+len(lit)]) == lit {
		return i + len(lit)
	}
	return -1
}

// scanNumber returns the end of the JSON number at b[i], or -1:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func scanNumber(b []byte, i int) int {
	if b[i] == '-' {
		i++
	}
	digits := func(i int) int {
		j := i
		for j < len(b) && '0' <= b[j] && b[j] <= '9' {
			j++
		}
		return j
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && '1' <= b[i] && b[i] <= '9':
		i = digits(i + 1)
	default:
		return -1
	}
	if i < len(b) && b[i] == '.' {
		j := digits(i + 1)
		if j == i+1 {
			return -1
		}
		i = j
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := digits(i)
		if j == i {
			return -1
		}
		i = j
	}
	return i
}

// scanString returns the end (after the closing quote) of the JSON string
// whose opening quote is b[i], or -1 when it is invalid (a control byte, an
// unknown escape, a short \u or no closing quote); esc reports a backslash.
func scanString(b []byte, i int) (end int, esc bool) {
	for i++; i < len(b); i++ {
		for i < len(b) && !strStop[b[i]] {
			i++
		}
		if i == len(b) {
			break
		}
		switch c := b[i]; {
		case c == '"':
			return i + 1, esc
		case c < ' ':
			return -1, esc
		case c == '\\':
			esc = true
			i++
			if i == len(b) {
				return -1, esc
			}
			switch b[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if len(b)-i < 5 || jsonstr.Hex4(b[i+1:i+5]) < 0 {
					return -1, esc
				}
				i += 4
			default:
				return -1, esc
			}
		}
	}
	return -1, esc
}

// strStop marks the bytes that end a run of plain string bytes: the quote,
// the backslash and the control bytes. It is never written after
// initialization.
var strStop = func() (t [256]bool) {
	for c := range ' ' {
		t[c] = true
	}
	t['"'], t['\\'] = true, true
	return t
}()

// plainASCII marks the ASCII bytes a string's contents keep as they are
// (all but the backslash). It is never written after initialization.
var plainASCII = func() (t [256]bool) {
	for c := range utf8.RuneSelf {
		t[c] = c != '\\'
	}
	return t
}()

// appendUnquoted appends the contents of a JSON string that scanString
// accepted (without its quotes) as encoding/json decodes it: escapes
// resolved, a \u surrogate pair joined and a lone surrogate made U+FFFD,
// bytes that are not UTF-8 made U+FFFD.
func appendUnquoted(dst, s []byte) []byte {
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf && c != '\\' {
			j := i + 1
			for j < len(s) && plainASCII[s[j]] {
				j++
			}
			dst = append(dst, s[i:j]...)
			i = j
			continue
		}
		dst, i = jsonstr.AppendUnit(s, i, dst)
	}
	return dst
}
