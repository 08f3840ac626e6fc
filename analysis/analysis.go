package analysis

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/snii-go/snii"
)

// DefaultMaxTokenBytes is the longest token (in bytes, after lowercasing) the
// built-in analyzers emit unless their spec sets max_token_bytes. Longer tokens
// are skipped (and counted) but still take their position, so phrase adjacency
// across them is not invented.
const DefaultMaxTokenBytes = 255

// MaxMaxTokenBytes bounds Spec.MaxTokenBytes.
const MaxMaxTokenBytes = 1 << 16

// ValueGap is the number of positions left between two values of one field:
// when a value used n positions starting at base, the next value starts at
// base+n+ValueGap, so a phrase never matches across two values.
const ValueGap = 100

// The built-in analyzers' names.
const (
	Standard   = "standard"
	Whitespace = "whitespace"
	Keyword    = "keyword"
)

// Analyzer turns a text value into terms and positions.
//
// The built-in analyzers hold a scratch buffer that they reuse for every
// token, so Analyze allocates nothing in steady state; for the same reason an
// Analyzer is not safe for concurrent use: call New once per goroutine (each
// call returns a fresh value). Analyzers registered by users should follow the
// same rule.
type Analyzer interface {
	// Analyze calls emit(term, pos) for each kept token of text, pos counting
	// from 0, and returns the number of positions used and the number of
	// tokens skipped for being longer than the token-length limit (a skipped
	// token still takes its position). term is valid only during the call to
	// emit. The same text must always give the same terms and positions: the
	// reader analyzes query text with the analyzer the segment records.
	Analyze(text string, emit func(term []byte, pos uint32)) (positions, skipped uint32)
}

// factory returns a fresh Analyzer for a spec (see Register).
type factory func(spec Spec) (Analyzer, error)

// New returns a fresh analyzer for a spec string (see ParseSpec), for example
// "standard" or "whitespace;max_token_bytes=1024". "" is "standard".
//
// An analyzer that is not registered (name and version) gives an error
// wrapping snii.ErrNotFound; a malformed spec or a setting the analyzer
// refuses, snii.ErrInvalidArgument. The built-in analyzers (version 1) are:
//
//   - "standard": maximal runs of Unicode letters and digits
//     (unicode.IsLetter or unicode.IsDigit, so '²' and '½' are separators),
//     lowercased rune by rune with unicode.ToLower; bytes that are not valid
//     UTF-8 are separators.
//   - "whitespace": maximal runs of non-space runes (unicode.IsSpace splits),
//     lowercased rune by rune; bytes that are not valid UTF-8 are kept as they
//     are, inside the token.
//   - "keyword": the whole value as one token, bytes unchanged (no
//     lowercasing); an empty value gives no token and uses no position.
//
// Each takes one setting, max_token_bytes (1..MaxMaxTokenBytes, default
// DefaultMaxTokenBytes): longer tokens are skipped.
func New(spec string) (Analyzer, error) {
	sp, err := ParseSpec(spec)
	if err != nil {
		return nil, err
	}
	return sp.newAnalyzer()
}

// newAnalyzer returns a fresh analyzer for sp.
func (sp Spec) newAnalyzer() (Analyzer, error) {
	sp = sp.normalize()
	regMu.RLock()
	f, ok := registry[regKey{sp.Name, sp.Version}]
	regMu.RUnlock()
	if !ok {
		return nil, fmt.Errorf("analysis: analyzer %s is not registered (registered: %s): %w",
			sp, strings.Join(Names(), ", "), snii.ErrNotFound)
	}
	if sp.MaxTokenBytes < 1 || sp.MaxTokenBytes > MaxMaxTokenBytes {
		return nil, fmt.Errorf("analysis: analyzer %s: max_token_bytes %d (want 1..%d): %w",
			sp.Name, sp.MaxTokenBytes, MaxMaxTokenBytes, snii.ErrInvalidArgument)
	}
	return f(sp)
}

// Register makes an analyzer available to New, writer and reader under a name
// and a version (1 or more). A segment records the name, the version and the
// settings of each field's analyzer, and a reader opens it only if that name
// and version are registered, so change the version whenever the analyzer's
// output changes. Register panics if the name is empty or contains one of
// "@;=", if the version is below 1, or if the pair is already registered
// (like database/sql.Register, it is meant to be called from an init function).
//
// f returns a fresh Analyzer for spec (whose Name and Version are the ones it
// was registered under), or an error wrapping snii.ErrInvalidArgument for
// settings it does not support.
func Register(name string, version int, f func(spec Spec) (Analyzer, error)) {
	if name == "" || strings.ContainsAny(name, "@;=") || version < 1 || f == nil {
		panic(fmt.Sprintf("analysis: Register(%q, %d): bad name, version or nil factory", name, version))
	}
	regMu.Lock()
	defer regMu.Unlock()
	k := regKey{name, version}
	if _, dup := registry[k]; dup {
		panic(fmt.Sprintf("analysis: Register(%q, %d): already registered", name, version))
	}
	registry[k] = f
}

// Names returns the registered analyzers as spec strings ("name" for version
// 1, "name@v" otherwise), the built-in ones first, then the others in order.
func Names() []string {
	regMu.RLock()
	defer regMu.RUnlock()
	out := []string{Standard, Whitespace, Keyword}
	var more []string
	for k := range registry {
		if k.version == 1 && (k.name == Standard || k.name == Whitespace || k.name == Keyword) {
			continue
		}
		more = append(more, Spec{Name: k.name, Version: k.version}.String())
	}
	slices.Sort(more)
	return append(out, more...)
}

// Spec is an analyzer with its settings, as a segment records it: the string
// form "name[@version][;max_token_bytes=N]", where version 1 and the default
// limit are left out, so the built-in analyzers are recorded as their bare
// names ("standard").
type Spec struct {
	Name          string // "" = Standard
	Version       int    // 0 = 1
	MaxTokenBytes int    // 0 = DefaultMaxTokenBytes
}

// ParseSpec parses the string form of a Spec. A malformed string gives an
// error wrapping snii.ErrInvalidArgument.
func ParseSpec(s string) (Spec, error) {
	bad := func(why string) (Spec, error) {
		return Spec{}, fmt.Errorf("analysis: analyzer spec %q: %s: %w", s, why, snii.ErrInvalidArgument)
	}
	var sp Spec
	head, settings, _ := strings.Cut(s, ";")
	name, ver, hasVer := strings.Cut(head, "@")
	sp.Name = name
	if hasVer {
		v, err := strconv.Atoi(ver)
		if err != nil || v < 1 {
			return bad("version " + strconv.Quote(ver))
		}
		sp.Version = v
	}
	for settings != "" {
		var kv string
		kv, settings, _ = strings.Cut(settings, ";")
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k != "max_token_bytes" {
			return bad("unknown setting " + strconv.Quote(kv))
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > MaxMaxTokenBytes {
			return bad(fmt.Sprintf("max_token_bytes %q (want 1..%d)", v, MaxMaxTokenBytes))
		}
		sp.MaxTokenBytes = n
	}
	return sp.normalize(), nil
}

func (sp Spec) normalize() Spec {
	if sp.Name == "" {
		sp.Name = Standard
	}
	if sp.Version == 0 {
		sp.Version = 1
	}
	if sp.MaxTokenBytes == 0 {
		sp.MaxTokenBytes = DefaultMaxTokenBytes
	}
	return sp
}

// String returns the string form of sp (see Spec), the form segments record.
func (sp Spec) String() string {
	sp = sp.normalize()
	s := sp.Name
	if sp.Version != 1 {
		s += "@" + strconv.Itoa(sp.Version)
	}
	if sp.MaxTokenBytes != DefaultMaxTokenBytes {
		s += ";max_token_bytes=" + strconv.Itoa(sp.MaxTokenBytes)
	}
	return s
}

type regKey struct {
	name    string
	version int
}

var (
	regMu    sync.RWMutex
	registry = map[regKey]factory{
		{Standard, 1}:   func(sp Spec) (Analyzer, error) { return &standardAnalyzer{tok: tokenBuf{max: sp.MaxTokenBytes}}, nil },
		{Whitespace, 1}: func(sp Spec) (Analyzer, error) { return &whitespaceAnalyzer{tok: tokenBuf{max: sp.MaxTokenBytes}}, nil },
		{Keyword, 1}:    func(sp Spec) (Analyzer, error) { return &keywordAnalyzer{max: sp.MaxTokenBytes}, nil },
	}
)

// tokenBuf accumulates one lowercased token. It stops storing bytes once the
// token is longer than MaxTokenBytes, so an enormous token costs no memory.
type tokenBuf struct {
	buf     []byte
	long    bool
	start   int    // the byte offset of the token in the text
	max     int    // the token-length limit
	skipped uint32 // tokens skipped by the current Analyze
}

func (t *tokenBuf) reset() {
	t.buf = t.buf[:0]
	t.long = false
}

func (t *tokenBuf) appendByte(c byte) {
	if t.long {
		return
	}
	if len(t.buf) == t.max {
		t.long = true
		return
	}
	t.buf = append(t.buf, c)
}

func (t *tokenBuf) appendRune(r rune) {
	if t.long {
		return
	}
	if len(t.buf)+utf8.RuneLen(r) > t.max {
		t.long = true
		return
	}
	t.buf = utf8.AppendRune(t.buf, r)
}

// begin records i as the start of the token unless one is already open.
func (t *tokenBuf) begin(in bool, i int) {
	if !in {
		t.start = i
	}
}

// flush emits the token, which ends at byte end of the text (unless it was
// too long), and returns the next position.
func (t *tokenBuf) flush(pos uint32, end int, emit func([]byte, uint32, int, int)) uint32 {
	if !t.long {
		emit(t.buf, pos, t.start, end)
	} else {
		t.skipped++
	}
	t.reset()
	return pos + 1
}

type standardAnalyzer struct{ tok tokenBuf }

func (a *standardAnalyzer) Analyze(text string, emit func(term []byte, pos uint32)) (uint32, uint32) {
	return a.AnalyzeOffsets(text, func(term []byte, pos uint32, _, _ int) { emit(term, pos) })
}

func (a *standardAnalyzer) AnalyzeOffsets(text string, emit func(term []byte, pos uint32, start, end int)) (uint32, uint32) {
	t := &a.tok
	t.reset()
	t.skipped = 0
	var pos uint32
	in := false
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			if asciiToken[c] == 0 {
				if in {
					pos = t.flush(pos, i, emit)
					in = false
				}
				i++
				continue
			}
			// A run of ASCII letters and digits, lowercased as it is scanned.
			t.begin(in, i)
			i = t.appendASCII(text, i)
			in = true
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		if (r != utf8.RuneError || size > 1) && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			t.begin(in, i)
			t.appendRune(unicode.ToLower(r))
			in = true
			i += size
			continue
		}
		if in {
			pos = t.flush(pos, i, emit)
			in = false
		}
		i += size
	}
	if in {
		pos = t.flush(pos, len(text), emit)
	}
	return pos, t.skipped
}

// asciiToken maps an ASCII letter or digit to its lowercase form and every
// other byte (the bytes of multi-byte runes included) to 0. It is never
// written after initialization.
var asciiToken = func() (tab [256]byte) {
	for c := '0'; c <= '9'; c++ {
		tab[c] = byte(c)
	}
	for c := 'a'; c <= 'z'; c++ {
		tab[c] = byte(c)
		tab[c-'a'+'A'] = byte(c)
	}
	return tab
}()

// appendASCII appends the run of ASCII letters and digits that starts at
// text[i], lowercased, and returns the index past it. A run that does not
// fit the token-length limit is scanned without being stored.
func (t *tokenBuf) appendASCII(text string, i int) int {
	j := i
	if !t.long {
		n := len(t.buf)
		if cap(t.buf) < t.max {
			t.buf = slices.Grow(t.buf, t.max-n)
		}
		room := t.buf[n:t.max] // the bytes the token may still take
		end := min(len(text), i+len(room))
		for ; j < end; j++ {
			c := asciiToken[text[j]]
			if c == 0 {
				break
			}
			room[j-i] = c
		}
		if j < end || j == len(text) || asciiToken[text[j]] == 0 {
			t.buf = t.buf[:n+j-i]
			return j
		}
		t.long = true // the token is skipped; the buffer keeps its room
	}
	for j < len(text) && asciiToken[text[j]] != 0 {
		j++
	}
	return j
}

type whitespaceAnalyzer struct{ tok tokenBuf }

func (a *whitespaceAnalyzer) Analyze(text string, emit func(term []byte, pos uint32)) (uint32, uint32) {
	return a.AnalyzeOffsets(text, func(term []byte, pos uint32, _, _ int) { emit(term, pos) })
}

func (a *whitespaceAnalyzer) AnalyzeOffsets(text string, emit func(term []byte, pos uint32, start, end int)) (uint32, uint32) {
	t := &a.tok
	t.reset()
	t.skipped = 0
	var pos uint32
	in := false
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			switch {
			case c == ' ', '\t' <= c && c <= '\r':
				if in {
					pos = t.flush(pos, i, emit)
					in = false
				}
			case 'A' <= c && c <= 'Z':
				t.begin(in, i)
				t.appendByte(c + ('a' - 'A'))
				in = true
			default:
				t.begin(in, i)
				t.appendByte(c)
				in = true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		if r == utf8.RuneError && size == 1 {
			t.begin(in, i)
			t.appendByte(c) // invalid UTF-8: kept as is
			i++
			in = true
			continue
		}
		if unicode.IsSpace(r) {
			if in {
				pos = t.flush(pos, i, emit)
				in = false
			}
			i += size
			continue
		}
		t.begin(in, i)
		t.appendRune(unicode.ToLower(r))
		in = true
		i += size
	}
	if in {
		pos = t.flush(pos, len(text), emit)
	}
	return pos, t.skipped
}

type keywordAnalyzer struct {
	buf []byte
	max int
}

func (a *keywordAnalyzer) Analyze(text string, emit func(term []byte, pos uint32)) (uint32, uint32) {
	return a.AnalyzeOffsets(text, func(term []byte, pos uint32, _, _ int) { emit(term, pos) })
}

func (a *keywordAnalyzer) AnalyzeOffsets(text string, emit func(term []byte, pos uint32, start, end int)) (uint32, uint32) {
	if len(text) == 0 {
		return 0, 0
	}
	if len(text) > a.max {
		return 1, 1
	}
	a.buf = append(a.buf[:0], text...)
	emit(a.buf, 0, 0, len(text))
	return 1, 0
}
