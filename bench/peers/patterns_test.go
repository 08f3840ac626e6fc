package peers

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestPatternsLucene runs the pattern comparison on the smoke documents with
// both committed query files: snii's and Lucene's doc ids must equal the
// oracle's for every pattern, and every pattern is timed. Skipped without
// Java and the Lucene jars (bench/setup-lucene.sh).
func TestPatternsLucene(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join("..", "lucene", "LuceneBench.java")
	if _, err := SetupLucene(src, "/usr/share/java", dir); err != nil {
		t.Skipf("no Lucene: %v", err)
	}
	var qs []*Query
	for _, name := range []string{"patterns-agent.txt", "patterns-service.txt"} {
		q, err := LoadQueries(filepath.Join("..", "queries", name))
		if err != nil {
			t.Fatal(err)
		}
		qs = append(qs, q...)
	}
	var log bytes.Buffer
	rep, err := RunPatterns(PatternConfig{
		Corpus: "smoke", Docs: smokeDocs(400), Queries: qs,
		CompareOptions: CompareOptions{
			WorkDir: filepath.Join(dir, "work"), LuceneSrc: src, LuceneWarmup: 100 * time.Millisecond,
			Cycles: 1, MinSample: 100 * time.Microsecond, MaxReps: 5, Log: &log,
		},
	})
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	if len(rep.Mismatches) > 0 {
		t.Fatalf("%d mismatches, first %s %s: %s", len(rep.Mismatches), rep.Mismatches[0].Engine, rep.Mismatches[0].Query, rep.Mismatches[0].Details)
	}
	hits := 0
	for _, r := range rep.Rows {
		hits += r.Hits
		if r.SniiNs <= 0 || r.LuceneNs <= 0 {
			t.Errorf("%s: not timed", r.Query)
		}
	}
	if hits == 0 {
		t.Error("no pattern matched a smoke document")
	}
	if md := rep.Markdown("test"); !strings.Contains(md, "0 differences from the oracle") || !strings.Contains(md, `get\|post\|put`) {
		t.Errorf("report:\n%s", md)
	}
}

// TestCheckPattern: a pattern RE2 and Lucene would read differently is
// refused with the reason; the committed query files pass.
func TestCheckPattern(t *testing.T) {
	for _, c := range []struct {
		kind Kind
		text string
		ok   bool
	}{
		{KindRegexp, "conn.*", true},
		{KindRegexp, "time[ds]?out", true},
		{KindRegexp, "[^0-9]+", true},
		{KindRegexp, `\d+`, false},
		{KindRegexp, "^conn", false},
		{KindRegexp, "a@b", false},
		{KindRegexp, "a<1-5>", false},
		{KindRegexp, "(?i)conn", false},
		{KindRegexp, "Conn", false},
		{KindRegexp, "conn(", false},
		{KindWildcard, "*exception", true},
		{KindWildcard, `a\`, false},
		{KindWildcard, "a b", false},
		{KindTerm, "conn", false},
	} {
		if err := CheckPattern(c.kind, c.text); (err == nil) != c.ok {
			t.Errorf("%s %q: %v, want ok %v", c.kind, c.text, err, c.ok)
		}
	}
	for _, name := range []string{"patterns-agent.txt", "patterns-service.txt"} {
		b, err := os.ReadFile(filepath.Join("..", "queries", name))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ParseQueries(bytes.NewReader(b)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
