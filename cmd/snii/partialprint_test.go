package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestPrintKeepsRecordsBeforeDamage: a print that meets a damaged store block
// part way fails with "corrupt" (exit 1) and keeps on stdout the records it
// read before the damage, as grep keeps the lines before a read error: its
// output is a non-empty prefix, whole lines, of the intact segment's.
func TestPrintKeepsRecordsBeforeDamage(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.snii")
	ok(t, "build", "-q", "-o", good, demoFile("app.log"))
	bad := filepath.Join(dir, "bad.snii")
	b, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	_, _, d, m := storeOf(t, b)
	if len(m.Blocks) < 4 {
		t.Fatalf("%d store blocks: the test needs several", len(m.Blocks))
	}
	b[d.StoreOff-1] ^= 0xff // the last block's last byte: its CRC no longer matches
	if err := os.WriteFile(bad, b, 0o644); err != nil {
		t.Fatal(err)
	}
	last := d.DocCount - 1
	for _, args := range [][]string{
		{"query", "SEG", "INFO"},
		{"query", "SEG", "-C", "1", "ERROR"},
		{"query", "SEG", "--json", "INFO"},
		{"grep", "SEG", "api-gateway"},
		{"grep", "SEG", "[a-z]"},
		{"get", "SEG", "0", "1", strconv.FormatUint(uint64(last), 10)},
	} {
		run := func(seg string) []string {
			a := append([]string(nil), args...)
			a[1] = seg
			return a
		}
		want := ok(t, run(good)...).stdout
		r := cli(t, "", run(bad)...)
		if r.code != exitFailure || !strings.Contains(r.stderr, "corrupt") {
			t.Errorf("%v: exit %d, stderr %q; want %d and corrupt", args, r.code, r.stderr, exitFailure)
			continue
		}
		if r.stdout == "" || !strings.HasSuffix(r.stdout, "\n") || !strings.HasPrefix(want, r.stdout) || r.stdout == want {
			t.Errorf("%v: printed %d bytes before the damage, want a non-empty prefix of whole lines of the intact %d", args, len(r.stdout), len(want))
		}
	}
}
