package peers

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2/analysis"
	sniianalysis "github.com/snii-go/snii/analysis"
)

// tricky holds the analyzer's edge cases: non-ASCII case mapping (İ, final
// Σ), digits outside \p{Nd}, invalid UTF-8, an over-long token, repeats.
var tricky = []string{
	"Hello, World! hello world",
	"İstanbul İSTANBUL straße ΣΟΦΊΑΣ Σ",
	"x² ½ ٣٤ 42nd",
	"ab\xffcd \xc3( ok\xe2\x82 end",
	"a " + strings.Repeat("Z", 300) + " b",
	"a " + strings.Repeat("İ", 128) + " b", // 256 bytes upper, 128 lowercase: kept
	strings.Repeat("y", 255) + " " + strings.Repeat("y", 256),
	"foo_bar-baz9 foo foo bar",
	"\uFFFDx ﬁle Ǆ ǅ",
	"",
}

func TestTokenizeMatchesSniiAnalyzer(t *testing.T) {
	a, err := sniianalysis.New(sniianalysis.Standard)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range tricky {
		var got []string
		var last uint32
		used, _ := a.Analyze(s, func(term []byte, pos uint32) {
			for last < pos {
				got = append(got, "") // a skipped position
				last++
			}
			got = append(got, string(term))
			last = pos + 1
		})
		for last < used {
			got = append(got, "")
			last++
		}
		if want := Tokenize(s); !slices.Equal(got, want) {
			t.Errorf("%q: snii %q, bench %q", s, got, want)
		}
	}
}

func TestBleveAnalyzerMatchesTokenize(t *testing.T) {
	im, err := BleveMapping()
	if err != nil {
		t.Fatal(err)
	}
	an := im.AnalyzerNamed(bleveAnalyzer)
	if an == nil {
		t.Fatal("analyzer not found")
	}
	for _, s := range tricky {
		ts := an.Analyze([]byte(s))
		var got []string
		next := 1
		for _, tok := range ts {
			for next < tok.Position {
				got = append(got, "")
				next++
			}
			got = append(got, string(tok.Term))
			next = tok.Position + 1
		}
		want := Tokenize(s)
		// Trailing skipped positions are invisible in a token stream.
		for len(want) > len(got) && want[len(want)-1] == "" {
			want = want[:len(want)-1]
		}
		if !slices.Equal(got, want) {
			t.Errorf("%q: bleve %q, want %q", s, got, want)
		}
	}
	var _ analysis.TokenStream
}

func TestOracle(t *testing.T) {
	docs := []string{"a b c", "a a b", "c b a", "alpha alps b", "a " + strings.Repeat("z", 300) + " b"}
	o := NewOracle(docs)
	cases := []struct {
		kind  Kind
		text  string
		want  []uint32
		class string
	}{
		{KindTerm, "a", []uint32{0, 1, 2, 4}, ""},
		{KindPhrase, "a b", []uint32{0, 1}, ""},
		{KindPhrase, "a a b", []uint32{1}, ""},
		{KindPhrase, "b a", []uint32{2}, ""},
		{KindPrefix, "al", []uint32{3}, ""},
		{KindPhrasePrefix, "alpha al", []uint32{3}, ""},
		{KindPhrasePrefix, "a b", []uint32{0, 1}, ""},
		{KindPhrase, "nope b", []uint32{}, ""},
	}
	for _, c := range cases {
		q := &Query{Kind: c.kind, Terms: Tokenize(c.text)}
		if got := o.Docs(q); !slices.Equal(got, c.want) {
			t.Errorf("%s = %v, want %v", q, got, c.want)
		}
		if got := newHitIndex(o).count(q); got != len(c.want) {
			t.Errorf("hitIndex %s = %d, want %d", q, got, len(c.want))
		}
	}
}

func TestParseQueries(t *testing.T) {
	in := "# comment\n\nphrase\tmid\tConnection Reset\nprefix\tfew\tconn\nphraseprefix\thits\tconnection re\n"
	qs, err := ParseQueries(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) != 3 || qs[0].Kind != KindPhrase || !slices.Equal(qs[0].Terms, []string{"connection", "reset"}) || qs[2].Last() != "re" {
		t.Fatalf("parsed %+v", qs)
	}
	for _, bad := range []string{"phrase\tx\tone\n", "term\tx\ttwo words\n", "nope\tx\ty\n", "phrase only\n"} {
		if _, err := ParseQueries(strings.NewReader(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestStats(t *testing.T) {
	xs := []float64{5, 1, 4, 2, 3}
	if median(xs) != 3 || nearestRank(xs, 95) != 5 || nearestRank(xs, 50) != 3 || nearestRank(xs, 20) != 1 {
		t.Fatal("median/nearestRank")
	}
	if g := geomean([]float64{1, 4}); g < 1.999 || g > 2.001 {
		t.Fatalf("geomean %v", g)
	}
}

// smokeDocs generates a few hundred log-like documents with the tricky cases.
func smokeDocs(n int) []string {
	rng := rand.New(rand.NewPCG(1, 2))
	words := []string{"connection", "reset", "by", "peer", "error", "failed", "password", "for", "root", "from",
		"session", "opened", "closed", "user", "İstanbul", "ΣΟΦΊΑΣ", "x²", "timeout", "retry", "block"}
	docs := make([]string, n)
	for i := range docs {
		var b strings.Builder
		fmt.Fprintf(&b, "%d ", i)
		for k := 0; k < 3+rng.IntN(15); k++ {
			switch r := rng.IntN(40); {
			case r == 0:
				b.WriteString(strings.Repeat("q", 256) + " ")
			case r == 1:
				b.WriteString("\xff ")
			case r < 8:
				b.WriteString("connection reset by peer ")
			default:
				b.WriteString(words[rng.IntN(len(words))] + " ")
			}
		}
		docs[i] = b.String()
	}
	docs = append(docs, tricky...)
	return docs
}

func smokeQueries(t *testing.T) []*Query {
	qs, err := ParseQueries(strings.NewReader(strings.Join([]string{
		"phrase\tcommon\tconnection reset by peer",
		"phrase\tmid\tfailed password for root",
		"phrase\tzero\tpeer by reset",
		"phrase\trare\tİstanbul istanbul",
		"phrase\trare\tfoo foo bar",
		"phrase\tskip\ta b",
		"term\tcommon\terror",
		"term\trare\tσοφίας",
		"term\tzero\tnothing",
		"prefix\tmany\tre",
		"prefix\tfew\tstr",
		"phraseprefix\thits\tconnection re",
		"phraseprefix\thits\tpassword fo",
		"phraseprefix\tzero\tpeer zz",
	}, "\n")))
	if err != nil {
		t.Fatal(err)
	}
	return qs
}

// TestSmokeBleve runs the whole harness on a few hundred documents with
// bleve only (no snii, no Lucene, no child processes), so the harness keeps
// compiling and its oracle check and report keep working.
func TestSmokeBleve(t *testing.T) {
	dir := t.TempDir()
	var log bytes.Buffer
	rep, err := Run(Config{
		Corpus: "smoke", Docs: smokeDocs(300), Queries: smokeQueries(t), WorkDir: filepath.Join(dir, "work"),
		Engines: []string{EngineBleve}, Cycles: 2, MinSample: 200 * time.Microsecond, BuildRuns: 1,
		Goroutines: []int{}, ConcOps: -1, Log: &log,
	})
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	if rep.Corpus.Docs != 310 || len(rep.Queries) != 14 {
		t.Fatalf("report: %d docs, %d queries", rep.Corpus.Docs, len(rep.Queries))
	}
	for _, q := range rep.Queries {
		if len(q.Samples[EngineBleve]) != 2 || q.Median[EngineBleve] <= 0 {
			t.Errorf("query %d: samples %v", q.ID, q.Samples[EngineBleve])
		}
		if runtime.GOOS == "linux" && q.CPUMedian[EngineBleve] <= 0 {
			t.Errorf("query %d: thread CPU samples %v", q.ID, q.CPUSamples[EngineBleve])
		}
	}
	if rep.Queries[0].Hits == 0 || rep.Queries[8].Hits != 0 {
		t.Errorf("hits: %d %d", rep.Queries[0].Hits, rep.Queries[8].Hits)
	}
	if err := rep.WriteFiles(filepath.Join(dir, "out")); err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(dir, "out", "REPORT-smoke.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"# Peer benchmark: smoke corpus", "| bleve |", "connection reset by peer"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report lacks %q", want)
		}
	}
}

// TestMismatchDetected feeds the harness a wrong oracle answer by building
// bleve over documents that differ from the ones the oracle sees; it must
// stop with a MismatchError before timing.
func TestMismatchDetected(t *testing.T) {
	docs := smokeDocs(50)
	qs := smokeQueries(t)
	dir := t.TempDir()
	docsPath := filepath.Join(dir, "docs.bin")
	if err := WriteDocsFile(docsPath, append(slices.Clone(docs[:10]), "connection reset by peer")); err != nil {
		t.Fatal(err)
	}
	if _, err := BuildBleve(docsPath, filepath.Join(dir, "bleve")); err != nil {
		t.Fatal(err)
	}
	e, err := OpenBleve(filepath.Join(dir, "bleve"), qs)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	got, err := e.Docs(0)
	if err != nil {
		t.Fatal(err)
	}
	want := NewOracle(docs[:11]).Docs(qs[0])
	if slices.Equal(got, want) && !slices.Contains(got, 10) {
		t.Fatalf("documents differ but answers agree: %v", got)
	}
	if d := diffIDs([]uint32{1, 2, 3}, []uint32{2, 3, 4}); !strings.Contains(d, "missing 1 [1]") || !strings.Contains(d, "extra 1 [4]") {
		t.Errorf("diffIDs: %s", d)
	}
}

// TestSmokeSnii runs snii (both policies) and bleve on the smoke documents,
// with the concurrency phase in process: every answer must match the oracle.
func TestSmokeSnii(t *testing.T) {
	dir := t.TempDir()
	var log bytes.Buffer
	rep, err := Run(Config{
		Corpus: "smoke", Docs: smokeDocs(400), Queries: smokeQueries(t), WorkDir: filepath.Join(dir, "work"),
		Engines: []string{EngineSnii, EngineSniiP0, EngineBleve}, Cycles: 2, MinSample: 200 * time.Microsecond,
		BuildRuns: 1, Goroutines: []int{1, 3}, ConcOps: 200, Log: &log,
	})
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	if len(rep.Conc) != 2 || rep.Conc[1].Checked != 200 || rep.Conc[1].QPS <= 0 {
		t.Fatalf("concurrency: %+v", rep.Conc)
	}
	for _, q := range rep.Queries {
		if q.RatioMedian[EngineBleve] <= 0 {
			t.Errorf("query %d: no ratio", q.ID)
		}
	}
	if len(rep.Targets()) == 0 {
		t.Error("no targets evaluated")
	}
}
