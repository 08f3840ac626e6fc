package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestQueryLocalMany: a quoted glob or a directory of local segments is
// searched as one index: the ids of the segment merged from them (global
// ids), and with --top the same hits, scores and explanations, one segment
// lacking the queried field among them. The segments are taken in name order.
func TestQueryLocalMany(t *testing.T) {
	dir := t.TempDir()
	ok(t, "build", "-q", "-o", filepath.Join(dir, "a.snii"), demoFile("app.log"))
	ok(t, "build", "-q", "-o", filepath.Join(dir, "b.snii"), "--field", "msg", "--field", "user.name", demoFile("events.jsonl"))
	ok(t, "build", "-q", "-o", filepath.Join(dir, "c.snii"), demoFile("app.log"))
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not a segment"), 0o644); err != nil {
		t.Fatal(err)
	}
	merged := filepath.Join(t.TempDir(), "all.snii")
	ok(t, "merge", "-q", "-o", merged, filepath.Join(dir, "a.snii"), filepath.Join(dir, "b.snii"), filepath.Join(dir, "c.snii"))
	matched := 0
	for _, q := range []string{`"connection refused" OR timeout*`, "payment failed", `"status 500"~2 OR error`, "msg:(query took)", "user.name:dave OR erin"} {
		var want queryReport
		unmarshal(t, ok(t, "query", merged, q, "--json", "--ids", "--limit", "0").stdout, &want)
		var wantTop queryReport
		unmarshal(t, ok(t, "query", merged, q, "--json", "--top", "7", "--explain").stdout, &wantTop)
		if want.Count > 0 {
			matched++
		}
		for _, p := range []string{filepath.Join(dir, "*.snii"), dir, dir + string(filepath.Separator)} {
			var got manyReport
			unmarshal(t, ok(t, "query", p, q, "--json", "--ids", "--limit", "0").stdout, &got)
			if len(got.Segments) != 3 || got.Segments[1].Path != filepath.Join(dir, "b.snii") || got.Segments[2].Base != 3500 {
				t.Fatalf("%s: segments %+v", p, got.Segments)
			}
			w64 := make([]uint64, len(want.Docs))
			for i, d := range want.Docs {
				w64[i] = uint64(d)
			}
			if got.Count != want.Count || !slices.Equal(got.Docs, w64) {
				t.Fatalf("%s %s: %d docs, merged %d", p, q, got.Count, want.Count)
			}
			var top manyReport
			unmarshal(t, ok(t, "query", p, q, "--json", "--top", "7", "--explain").stdout, &top)
			if top.Hits == nil || wantTop.Hits == nil {
				t.Fatalf("%s: no hits", q)
			}
			if d := cmp.Diff(*wantTop.Hits, *top.Hits, cmpopts.IgnoreUnexported(hitReport{})); d != "" {
				t.Fatalf("%s %s: --top differs (-merged +segments):\n%s", p, q, d)
			}
			if want.Count > 0 && len(*top.Hits) == 0 {
				t.Fatalf("%s: matches but no hit", q)
			}
		}
	}
	if matched < 4 {
		t.Fatalf("%d queries matched: too few to compare", matched)
	}
	// The table names the segments and prints the hits.
	r := ok(t, "query", dir, "failed", "--top", "2")
	for _, s := range []string{"segments  3", "#1", "#2"} {
		if !strings.Contains(r.stdout, s) {
			t.Errorf("table lacks %q:\n%s", s, r.stdout)
		}
	}
}

// TestQueryLocalManyErrors: a glob matching nothing and a directory without
// segments fail (1), a bad pattern is a usage error (2).
func TestQueryLocalManyErrors(t *testing.T) {
	dir := t.TempDir()
	fails(t, exitFailure, "", []string{"query", filepath.Join(dir, "*.snii"), "a"}, "no file matches")
	fails(t, exitFailure, "", []string{"query", dir, "a"}, "is a directory without .snii files")
	fails(t, exitUsage, "", []string{"query", filepath.Join(dir, "[.snii"), "a"}, "bad glob pattern")
	ok(t, "build", "-q", "-o", filepath.Join(dir, "a.snii"), demoFile("app.log"))
	fails(t, exitUsage, "", []string{"query", filepath.Join(dir, "*.snii"), "nope:a"}, `"nope"`)
}

func unmarshal(t *testing.T, s string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(s), v); err != nil {
		t.Fatalf("%v\n%s", err, s)
	}
}

// TestS3CLITopMany: --top over an s3:// prefix ranks its segments as one:
// the hits of the segment merged from them.
func TestS3CLITopMany(t *testing.T) {
	ep := s3env(t)
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.snii"), filepath.Join(dir, "b.snii")
	ok(t, "build", "-q", "-o", a, demoFile("app.log"))
	ok(t, "build", "-q", "-o", b, "--field", "msg", demoFile("events.jsonl"))
	ok(t, "build", "-q", "-o", "s3://cli/top/a.snii", "--endpoint", ep, demoFile("app.log"))
	ok(t, "build", "-q", "-o", "s3://cli/top/b.snii", "--endpoint", ep, "--field", "msg", demoFile("events.jsonl"))
	merged := filepath.Join(dir, "all.snii")
	ok(t, "merge", "-q", "-o", merged, a, b)
	q := `failed OR msg:(query took) OR "connection refused"`
	var want queryReport
	unmarshal(t, ok(t, "query", merged, q, "--json", "--top", "10", "--explain").stdout, &want)
	var got manyReport
	unmarshal(t, ok(t, "query", "--endpoint", ep, "s3://cli/top/", q, "--json", "--top", "10", "--explain").stdout, &got)
	if want.Hits == nil || got.Hits == nil || len(*want.Hits) != 10 {
		t.Fatalf("hits: %v, %v", want.Hits, got.Hits)
	}
	if d := cmp.Diff(*want.Hits, *got.Hits, cmpopts.IgnoreUnexported(hitReport{})); d != "" {
		t.Fatalf("--top over s3:// differs (-merged +segments):\n%s", d)
	}
}
