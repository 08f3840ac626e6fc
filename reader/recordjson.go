package reader

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// jsonValue is a value of a stored JSON record, parsed with the byte ranges
// of its scalars in the record.
type jsonValue struct {
	kind     byte        // 's' string, 'n' number, 't' true, 'f' false, 'z' null, 'o' object, 'a' array
	raw      [2]int      // scalars: the literal's bytes in the record (a string: inside its quotes)
	keys     []string    // object: decoded keys, in order (a repeated key: the last one counts)
	elems    []jsonValue // object: the values of keys; array: the elements
	hasEscap bool        // string: holds a backslash escape or bytes that decode otherwise
}

// jsonParser parses one JSON value (RFC 8259, as encoding/json accepts it).
type jsonParser struct {
	b     []byte
	i     int
	depth int
}

// maxJSONDepth bounds the nesting of a parsed record (encoding/json's bound).
const maxJSONDepth = 10000

// parseJSONObject parses rec as one JSON object with nothing but white space
// after it; ok is false for anything else.
func parseJSONObject(rec []byte) (v jsonValue, ok bool) {
	p := jsonParser{b: rec}
	p.space()
	if p.i >= len(p.b) || p.b[p.i] != '{' {
		return v, false
	}
	if !p.value(&v) {
		return v, false
	}
	p.space()
	return v, p.i == len(p.b)
}

func (p *jsonParser) space() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *jsonParser) lit(s string) bool {
	if !strings.HasPrefix(string(p.b[p.i:min(len(p.b), p.i+len(s))]), s) {
		return false
	}
	p.i += len(s)
	return true
}

func (p *jsonParser) value(v *jsonValue) bool {
	p.space()
	if p.i >= len(p.b) {
		return false
	}
	start := p.i
	switch c := p.b[p.i]; {
	case c == '{':
		return p.object(v)
	case c == '[':
		return p.array(v)
	case c == '"':
		v.kind = 's'
		s, e, esc, ok := p.str()
		v.raw, v.hasEscap = [2]int{s, e}, esc
		return ok
	case c == 't':
		v.kind, v.raw = 't', [2]int{start, start + 4}
		return p.lit("true")
	case c == 'f':
		v.kind, v.raw = 'f', [2]int{start, start + 5}
		return p.lit("false")
	case c == 'n':
		v.kind = 'z'
		return p.lit("null")
	case c == '-' || '0' <= c && c <= '9':
		v.kind = 'n'
		ok := p.number()
		v.raw = [2]int{start, p.i}
		return ok
	}
	return false
}

func (p *jsonParser) digits() int {
	n := 0
	for p.i < len(p.b) && '0' <= p.b[p.i] && p.b[p.i] <= '9' {
		p.i++
		n++
	}
	return n
}

func (p *jsonParser) number() bool {
	if p.b[p.i] == '-' {
		p.i++
	}
	if p.i < len(p.b) && p.b[p.i] == '0' {
		p.i++
	} else if p.digits() == 0 {
		return false
	}
	if p.i < len(p.b) && p.b[p.i] == '.' {
		p.i++
		if p.digits() == 0 {
			return false
		}
	}
	if p.i < len(p.b) && (p.b[p.i] == 'e' || p.b[p.i] == 'E') {
		p.i++
		if p.i < len(p.b) && (p.b[p.i] == '+' || p.b[p.i] == '-') {
			p.i++
		}
		if p.digits() == 0 {
			return false
		}
	}
	return true
}

// str scans a string at p.i (its opening quote) and returns the bytes inside
// the quotes and whether they need decoding.
func (p *jsonParser) str() (start, end int, esc, ok bool) {
	p.i++
	start = p.i
	for p.i < len(p.b) {
		c := p.b[p.i]
		switch {
		case c == '"':
			end = p.i
			p.i++
			return start, end, esc, true
		case c == '\\':
			esc = true
			if p.i+1 >= len(p.b) {
				return 0, 0, false, false
			}
			switch p.b[p.i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				p.i += 2
			case 'u':
				if p.i+6 > len(p.b) || hex4(p.b[p.i+2:p.i+6]) < 0 {
					return 0, 0, false, false
				}
				p.i += 6
			default:
				return 0, 0, false, false
			}
		case c < 0x20:
			return 0, 0, false, false
		case c < utf8.RuneSelf:
			p.i++
		default:
			r, size := utf8.DecodeRune(p.b[p.i:])
			if r == utf8.RuneError && size == 1 {
				esc = true // decodes to U+FFFD
			}
			p.i += size
		}
	}
	return 0, 0, false, false
}

func (p *jsonParser) object(v *jsonValue) bool {
	if p.depth++; p.depth > maxJSONDepth {
		return false
	}
	defer func() { p.depth-- }()
	v.kind = 'o'
	p.i++
	p.space()
	if p.i < len(p.b) && p.b[p.i] == '}' {
		p.i++
		return true
	}
	for {
		p.space()
		if p.i >= len(p.b) || p.b[p.i] != '"' {
			return false
		}
		s, e, esc, ok := p.str()
		if !ok {
			return false
		}
		key := string(p.b[s:e])
		if esc {
			key, _ = decodeJSONString(p.b[s:e], false)
		}
		p.space()
		if p.i >= len(p.b) || p.b[p.i] != ':' {
			return false
		}
		p.i++
		var e2 jsonValue
		if !p.value(&e2) {
			return false
		}
		v.keys = append(v.keys, key)
		v.elems = append(v.elems, e2)
		p.space()
		if p.i >= len(p.b) {
			return false
		}
		switch p.b[p.i] {
		case ',':
			p.i++
		case '}':
			p.i++
			return true
		default:
			return false
		}
	}
}

func (p *jsonParser) array(v *jsonValue) bool {
	if p.depth++; p.depth > maxJSONDepth {
		return false
	}
	defer func() { p.depth-- }()
	v.kind = 'a'
	p.i++
	p.space()
	if p.i < len(p.b) && p.b[p.i] == ']' {
		p.i++
		return true
	}
	for {
		var e jsonValue
		if !p.value(&e) {
			return false
		}
		v.elems = append(v.elems, e)
		p.space()
		if p.i >= len(p.b) {
			return false
		}
		switch p.b[p.i] {
		case ',':
			p.i++
		case ']':
			p.i++
			return true
		default:
			return false
		}
	}
}

// hex4 decodes four hex digits, or -1.
func hex4(b []byte) rune {
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

// decodeJSONString decodes the bytes inside a JSON string's quotes as
// encoding/json does (a lone surrogate or an invalid UTF-8 byte becomes
// U+FFFD). With units, it also returns for each decoded byte k the raw range
// [units[2k], units[2k+1]) of the escape or character it comes from.
func decodeJSONString(raw []byte, units bool) (string, []int32) {
	out := make([]byte, 0, len(raw))
	var u []int32
	add := func(from, to int, n int) {
		if units {
			for range n {
				u = append(u, int32(from), int32(to))
			}
		}
	}
	for i := 0; i < len(raw); {
		c := raw[i]
		switch {
		case c == '\\' && i+1 < len(raw):
			var b byte
			switch raw[i+1] {
			case 'b':
				b = '\b'
			case 'f':
				b = '\f'
			case 'n':
				b = '\n'
			case 'r':
				b = '\r'
			case 't':
				b = '\t'
			case 'u':
				r := rune(utf8.RuneError)
				n := 6
				if i+6 <= len(raw) {
					r = hex4(raw[i+2 : i+6])
				}
				if utf16.IsSurrogate(r) {
					r2 := rune(-1)
					if i+12 <= len(raw) && raw[i+6] == '\\' && raw[i+7] == 'u' {
						r2 = hex4(raw[i+8 : i+12])
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
				before := len(out)
				out = utf8.AppendRune(out, r)
				add(i, i+n, len(out)-before)
				i += n
				continue
			default: // '"', '\\', '/'
				b = raw[i+1]
			}
			out = append(out, b)
			add(i, i+2, 1)
			i += 2
		case c < utf8.RuneSelf:
			out = append(out, c)
			add(i, i+1, 1)
			i++
		default:
			r, size := utf8.DecodeRune(raw[i:])
			before := len(out)
			if r == utf8.RuneError && size == 1 {
				out = utf8.AppendRune(out, utf8.RuneError)
			} else {
				out = append(out, raw[i:i+size]...)
			}
			add(i, i+size, len(out)-before)
			i += size
		}
	}
	return string(out), u
}

// lookup returns the value of key in an object (the last of a repeated key).
func (v *jsonValue) lookup(key string) (*jsonValue, bool) {
	for k := len(v.keys) - 1; k >= 0; k-- {
		if v.keys[k] == key {
			return &v.elems[k], true
		}
	}
	return nil, false
}

// extract appends the scalars at a dotted path below v, by the rules of the
// CLI's JSON input: strings, numbers and booleans are values, arrays give
// every element (at any level), null and objects nothing; a key that itself
// contains dots is matched whole before the path is split at a dot.
func (v *jsonValue) extract(path string, out []*jsonValue) []*jsonValue {
	switch v.kind {
	case 'a':
		for k := range v.elems {
			out = v.elems[k].extract(path, out)
		}
		return out
	case 'o':
		if path == "" {
			return out
		}
		if e, ok := v.lookup(path); ok {
			return e.extract("", out)
		}
		for i := 0; i < len(path); i++ {
			if path[i] != '.' {
				continue
			}
			if e, ok := v.lookup(path[:i]); ok {
				return e.extract(path[i+1:], out)
			}
		}
		return out
	case 'z':
		return out
	}
	if path != "" {
		return out
	}
	return append(out, v)
}
