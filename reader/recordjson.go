package reader

import (
	"strings"
	"unicode/utf8"

	"github.com/snii-go/snii/internal/jsonstr"
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
				if p.i+6 > len(p.b) || jsonstr.Hex4(p.b[p.i+2:p.i+6]) < 0 {
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

// container parses an object (kind 'o') or an array ('a') at p.i, each
// member or element with member.
func (p *jsonParser) container(v *jsonValue, kind, closing byte, member func() bool) bool {
	if p.depth++; p.depth > maxJSONDepth {
		return false
	}
	defer func() { p.depth-- }()
	v.kind = kind
	p.i++
	p.space()
	if p.i < len(p.b) && p.b[p.i] == closing {
		p.i++
		return true
	}
	for {
		if !member() {
			return false
		}
		p.space()
		if p.i >= len(p.b) {
			return false
		}
		switch p.b[p.i] {
		case ',':
			p.i++
		case closing:
			p.i++
			return true
		default:
			return false
		}
	}
}

func (p *jsonParser) object(v *jsonValue) bool {
	return p.container(v, 'o', '}', func() bool {
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
			key = decodeJSONString(p.b[s:e])
		}
		p.space()
		if p.i >= len(p.b) || p.b[p.i] != ':' {
			return false
		}
		p.i++
		var m jsonValue
		if !p.value(&m) {
			return false
		}
		v.keys = append(v.keys, key)
		v.elems = append(v.elems, m)
		return true
	})
}

func (p *jsonParser) array(v *jsonValue) bool {
	return p.container(v, 'a', ']', func() bool {
		var e jsonValue
		if !p.value(&e) {
			return false
		}
		v.elems = append(v.elems, e)
		return true
	})
}

// decodeJSONString decodes the bytes inside a JSON string's quotes as
// encoding/json does (a lone surrogate or an invalid UTF-8 byte becomes
// U+FFFD).
func decodeJSONString(raw []byte) string {
	out := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); {
		out, i = jsonstr.AppendUnit(raw, i, out)
	}
	return string(out)
}

// unitCursor maps byte ranges of a decoded JSON string to the raw bytes of
// the units (escapes, characters) they come from, for ranges asked in
// ascending, disjoint order: it walks the raw bytes once.
type unitCursor struct {
	raw     []byte
	ri, di  int    // the raw and decoded offsets of the unit at the cursor
	scratch []byte // one unit's decoded bytes
}

// unit returns the unit at the cursor: its raw end and its decoded length.
func (c *unitCursor) unit() (rawEnd, decLen int) {
	c.scratch, rawEnd = jsonstr.AppendUnit(c.raw, c.ri, c.scratch[:0])
	return rawEnd, len(c.scratch)
}

// rawRange returns the raw range [rs, re) of the units covering the decoded
// bytes [s, e) (s < e; a range before the previous one restarts the walk).
func (c *unitCursor) rawRange(s, e int) (rs, re int) {
	if s < c.di {
		c.ri, c.di = 0, 0
	}
	for {
		// A plain ASCII byte is a unit of one byte decoding to itself.
		for c.di < s && c.ri < len(c.raw) && c.raw[c.ri] < utf8.RuneSelf && c.raw[c.ri] != '\\' {
			c.ri, c.di = c.ri+1, c.di+1
		}
		end, n := c.unit()
		if c.di+n > s {
			break
		}
		c.ri, c.di = end, c.di+n
	}
	rs = c.ri
	for {
		end, n := c.unit()
		if c.di+n >= e {
			return rs, end
		}
		c.ri, c.di = end, c.di+n
	}
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
