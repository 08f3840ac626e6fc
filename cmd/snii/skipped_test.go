package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSkippedTokens: tokens over --max-token-bytes are counted in the build
// summary, recorded in the field metadata (inspect, text and JSON), summed by
// a merge, and a bad limit is a usage error.
func TestSkippedTokens(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "hex.log")
	long := strings.Repeat("ab", 150) // 300 bytes: over the default 255
	lines := "start " + long + " end\nshort line\n" + long + " " + long + "\n"
	if err := os.WriteFile(in, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	seg := filepath.Join(dir, "a.snii")
	r := ok(t, "build", "-o", seg, in)
	if !strings.Contains(r.stdout, "skipped 3 tokens longer than the analyzers' max_token_bytes") {
		t.Errorf("build summary:\n%s", r.stdout)
	}
	if !strings.Contains(r.stdout, "dictionary + doc postings + prx frames + pairs = total") {
		t.Errorf("build summary lacks the column note:\n%s", r.stdout)
	}
	r = ok(t, "inspect", seg)
	if !strings.Contains(r.stdout, "skipped tokens  3 longer") {
		t.Errorf("inspect:\n%s", r.stdout)
	}
	var rep struct {
		Indexes []fieldReport `json:"indexes"`
	}
	r = ok(t, "inspect", "--json", seg)
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Indexes) != 1 || rep.Indexes[0].SkippedTokens != 3 {
		t.Fatalf("inspect --json: %+v", rep.Indexes)
	}
	x := rep.Indexes[0].Bytes
	if x.Dictionary+x.PostingRegion != x.Total {
		t.Errorf("bytes: dictionary %d + posting region %d != total %d", x.Dictionary, x.PostingRegion, x.Total)
	}

	// A higher limit indexes them (5 terms: start, end, short, line and the
	// long one); the analyzer string records the limit.
	wide := filepath.Join(dir, "b.snii")
	r = ok(t, "build", "--json", "-o", wide, "--max-token-bytes", "300", in)
	var br buildReport
	if err := json.Unmarshal([]byte(r.stdout), &br); err != nil {
		t.Fatal(err)
	}
	if br.SkippedTokens != 0 || br.Indexes[0].Analyzer != "standard;max_token_bytes=300" || br.Indexes[0].Terms != 5 {
		t.Errorf("--max-token-bytes 300: skipped %d, analyzer %q, %d terms", br.SkippedTokens, br.Indexes[0].Analyzer, br.Indexes[0].Terms)
	}

	// A merge sums the sources' counts.
	other := filepath.Join(dir, "c.snii")
	ok(t, "build", "-o", other, in)
	merged := filepath.Join(dir, "m.snii")
	ok(t, "merge", "-o", merged, seg, other)
	r = ok(t, "inspect", "--json", merged)
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Indexes[0].SkippedTokens != 6 {
		t.Errorf("merged: %d skipped tokens, want 6", rep.Indexes[0].SkippedTokens)
	}

	fails(t, exitUsage, "", []string{"build", "-o", filepath.Join(dir, "x.snii"), "--max-token-bytes", "0", in}, "--max-token-bytes 0")
}
