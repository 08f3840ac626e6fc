package analysis

import (
	"strings"
	"testing"

	"github.com/snii-go/snii/internal/testkit/oracle"
)

// oracleSeeds are texts that exercise the analyzers' edges: ASCII fast paths,
// case mappings that change the byte length, invalid UTF-8, Unicode spaces,
// digits that are not IsDigit, and tokens around the 255-byte limit.
var oracleSeeds = []string{
	"", " ", "The quick brown fox", "ERROR 2024-01-02T03:04:05Z pid=123 msg=\"disk full\"",
	"naïve café ΣΊΣΥΦΟΣ Ⅻ ⅻ ǈ İstanbul ẞ K Å", "\xf0\x9f\x98\x80emoji\xf0\x9f\x98\x80", "\xe2\x82", "a\u0301b",
	"x²½y", "a\u00a0b\u2003c\u0085d\u3000e", "tab\tnew\nline\r\vff\f", "\xff\xfeA\xc0",
	strings.Repeat("a", 255) + " " + strings.Repeat("B", 256) + " z",
	strings.Repeat("é", 127) + "x " + strings.Repeat("é", 128),
	strings.Repeat("İ", 100), // lowercases to 3 bytes a rune: over the limit after lowercasing
}

// checkOracle compares analyzer name with oracle.TokenizeWith on text:
// the same terms at the same positions, the same positions used, and the
// skipped count equal to the positions without a term.
func checkOracle(t *testing.T, a Analyzer, name, text string) {
	t.Helper()
	var got []oracle.Token
	used, skipped := a.Analyze(text, func(term []byte, pos uint32) {
		got = append(got, oracle.Token{Term: string(term), Pos: pos})
	})
	want, wantUsed := oracle.TokenizeWith(name, text)
	if used != wantUsed || len(got) != len(want) {
		t.Fatalf("%s %q: %d tokens in %d positions, oracle %d in %d\n got %v\nwant %v", name, text, len(got), used, len(want), wantUsed, got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("%s %q: token %d = %q@%d, oracle %q@%d", name, text, i, got[i].Term, got[i].Pos, want[i].Term, want[i].Pos)
		}
	}
	if int(skipped) != int(used)-len(got) {
		t.Fatalf("%s %q: %d skipped, but %d positions hold no term", name, text, skipped, int(used)-len(got))
	}
}

// FuzzStandardAnalyzer: the standard analyzer agrees with the oracle's
// tokenizer, written independently from the analyzer's definition.
func FuzzStandardAnalyzer(f *testing.F) {
	for _, s := range oracleSeeds {
		f.Add(s)
	}
	a, err := New(Standard)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string) { checkOracle(t, a, Standard, text) })
}

// FuzzWhitespaceKeywordAnalyzers: the whitespace and keyword analyzers agree
// with the oracle.
func FuzzWhitespaceKeywordAnalyzers(f *testing.F) {
	for _, s := range oracleSeeds {
		f.Add(s)
	}
	ws, err := New(Whitespace)
	if err != nil {
		f.Fatal(err)
	}
	kw, err := New(Keyword)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string) {
		checkOracle(t, ws, Whitespace, text)
		checkOracle(t, kw, Keyword, text)
	})
}
