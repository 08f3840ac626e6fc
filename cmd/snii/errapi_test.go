package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNotASegmentAndMissingDir: a short text file is "not a snii segment",
// and a build into a missing directory names that directory, once, without a
// warning about temp files or a temp directory the user never set.
func TestNotASegmentAndMissingDir(t *testing.T) {
	dir := t.TempDir()
	txt := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(txt, []byte(strings.Repeat("x", 46)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fails(t, 1, "", []string{"query", txt, "x"}, "not a snii segment")
	in := filepath.Join(dir, "in.txt")
	if err := os.WriteFile(in, []byte("hello world\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing")
	r := fails(t, 2, "", []string{"build", "-o", filepath.Join(missing, "x.snii"), in}, "the output directory "+missing+" does not exist")
	if strings.Contains(r.stderr, "warning") || strings.Contains(r.stderr, "temp") {
		t.Errorf("stderr:\n%s", r.stderr)
	}
}
