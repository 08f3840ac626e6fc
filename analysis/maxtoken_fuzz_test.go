package analysis

import (
	"strconv"
	"strings"
	"testing"

	"github.com/snii-go/snii/internal/testkit/oracle"
)

// checkStandardLimit compares the standard analyzer with max_token_bytes m
// (1..oracle.MaxTokenBytes) against the oracle's tokens filtered to those of
// at most m bytes: a token over the limit keeps its position and is skipped,
// so the positions used and the positions of the kept tokens do not depend
// on m. It also checks the offsets: the text at each token's offsets
// analyzes to that one token.
func checkStandardLimit(t *testing.T, m int, text string) {
	t.Helper()
	a, err := New(Standard + ";max_token_bytes=" + strconv.Itoa(m))
	if err != nil {
		t.Fatal(err)
	}
	type tok struct {
		term       string
		pos        uint32
		start, end int
	}
	var got []tok
	used, skipped := a.(OffsetAnalyzer).AnalyzeOffsets(text, func(term []byte, pos uint32, start, end int) {
		got = append(got, tok{string(term), pos, start, end})
	})
	all, wantUsed := oracle.Tokenize(text)
	var want []oracle.Token
	for _, tk := range all {
		if len(tk.Term) <= m {
			want = append(want, tk)
		}
	}
	if used != wantUsed || len(got) != len(want) || int(skipped) != int(used)-len(got) {
		t.Fatalf("max %d %q: %d tokens in %d positions (%d skipped), oracle %d in %d\n got %v\nwant %v",
			m, text, len(got), used, skipped, len(want), wantUsed, got, want)
	}
	for i, g := range got {
		if g.term != want[i].Term || g.pos != want[i].Pos {
			t.Fatalf("max %d %q: token %d = %q@%d, oracle %q@%d", m, text, i, g.term, g.pos, want[i].Term, want[i].Pos)
		}
		if g.start < 0 || g.start > g.end || g.end > len(text) {
			t.Fatalf("max %d %q: token %d offsets [%d,%d)", m, text, i, g.start, g.end)
		}
		if in, _ := oracle.Tokenize(text[g.start:g.end]); len(in) != 1 || in[0].Term != g.term {
			t.Fatalf("max %d %q: token %d %q at [%d,%d) = %q, which tokenizes to %v", m, text, i, g.term, g.start, g.end, text[g.start:g.end], in)
		}
	}
}

// TestStandardTokenLimits: the standard analyzer at small and default
// limits, on ASCII runs that end at the limit, one past it, at the end of the
// text, before and after multi-byte runes and invalid UTF-8.
func TestStandardTokenLimits(t *testing.T) {
	var texts []string
	for _, n := range []int{1, 2, 3, 7, 8, 9, 15, 16, 17, 254, 255, 256} {
		run := strings.Repeat("aB9", n)[:n]
		texts = append(texts,
			run, run+" x", "x "+run, run+"é", "é"+run, run+"\xff"+run, "Ω"+run+"Ω"+run,
			run+"_"+run, strings.ToUpper(run)+"\u00e9"+run+"\u0130", run+"\xe2\x82",
		)
	}
	for _, m := range []int{1, 2, 3, 4, 7, 8, 9, 16, 17, 64, 254, 255} {
		for _, s := range texts {
			checkStandardLimit(t, m, s)
		}
	}
}

// FuzzStandardTokenLimit: checkStandardLimit at every limit up to the
// default.
func FuzzStandardTokenLimit(f *testing.F) {
	for i, s := range oracleSeeds {
		f.Add(uint8(i*17+1), s)
	}
	f.Add(uint8(3), "abc abcd ABC\xffabc éab abé")
	f.Fuzz(func(t *testing.T, m uint8, text string) {
		checkStandardLimit(t, max(int(m), 1), text)
	})
}
