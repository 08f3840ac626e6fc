package index

import (
	"unicode"
	"unicode/utf8"

	"github.com/snii-go/snii/internal/errs"
)

// MaxTokenBytes is the longest token (in bytes, after lowercasing) an analyzer
// emits. Longer tokens are skipped but still take their position, so phrase
// adjacency across them is not invented.
const MaxTokenBytes = 255

// ValueGap is the number of positions left between two values of one field:
// when a value used n positions starting at base, the next value starts at
// base+n+ValueGap, so a phrase never matches across two values.
const ValueGap = 100

// Analyzer names.
const (
	AnalyzerStandard   = "standard"
	AnalyzerWhitespace = "whitespace"
	AnalyzerKeyword    = "keyword"
)

// Analyzer turns a text value into terms and positions.
//
// An Analyzer returned by NewAnalyzer holds a scratch buffer that it reuses for
// every token, so Analyze allocates nothing in steady state; for the same
// reason an Analyzer is NOT safe for concurrent use. Call NewAnalyzer once per
// goroutine (each call returns a fresh value).
type Analyzer interface {
	// Name returns the analyzer's name as recorded in the segment.
	Name() string
	// Analyze calls emit(term, pos) for each kept token of text, pos counting
	// from 0 (skipped over-long tokens still take a position), and returns the
	// number of positions used. term is valid only during the call to emit.
	Analyze(text string, emit func(term []byte, pos uint32)) uint32
}

// NewAnalyzer returns a fresh analyzer by name:
//
//   - "standard" (also ""): maximal runs of Unicode letters and digits
//     (unicode.IsLetter or unicode.IsDigit, so '²' and '½' are separators),
//     lowercased rune by rune with unicode.ToLower; bytes that are not valid
//     UTF-8 are separators.
//   - "whitespace": maximal runs of non-space runes (unicode.IsSpace splits),
//     lowercased rune by rune; bytes that are not valid UTF-8 are kept as they
//     are, inside the token.
//   - "keyword": the whole value as one token, bytes unchanged (no
//     lowercasing); an empty value gives no token and uses no position.
//
// Unknown names give an error wrapping ErrInvalidArgument.
func NewAnalyzer(name string) (Analyzer, error) {
	switch name {
	case "", AnalyzerStandard:
		return &standardAnalyzer{}, nil
	case AnalyzerWhitespace:
		return &whitespaceAnalyzer{}, nil
	case AnalyzerKeyword:
		return &keywordAnalyzer{}, nil
	}
	return nil, errs.Invalidf("index: unknown analyzer %q (known: standard, whitespace, keyword)", name)
}

// AnalyzerNames returns the names NewAnalyzer accepts, default first.
func AnalyzerNames() []string {
	return []string{AnalyzerStandard, AnalyzerWhitespace, AnalyzerKeyword}
}

// tokenBuf accumulates one lowercased token. It stops storing bytes once the
// token is longer than MaxTokenBytes, so an enormous token costs no memory.
type tokenBuf struct {
	buf  []byte
	long bool
}

func (t *tokenBuf) reset() {
	t.buf = t.buf[:0]
	t.long = false
}

func (t *tokenBuf) appendByte(c byte) {
	if t.long {
		return
	}
	if len(t.buf) == MaxTokenBytes {
		t.long = true
		return
	}
	t.buf = append(t.buf, c)
}

func (t *tokenBuf) appendRune(r rune) {
	if t.long {
		return
	}
	if len(t.buf)+utf8.RuneLen(r) > MaxTokenBytes {
		t.long = true
		return
	}
	t.buf = utf8.AppendRune(t.buf, r)
}

// flush emits the token (unless it was too long) and returns the next position.
func (t *tokenBuf) flush(pos uint32, emit func([]byte, uint32)) uint32 {
	if !t.long {
		emit(t.buf, pos)
	}
	t.reset()
	return pos + 1
}

type standardAnalyzer struct{ tok tokenBuf }

func (*standardAnalyzer) Name() string { return AnalyzerStandard }

func (a *standardAnalyzer) Analyze(text string, emit func(term []byte, pos uint32)) uint32 {
	t := &a.tok
	t.reset()
	var pos uint32
	in := false
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			if asciiToken[c] == 0 {
				i++
				if in {
					pos = t.flush(pos, emit)
					in = false
				}
				continue
			}
			// A run of ASCII letters and digits, appended at once.
			j := i + 1
			for j < len(text) && text[j] < utf8.RuneSelf && asciiToken[text[j]] != 0 {
				j++
			}
			t.appendASCII(text[i:j])
			in = true
			i = j
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		i += size
		if (r != utf8.RuneError || size > 1) && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			t.appendRune(unicode.ToLower(r))
			in = true
			continue
		}
		if in {
			pos = t.flush(pos, emit)
			in = false
		}
	}
	if in {
		pos = t.flush(pos, emit)
	}
	return pos
}

// asciiToken maps an ASCII letter or digit to its lowercase form and every
// other ASCII byte to 0. It is never written after initialization.
var asciiToken = func() (tab [utf8.RuneSelf]byte) {
	for c := '0'; c <= '9'; c++ {
		tab[c] = byte(c)
	}
	for c := 'a'; c <= 'z'; c++ {
		tab[c] = byte(c)
		tab[c-'a'+'A'] = byte(c)
	}
	return tab
}()

// appendASCII appends a run of ASCII letters and digits, lowercased.
func (t *tokenBuf) appendASCII(run string) {
	if t.long {
		return
	}
	if len(t.buf)+len(run) > MaxTokenBytes {
		t.long = true
		return
	}
	n := len(t.buf)
	t.buf = append(t.buf, run...)
	for k, c := range t.buf[n:] {
		t.buf[n+k] = asciiToken[c]
	}
}

type whitespaceAnalyzer struct{ tok tokenBuf }

func (*whitespaceAnalyzer) Name() string { return AnalyzerWhitespace }

func (a *whitespaceAnalyzer) Analyze(text string, emit func(term []byte, pos uint32)) uint32 {
	t := &a.tok
	t.reset()
	var pos uint32
	in := false
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			i++
			switch {
			case c == ' ', '\t' <= c && c <= '\r':
				if in {
					pos = t.flush(pos, emit)
					in = false
				}
			case 'A' <= c && c <= 'Z':
				t.appendByte(c + ('a' - 'A'))
				in = true
			default:
				t.appendByte(c)
				in = true
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		if r == utf8.RuneError && size == 1 {
			t.appendByte(c) // invalid UTF-8: kept as is
			i++
			in = true
			continue
		}
		i += size
		if unicode.IsSpace(r) {
			if in {
				pos = t.flush(pos, emit)
				in = false
			}
			continue
		}
		t.appendRune(unicode.ToLower(r))
		in = true
	}
	if in {
		pos = t.flush(pos, emit)
	}
	return pos
}

type keywordAnalyzer struct{ buf []byte }

func (*keywordAnalyzer) Name() string { return AnalyzerKeyword }

func (a *keywordAnalyzer) Analyze(text string, emit func(term []byte, pos uint32)) uint32 {
	if len(text) == 0 {
		return 0
	}
	if len(text) <= MaxTokenBytes {
		a.buf = append(a.buf[:0], text...)
		emit(a.buf, 0)
	}
	return 1
}
