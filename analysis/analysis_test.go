package analysis

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode"

	"github.com/google/go-cmp/cmp"
	"github.com/snii-go/snii"
)

type tok struct {
	Term string
	Pos  uint32
}

func analyze(t testing.TB, name, text string) ([]tok, uint32) {
	t.Helper()
	a, err := New(name)
	if err != nil {
		t.Fatal(err)
	}
	var got []tok
	n, _ := a.Analyze(text, func(term []byte, pos uint32) { got = append(got, tok{string(term), pos}) })
	return got, n
}

func toks(pairs ...any) []tok {
	var out []tok
	for i := 0; i < len(pairs); i += 2 {
		out = append(out, tok{pairs[i].(string), uint32(pairs[i+1].(int))})
	}
	return out
}

func TestAnalyzers(t *testing.T) {
	long255 := strings.Repeat("a", 255)
	long256 := strings.Repeat("b", 256)
	e127 := strings.Repeat("é", 127) // 254 bytes
	tests := []struct {
		analyzer, text string
		want           []tok
		n              uint32
	}{
		{"standard", "", nil, 0},
		{"standard", "  ,;  ", nil, 0},
		{"standard", "Hello, World!", toks("hello", 0, "world", 1), 2},
		{"standard", "GET /api/v1/users?id=42 HTTP/1.1", toks("get", 0, "api", 1, "v1", 2, "users", 3, "id", 4, "42", 5, "http", 6, "1", 7, "1", 8), 9},
		{"standard", "snake_case-and.dots", toks("snake", 0, "case", 1, "and", 2, "dots", 3), 4},
		{"standard", "İstanbul", toks("istanbul", 0), 1},
		{"standard", "ΟΔΟΣ ὈΔΌΣ", toks("οδοσ", 0, "ὀδόσ", 1), 2}, // no final-sigma rule
		{"standard", "ς", toks("ς", 0), 1},
		{"standard", "x² ½ y", toks("x", 0, "y", 1), 2}, // ² and ½ are not IsDigit
		{"standard", "a½b", toks("a", 0, "b", 1), 2},
		{"standard", "٣٤ ５", toks("٣٤", 0, "５", 1), 2}, // Arabic-Indic and fullwidth digits are IsDigit
		{"standard", "日本語テキスト", toks("日本語テキスト", 0), 1},
		{"standard", "ab\xffcd\xc3", toks("ab", 0, "cd", 1), 2}, // invalid UTF-8 separates
		{"standard", "a\xef\xbf\xbdb", toks("a", 0, "b", 1), 2}, // a real U+FFFD is a symbol
		{"standard", "ÄÖÜ straße ǅ", toks("äöü", 0, "straße", 1, "ǆ", 2), 3},
		{"standard", long255 + " x", toks(long255, 0, "x", 1), 2},
		{"standard", long256 + " x", toks("x", 1), 2},
		{"standard", "x " + long256, toks("x", 0), 2},
		{"standard", strings.ToUpper(long256) + " x", toks("x", 1), 2},
		{"standard", e127 + "a", toks(e127+"a", 0), 1},                               // 255 bytes
		{"standard", e127 + "é", nil, 1},                                             // 256 bytes
		{"standard", e127 + "ab q", toks("q", 1), 2},                                 // 256 bytes
		{"standard", strings.Repeat("İ", 200), toks(strings.Repeat("i", 200), 0), 1}, // 400 bytes in, 200 out
		{"standard", strings.Repeat("K", 100), toks(strings.Repeat("k", 100), 0), 1}, // Kelvin sign, 300 bytes in
		{"whitespace", "", nil, 0},
		{"whitespace", "Foo\tBAR\u00a0baz\xff\n a,B", toks("foo", 0, "bar", 1, "baz\xff", 2, "a,b", 3), 4},
		{"whitespace", "x\u2003y\u0085z", toks("x", 0, "y", 1, "z", 2), 3},
		{"whitespace", "İ", toks("i", 0), 1},
		{"whitespace", long256 + " " + long255, toks(long255, 1), 2},
		{"keyword", "", nil, 0},
		{"keyword", "Hello World", toks("Hello World", 0), 1},
		{"keyword", " x ", toks(" x ", 0), 1},
		{"keyword", long255, toks(long255, 0), 1},
		{"keyword", long256, nil, 1},
	}
	for _, tc := range tests {
		name := tc.analyzer + "/" + tc.text
		if len(name) > 40 {
			name = name[:40]
		}
		t.Run(name, func(t *testing.T) {
			got, n := analyze(t, tc.analyzer, tc.text)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("tokens (-want +got):\n%s", diff)
			}
			if n != tc.n {
				t.Errorf("positions used = %d, want %d", n, tc.n)
			}
		})
	}
}

func TestAnalyzerNames(t *testing.T) {
	for _, name := range append(Names()[:3], "") {
		if _, err := New(name); err != nil {
			t.Fatalf("New(%q): %v", name, err)
		}
	}
	if _, err := New("english"); !errors.Is(err, snii.ErrNotFound) {
		t.Errorf("unknown analyzer: err = %v, want ErrNotFound", err)
	}
	a1, _ := New("standard")
	a2, _ := New("standard")
	if a1 == a2 {
		t.Error("NewAnalyzer returned the same value twice")
	}
}

// The analyzer must agree with a straightforward rune-based reference.
func TestStandardMatchesReference(t *testing.T) {
	texts := []string{
		"The quick brown fox", "ERROR 2024-01-02T03:04:05Z pid=123 msg=\"disk full\"",
		"naïve café ΣΊΣΥΦΟΣ Ⅻ ⅻ ǈ", "\xf0\x9f\x98\x80emoji\xf0\x9f\x98\x80", "\xe2\x82", "a\u0301b",
	}
	for _, text := range texts {
		got, n := analyze(t, "standard", text)
		var want []tok
		var pos uint32
		for _, f := range strings.FieldsFunc(strings.ToValidUTF8(text, " "), func(r rune) bool {
			return !isTokenRune(r)
		}) {
			lower := strings.Map(toLower, f)
			if len(lower) <= DefaultMaxTokenBytes {
				want = append(want, tok{lower, pos})
			}
			pos++
		}
		if diff := cmp.Diff(want, got); diff != "" || n != pos {
			t.Errorf("%q: n=%d want %d, diff:\n%s", text, n, pos, diff)
		}
	}
}

func TestAnalyzeNoAllocs(t *testing.T) {
	text := strings.Repeat("Hello wörld, ΣΟΦΙΑ 12345 "+strings.Repeat("z", 300)+" ", 20)
	for _, name := range Names() {
		a, _ := New(name)
		var count int
		emit := func(term []byte, pos uint32) { count += len(term) }
		a.Analyze(text, emit)
		if allocs := testing.AllocsPerRun(100, func() { a.Analyze(text, emit) }); allocs != 0 {
			t.Errorf("%s: %.1f allocs per Analyze, want 0", name, allocs)
		}
	}
}

func BenchmarkAnalyze(b *testing.B) {
	var lines []string
	size := 0
	for i := 0; size < 64<<10; i++ {
		l := fmt.Sprintf("2024-05-%02d 12:%02d:07.123 INFO  [worker-%d] request id=%08x path=/api/v1/items/%d took %dms user=Ünïcødé", i%28+1, i%60, i%8, i*2654435761, i, i%1000)
		lines = append(lines, l)
		size += len(l)
	}
	for _, name := range Names() {
		b.Run(name, func(b *testing.B) {
			a, _ := New(name)
			var sink int
			emit := func(term []byte, pos uint32) { sink += len(term) }
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				for _, l := range lines {
					a.Analyze(l, emit)
				}
			}
			_ = sink
		})
	}
}

func isTokenRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

func toLower(r rune) rune { return unicode.ToLower(r) }
