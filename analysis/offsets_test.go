package analysis

import (
	"fmt"
	"strings"
	"testing"
)

// offTok is a token with its byte range.
type offTok struct {
	Term       string
	Pos        uint32
	Start, End int
}

// offsetSpecs are the built-in analyzers, with default and small token limits.
var offsetSpecs = []string{Standard, Whitespace, Keyword, "standard;max_token_bytes=3", "whitespace;max_token_bytes=4", "keyword;max_token_bytes=5"}

func analyzeOffsets(a Analyzer, text string) ([]offTok, uint32, uint32) {
	var got []offTok
	n, sk := AnalyzeOffsets(a, text, func(term []byte, pos uint32, s, e int) {
		got = append(got, offTok{string(term), pos, s, e})
	})
	return got, n, sk
}

// checkOffsets asserts the properties of AnalyzeOffsets for a built-in
// analyzer on text: the same tokens, positions and counts as Analyze; ranges
// inside text, ascending and disjoint; each range re-analyzed alone gives its
// term; the bytes between two ranges give no kept token.
func checkOffsets(t *testing.T, spec, text string) {
	t.Helper()
	a, err := New(spec)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := a.(OffsetAnalyzer); !ok {
		t.Fatalf("%s does not implement OffsetAnalyzer", spec)
	}
	var plain []tok
	n1, sk1 := a.Analyze(text, func(term []byte, pos uint32) { plain = append(plain, tok{string(term), pos}) })
	got, n2, sk2 := analyzeOffsets(a, text)
	if n1 != n2 || sk1 != sk2 || len(plain) != len(got) {
		t.Fatalf("%s %q: Analyze %d tokens (%d positions, %d skipped), AnalyzeOffsets %d (%d, %d)", spec, text, len(plain), n1, sk1, len(got), n2, sk2)
	}
	prevEnd := 0
	for i, g := range got {
		if g.Term != plain[i].Term || g.Pos != plain[i].Pos {
			t.Fatalf("%s %q: token %d = %q@%d, Analyze %q@%d", spec, text, i, g.Term, g.Pos, plain[i].Term, plain[i].Pos)
		}
		if g.Start < prevEnd || g.End <= g.Start || g.End > len(text) {
			t.Fatalf("%s %q: token %d range [%d,%d) after %d", spec, text, i, g.Start, g.End, prevEnd)
		}
		alone, _, _ := analyzeOffsets(a, text[g.Start:g.End])
		if len(alone) != 1 || alone[0].Term != g.Term || alone[0].Start != 0 || alone[0].End != g.End-g.Start {
			t.Fatalf("%s %q: token %d %q at [%d,%d) re-analyzed gives %v", spec, text, i, g.Term, g.Start, g.End, alone)
		}
		if gap, _, _ := analyzeOffsets(a, text[prevEnd:g.Start]); len(gap) != 0 && spec != Keyword && !strings.HasPrefix(spec, "keyword") {
			t.Fatalf("%s %q: bytes [%d,%d) before token %d hold tokens %v", spec, text, prevEnd, g.Start, i, gap)
		}
		prevEnd = g.End
	}
	if spec != Keyword && !strings.HasPrefix(spec, "keyword") {
		if tail, _, _ := analyzeOffsets(a, text[prevEnd:]); len(tail) != 0 {
			t.Fatalf("%s %q: bytes after the last token hold tokens %v", spec, text, tail)
		}
	}
}

func TestAnalyzeOffsets(t *testing.T) {
	texts := append([]string{"Hello, World!", "  GET /api/v1/users?id=42  ", "ab\xffcd\xc3", "İstanbul ΣΊΣΥΦΟΣ", "abcd ab abcde x"}, oracleSeeds...)
	for _, spec := range offsetSpecs {
		for _, text := range texts {
			checkOffsets(t, spec, text)
		}
	}
	got, _, _ := analyzeOffsets(mustNew(t, Standard), "Error: Connection REFUSED")
	want := []offTok{{"error", 0, 0, 5}, {"connection", 1, 7, 17}, {"refused", 2, 18, 25}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("standard: %v, want %v", got, want)
	}
}

func mustNew(t testing.TB, spec string) Analyzer {
	t.Helper()
	a, err := New(spec)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// plainOnly hides the OffsetAnalyzer method of an analyzer, as a registered
// analyzer without it looks to AnalyzeOffsets.
type plainOnly struct{ a Analyzer }

func (p plainOnly) Analyze(text string, emit func([]byte, uint32)) (uint32, uint32) {
	return p.a.Analyze(text, emit)
}

// TestAnalyzeOffsetsFallback: an analyzer without AnalyzeOffsets gets the
// ranges of its terms as found in the text (the built-in ranges when no token
// is skipped), and -1 for a term the text does not hold.
func TestAnalyzeOffsetsFallback(t *testing.T) {
	for _, spec := range []string{Standard, Whitespace} {
		a := mustNew(t, spec)
		for _, text := range []string{"Hello, World! hello", "ab AB aB", "naïve CAFÉ İstanbul", "x xx xxx xx x", "tab\tnew\nline"} {
			want, _, _ := analyzeOffsets(a, text)
			got, _, _ := analyzeOffsets(plainOnly{a}, text)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s %q: fallback %v, want %v", spec, text, got, want)
			}
		}
	}
	got, _, _ := analyzeOffsets(upper{}, "a b")
	if want := []offTok{{"A", 0, -1, -1}, {"B", 1, -1, -1}}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("upper: %v, want %v", got, want)
	}
}

// FuzzAnalyzeOffsets checks AnalyzeOffsets against Analyze for every built-in
// analyzer (see checkOffsets).
func FuzzAnalyzeOffsets(f *testing.F) {
	for _, s := range oracleSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, spec := range offsetSpecs {
			checkOffsets(t, spec, text)
		}
	})
}

// TestAnalyzeAllocs: Analyze, which runs AnalyzeOffsets, allocates nothing in
// steady state.
func TestAnalyzeAllocs(t *testing.T) {
	for _, spec := range []string{Standard, Whitespace, Keyword} {
		a := mustNew(t, spec)
		n := 0
		emit := func([]byte, uint32) { n++ }
		text := "The quick brown fox jumps over the lazy dog, naïve café"
		a.Analyze(text, emit)
		if allocs := testing.AllocsPerRun(100, func() { a.Analyze(text, emit) }); allocs != 0 {
			t.Errorf("%s: %.1f allocations per Analyze", spec, allocs)
		}
	}
}
