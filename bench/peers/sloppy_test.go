package peers

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSloppyLucene runs the sloppy comparison on the smoke documents: snii's
// doc ids must equal Lucene's for every seed variant at slop 0–3, and a
// larger slop must find more on the reversed phrases. Skipped without Java
// and the Lucene jars (bench/setup-lucene.sh).
func TestSloppyLucene(t *testing.T) {
	dir := t.TempDir()
	if _, err := SetupLucene(filepath.Join("..", "lucene", "LuceneBench.java"), "/usr/share/java", dir); err != nil {
		t.Skipf("no Lucene: %v", err)
	}
	var log bytes.Buffer
	rep, err := RunSloppy(SloppyConfig{
		Corpus: "smoke", Docs: smokeDocs(400), Seeds: smokeQueries(t),
		CompareOptions: CompareOptions{
			WorkDir: filepath.Join(dir, "work"), LuceneSrc: filepath.Join("..", "lucene", "LuceneBench.java"),
			LuceneWarmup: 100 * time.Millisecond, Cycles: 1, MinSample: 100 * time.Microsecond, MaxReps: 5, Log: &log,
		},
	})
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	if len(rep.Mismatches) > 0 {
		t.Fatalf("%d mismatches, first %s: %s", len(rep.Mismatches), rep.Mismatches[0].Query, rep.Mismatches[0].Details)
	}
	// 6 phrase seeds: 2 of 2 terms (2 variants), 4 of 3+ terms (4 variants); 4 slops.
	if len(rep.Rows) != (2*2+4*4)*4 {
		t.Fatalf("%d rows", len(rep.Rows))
	}
	hits := map[string]int{}
	for _, r := range rep.Rows {
		if r.Variant == "reversed" && strings.Join(r.Query.Terms, " ") == "peer by reset connection" {
			hits[string(rune('0'+r.Query.Slop))] = r.Hits
		}
		if r.SniiNs <= 0 || r.LuceneNs <= 0 {
			t.Errorf("%s: not timed", r.Query)
		}
	}
	if hits["0"] != 0 || hits["3"] <= hits["0"] {
		t.Errorf("reversed phrase hits by slop: %v", hits)
	}
	if md := rep.Markdown("test"); !strings.Contains(md, "Hit sets: 0 of 80 queries differ") {
		t.Errorf("report:\n%s", md)
	}
}
