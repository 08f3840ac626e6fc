package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 16, item 1: --max-unit-bytes and --max-decode-memory reach the reader
// (query, verify, capture, merge) and are checked.
func TestDecodeMemoryFlags(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.log")
	// One line holds "aa bb" 40,000 times: each term's unit has about 40 KiB of
	// positions payload, compressed; the phrase inflates both.
	lines := strings.Repeat("aa bb ", 40000) + "\nfiller aa bb\nother line\n"
	if err := os.WriteFile(in, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	seg := filepath.Join(dir, "x.snii")
	ok(t, "build", "-q", "-o", seg, in)
	q := `"aa bb"`
	ok(t, "query", seg, q, "--count")
	ok(t, "verify", "-q", seg)
	// Either term's unit is over the ceiling: the error names the one read first.
	if r := fails(t, exitFailure, "", []string{"query", seg, q, "--max-unit-bytes", "16KiB"},
		"limit exceeded", "--max-unit-bytes"); !strings.Contains(r.stderr, `term "aa"`) && !strings.Contains(r.stderr, `term "bb"`) {
		t.Errorf("the error names no term of the phrase:\n%s", r.stderr)
	}
	fails(t, exitFailure, "", []string{"verify", seg, "--max-unit-bytes", "16KiB"}, "--max-unit-bytes")
	fails(t, exitFailure, "", []string{"query", seg, q, "--max-decode-memory", "48KiB", "--max-unit-bytes", "40KiB"},
		"limit exceeded", "whole bound", "--max-decode-memory")
	fails(t, exitFailure, "", []string{"capture", seg, "--all", "-q", "-o", filepath.Join(dir, "x.cap"), "--max-unit-bytes", "16KiB"},
		"--max-unit-bytes")
	r := ok(t, "query", seg, q, "--count", "--max-decode-memory", "1MiB", "--max-unit-bytes", "1MiB")
	if strings.TrimSpace(r.stdout) != "2" {
		t.Fatalf("count: %q", r.stdout)
	}
	fails(t, exitUsage, "", []string{"query", seg, q, "--max-unit-bytes", "1GiB"}, "at most 256")
	fails(t, exitUsage, "", []string{"verify", seg, "--max-unit-bytes", "1MiB", "--max-decode-memory", "64KiB"}, "smaller than")
	fails(t, exitUsage, "", []string{"query", seg, q, "--max-decode-memory", "lots"}, "max-decode-memory")

	// merge opens its sources with the same bounds.
	out := filepath.Join(dir, "m.snii")
	fails(t, exitFailure, "", []string{"merge", "-q", "-o", out, seg, seg + "2", "--max-unit-bytes", "16KiB"}, "no such file")
	ok(t, "build", "-q", "-o", seg+"2", in)
	fails(t, exitFailure, "", []string{"merge", "-q", "-o", out, seg, seg + "2", "--max-unit-bytes", "16KiB"},
		"limit exceeded", "--max-unit-bytes")
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Fatalf("a failed merge left %s: %v", out, err)
	}
	fails(t, exitUsage, "", []string{"merge", "-q", "-o", out, seg, seg + "2", "--max-unit-bytes", "1GiB"}, "at most 256")
	ok(t, "merge", "-q", "-o", out, seg, seg+"2", "--max-unit-bytes", "1MiB")
}
