package main

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/snii-go/snii/internal/codec/format"
)

// TestQueryNoMatchReadsNoRecord: a query without a match prints nothing and
// reads nothing of the store beyond its header (the block index stays
// undecoded): on a segment whose first block index entry is damaged (its
// CRCs fixed, so that it opens) it exits 0 with empty output, while a query
// with matches reports the damage (exit 1, "corrupt").
func TestQueryNoMatchReadsNoRecord(t *testing.T) {
	seg := damagedStoreIndex(t, t.TempDir())
	r := ok(t, "query", seg, `"zzqx no such words"`)
	if r.stdout != "" {
		t.Errorf("no match printed %q", r.stdout)
	}
	r = cli(t, "", "query", seg, "error")
	if r.code != exitFailure || !strings.Contains(r.stderr, "corrupt") {
		t.Errorf("a match on a damaged block index: exit %d, stderr %q", r.code, r.stderr)
	}
}

// damagedStoreIndex builds the demo app.log into dir and damages its first
// store block index entry (flags 2; the CRCs fixed, so that it opens).
func damagedStoreIndex(t *testing.T, dir string) string {
	t.Helper()
	seg := filepath.Join(dir, "app.snii")
	ok(t, "build", "-q", "-o", seg, demoFile("app.log"))
	b, err := os.ReadFile(seg)
	if err != nil {
		t.Fatal(err)
	}
	tail, dirb, d, m := storeOf(t, b)
	hb := b[d.StoreOff : d.StoreOff+d.StoreLen]
	// The first entry's flags byte, after its three uvarints, becomes 2 (no
	// such flag).
	at := len(format.AppendStoreMeta(nil, &format.StoreMeta{Format: m.Format, TextField: m.TextField,
		Records: m.Records, RawBytes: m.RawBytes, BlocksOff: m.BlocksOff,
		Blocks: make([]format.StoreBlock, len(m.Blocks))})) - 8*len(m.Blocks) // the head: zero entries take 8 bytes each
	var u [binary.MaxVarintLen64]byte
	for _, v := range []uint32{m.Blocks[0].Docs, m.Blocks[0].StoredLen, m.Blocks[0].PlainLen} {
		at += binary.PutUvarint(u[:], uint64(v))
	}
	if hb[at] != m.Blocks[0].Flags {
		t.Fatalf("byte %d of the store header is %d, not the first block's flags %d", at, hb[at], m.Blocks[0].Flags)
	}
	hb[at] = 2
	d.StoreCRC = format.Checksum(hb)
	copy(dirb, format.AppendDirectory(nil, &d))
	binary.LittleEndian.PutUint32(tail[16:], format.Checksum(dirb))
	binary.LittleEndian.PutUint32(tail[28:], format.Checksum(tail[:28]))
	if err := os.WriteFile(seg, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return seg
}

// storeOf returns the tail, the directory's bytes, the directory and the
// store header of segment bytes b that keep a store.
func storeOf(t *testing.T, b []byte) (tail, dirb []byte, d format.Directory, m format.StoreMeta) {
	t.Helper()
	tail = b[len(b)-format.TailSize:]
	tl, err := format.ParseTail(tail)
	if err != nil {
		t.Fatal(err)
	}
	dirb = b[tl.DirOff : tl.DirOff+tl.DirLen]
	if d, err = format.DecodeDirectory(dirb); err != nil || d.StoreLen == 0 {
		t.Fatalf("directory: %+v, %v", d, err)
	}
	if m, err = format.DecodeStoreMeta(b[d.StoreOff:d.StoreOff+d.StoreLen], d.DocCount); err != nil {
		t.Fatal(err)
	}
	return tail, dirb, d, m
}

// TestDamagedStoreIndexReported: every command line that reads a record of
// a segment whose store block index is damaged fails with "corrupt" (exit
// 1), and so does verify; those that print no record (no match, --count,
// --ids) succeed, printing what they print on the intact segment.
func TestDamagedStoreIndexReported(t *testing.T) {
	dir := t.TempDir()
	seg := damagedStoreIndex(t, dir)
	good := filepath.Join(dir, "good")
	if err := os.Mkdir(good, 0o755); err != nil {
		t.Fatal(err)
	}
	goodSeg := filepath.Join(good, "app.snii")
	ok(t, "build", "-q", "-o", goodSeg, demoFile("app.log"))
	// A directory of two segments: the damaged one and an intact copy.
	many := filepath.Join(dir, "many")
	if err := os.Mkdir(many, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, src := range map[string]string{"a.snii": seg, "b.snii": goodSeg} {
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(many, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const none = `"zzqx no such words"`
	for _, args := range [][]string{
		{"query", seg, "error"},
		{"query", seg, "error", "-C", "2"},
		{"query", seg, "error", "--json"},
		{"query", seg, "error", "--top", "3"},
		{"query", seg, "error", "--color", "always", "-m", "1"},
		{"query", many, "error"},
		{"grep", seg, "ERROR"},
		{"grep", seg, "-c", "ERROR"},
		{"grep", seg, "-v", none},
		{"get", seg, "0"},
		{"verify", seg},
	} {
		if r := cli(t, "", args...); r.code != exitFailure || !strings.Contains(r.stderr, "corrupt") {
			t.Errorf("snii %q: exit %d, stderr %q; want 1, corrupt", args, r.code, r.stderr)
		}
	}
	for _, args := range [][]string{
		{"query", "SEG", none},
		{"query", "SEG", none, "-C", "2"},
		{"query", "SEG", none, "--json"},
		{"query", "SEG", none, "--top", "3"},
		{"query", "SEG", "error", "--count"},
		{"query", "SEG", "error", "--ids"},
		{"query", "SEG", "error", "--ids", "--json"},
	} {
		run := func(path string) result {
			a := slices.Clone(args)
			a[1] = path
			return ok(t, a...)
		}
		if got, want := run(seg), run(goodSeg); got.stdout != want.stdout {
			t.Errorf("snii %q: stdout %q on the damaged segment, %q on the intact one", args, got.stdout, want.stdout)
		}
	}
}
