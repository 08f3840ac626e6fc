package format

import (
	"bytes"
	"encoding/binary"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/snii-go/snii/internal/errs"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/index")

// goldenDir is the repository's testdata/index directory.
const goldenDir = "../../../testdata/index"

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join(goldenDir, name)
	if *update {
		if err := os.MkdirAll(goldenDir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run Golden -update ./internal/codec/format/ to create)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s changed:\n got % x\nwant % x", name, got, want)
	}
}

func TestGolden(t *testing.T) {
	h := AppendHeader(nil)
	golden(t, "header.bin", h)
	if want := []byte("SNII\x09\x00\x09\x00\x00\x00\x00\x00"); !bytes.Equal(h[:12], want) {
		t.Errorf("header % x", h)
	}
	tail := AppendTail(nil, Tail{DirOff: 0x1122334455, DirLen: 77, DirCRC: 0xdeadbeef})
	golden(t, "tail.bin", tail)
	// A small block: three terms sharing prefixes, one entry of each class.
	var bb BlockBuilder
	bb.Add([]byte("error"), &Entry{DF: 1, TTF: 2, Class: ClassInline, Docs: []byte{0, 5}, Frame: []byte{0, 3, 1, 1, 2}})
	bb.Add([]byte("errors"), &Entry{DF: 3, TTF: 9, Class: ClassSlim, Offset: 0, PrxLen: 20, DocLen: 8})
	bb.Add([]byte("eta"), &Entry{DF: 600, TTF: 1500, Class: ClassWindowed, Offset: 28, PrxLen: 900, DocLen: 700})
	stored, info := bb.Finish(nil)
	golden(t, "block.bin", stored)
	if info.Flags != 0 || info.Entries != 3 || int(info.StoredLen) != len(stored) {
		t.Errorf("block info %+v", info)
	}
	golden(t, "docwindow.bin", AppendDocWindow(nil, []uint32{3, 4, 10, 1000}, 0, true))
	d := Directory{DocCount: 12, Indexes: []DirEntry{{Name: "body", MetaOff: 100, MetaLen: 50, MetaCRC: 1}, {Name: "host", MetaOff: 150, MetaLen: 40, MetaCRC: 2}},
		StoreOff: 300, StoreLen: 30, StoreCRC: 3}
	golden(t, "directory.bin", AppendDirectory(nil, &d))
	// A store of three records in one plain block, then its header.
	var sb StoreBlockBuilder
	for _, r := range []string{"GET /a 200", "", `{"k":"v"}`} {
		sb.Add([]byte(r))
	}
	store, info0 := sb.Finish(nil, nil)
	sm := StoreMeta{Format: RecordMixed, TextField: "text", Records: 3, RawBytes: 19, BlocksOff: 16, Blocks: []StoreBlock{info0}}
	golden(t, "store.bin", AppendStoreMeta(store, &sm))
	m := sampleMeta(t)
	golden(t, "meta.bin", AppendIndexMeta(nil, &m))
}

func TestHeader(t *testing.T) {
	h := AppendHeader([]byte("x"))[1:]
	if len(h) != HeaderSize {
		t.Fatalf("header is %d bytes", len(h))
	}
	if err := ParseHeader(h); err != nil {
		t.Fatal(err)
	}
	for i := range h {
		b := slices.Clone(h)
		b[i] ^= 0x04
		if err := ParseHeader(b); !errors.Is(err, errs.Corrupt) {
			t.Errorf("byte %d: err = %v", i, err)
		}
	}
	for l := 0; l < HeaderSize; l++ {
		if err := ParseHeader(h[:l]); !errors.Is(err, errs.Corrupt) {
			t.Errorf("truncated to %d: err = %v", l, err)
		}
	}
	header := func(v, minR uint16, flags uint32) []byte {
		b := []byte(HeaderMagic)
		b = binary.LittleEndian.AppendUint16(b, v)
		b = binary.LittleEndian.AppendUint16(b, minR)
		b = binary.LittleEndian.AppendUint32(b, flags)
		return binary.LittleEndian.AppendUint32(b, Checksum(b))
	}
	if err := ParseHeader(header(10, 9, 0)); err != nil {
		t.Errorf("newer version readable by v9: %v", err)
	}
	if err := ParseHeader(header(10, 10, 0)); !errors.Is(err, errs.Version) {
		t.Errorf("min reader 10: err = %v, want errs.Version", err)
	}
	if err := ParseHeader(header(8, 8, 0)); err != nil {
		t.Errorf("a v8 segment (no skipped documents) should open: %v", err)
	}
	if err := ParseHeader(header(7, 7, 0)); err != nil {
		t.Errorf("a v7 segment (no store) should open: %v", err)
	}
	if err := ParseHeader(header(6, 6, 0)); err != nil {
		t.Errorf("a v6 segment (no long packed-block tokens) should open: %v", err)
	}
	if err := ParseHeader(header(5, 5, 0)); err != nil {
		t.Errorf("a v5 segment (no shared literal tables) should open: %v", err)
	}
	if err := ParseHeader(header(4, 4, 0)); !errors.Is(err, errs.Version) || !strings.Contains(err.Error(), "rebuild") || !strings.Contains(err.Error(), "format version 4") {
		t.Errorf("a v4 segment: err = %v, want errs.Version naming version 4 and saying to rebuild", err)
	}
	if err := ParseHeader(header(3, 3, 0)); !errors.Is(err, errs.Version) || !strings.Contains(err.Error(), "rebuild") || !strings.Contains(err.Error(), "format version 3") {
		t.Errorf("a v3 segment: err = %v, want errs.Version naming version 3 and saying to rebuild", err)
	}
	if err := ParseHeader(header(2, 2, 0)); !errors.Is(err, errs.Version) || !strings.Contains(err.Error(), "rebuild") {
		t.Errorf("a v2 segment: err = %v, want errs.Version saying to rebuild", err)
	}
	if err := ParseHeader(header(1, 1, 0)); !errors.Is(err, errs.Version) || !strings.Contains(err.Error(), "rebuild") {
		t.Errorf("a v1 segment: err = %v, want errs.Version saying to rebuild", err)
	}
	if err := ParseHeader(header(5, 5, 4)); !errors.Is(err, errs.Version) {
		t.Errorf("flags: err = %v, want errs.Version", err)
	}
	for _, c := range [][2]uint16{{1, 0}, {1, 2}, {0, 0}} {
		if err := ParseHeader(header(c[0], c[1], 0)); !errors.Is(err, errs.Corrupt) {
			t.Errorf("versions %v: err = %v, want errs.Corrupt", c, err)
		}
	}
}

func TestTail(t *testing.T) {
	in := Tail{DirOff: 1 << 40, DirLen: 12345, DirCRC: 0xcafef00d}
	b := AppendTail([]byte("xy"), in)[2:]
	if len(b) != TailSize || string(b[24:28]) != TailMagic {
		t.Fatalf("tail % x", b)
	}
	got, err := ParseTail(b)
	in.Version, in.MinReader = FormatVersion, MinReaderVersion
	if err != nil || got != in {
		t.Fatalf("ParseTail = %+v, %v; want %+v", got, err, in)
	}
	for i := range b {
		for _, x := range []byte{1, 0x80, 0xff} {
			c := slices.Clone(b)
			c[i] ^= x
			if _, err := ParseTail(c); !errors.Is(err, errs.Corrupt) {
				t.Errorf("byte %d ^ %#x: err = %v", i, x, err)
			}
		}
	}
	for l := 0; l < TailSize; l++ {
		if _, err := ParseTail(b[:l]); !errors.Is(err, errs.Corrupt) {
			t.Errorf("truncated to %d: err = %v", l, err)
		}
	}
	if _, err := ParseTail(AppendTail(nil, Tail{Version: 10, MinReader: 10})); !errors.Is(err, errs.Version) {
		t.Errorf("min reader 10: err = %v, want errs.Version", err)
	}
	if _, err := ParseTail(AppendTail(nil, Tail{Version: 10, MinReader: 9})); err != nil {
		t.Errorf("version 10, min reader 9: %v", err)
	}
	if _, err := ParseTail(AppendTail(nil, Tail{Version: 8, MinReader: 8})); err != nil {
		t.Errorf("version 8: %v", err)
	}
	if _, err := ParseTail(AppendTail(nil, Tail{Version: 7, MinReader: 7})); err != nil {
		t.Errorf("version 7: %v", err)
	}
	if _, err := ParseTail(AppendTail(nil, Tail{Version: 6, MinReader: 6})); err != nil {
		t.Errorf("version 6: %v", err)
	}
	if _, err := ParseTail(AppendTail(nil, Tail{Version: 5, MinReader: 5})); err != nil {
		t.Errorf("version 5: %v", err)
	}
	if _, err := ParseTail(AppendTail(nil, Tail{Version: 4, MinReader: 4})); !errors.Is(err, errs.Version) {
		t.Errorf("a v4 tail: err = %v, want errs.Version", err)
	}
	if _, err := ParseTail(AppendTail(nil, Tail{Version: 3, MinReader: 3})); !errors.Is(err, errs.Version) {
		t.Errorf("a v3 tail: err = %v, want errs.Version", err)
	}
	if _, err := ParseTail(AppendTail(nil, Tail{Version: 1, MinReader: 2})); !errors.Is(err, errs.Corrupt) {
		t.Errorf("version < min reader: err = %v, want errs.Corrupt", err)
	}
	// File size checks.
	tl := Tail{DirOff: 100, DirLen: 20}
	if err := tl.CheckFileSize(100 + 20 + TailSize); err != nil {
		t.Error(err)
	}
	for _, size := range []uint64{0, 10, 100 + 20 + TailSize - 1, 100 + 20 + TailSize + 1} {
		if err := tl.CheckFileSize(size); !errors.Is(err, errs.Corrupt) {
			t.Errorf("file size %d: err = %v", size, err)
		}
	}
	if err := (Tail{DirOff: 3, DirLen: 0}).CheckFileSize(3 + TailSize); !errors.Is(err, errs.Corrupt) {
		t.Errorf("directory inside the header: err = %v", err)
	}
	if err := (Tail{DirOff: 1<<64 - 10, DirLen: 20}).CheckFileSize(100); !errors.Is(err, errs.Corrupt) {
		t.Errorf("overflow: err = %v", err)
	}
}

func TestDirectory(t *testing.T) {
	d := Directory{Version: 1, DocCount: 1 << 32, Indexes: []DirEntry{
		{Name: "a", MetaOff: 16, MetaLen: 3, MetaCRC: 9},
		{Name: "body", MetaOff: 1 << 40, MetaLen: 1 << 20, MetaCRC: 0xffffffff},
		{Name: "b\xffz", MetaOff: 5, MetaLen: 0},
	}}
	b := AppendDirectory(nil, &d)
	got, err := DecodeDirectory(b)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(d, got); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
	if e, ok := got.Lookup("body"); !ok || e.MetaOff != 1<<40 {
		t.Errorf("Lookup(body) = %+v, %v", e, ok)
	}
	for _, name := range []string{"", "aa", "c", "bod"} {
		if _, ok := got.Lookup(name); ok {
			t.Errorf("Lookup(%q) found", name)
		}
	}
	empty, err := DecodeDirectory(AppendDirectory(nil, &Directory{}))
	if err != nil || empty.Version != FormatVersion || len(empty.Indexes) != 0 {
		t.Errorf("empty directory: %+v, %v", empty, err)
	}
	for l := 0; l < len(b); l++ {
		if _, err := DecodeDirectory(b[:l]); !errors.Is(err, errs.Corrupt) {
			t.Errorf("truncated to %d: err = %v", l, err)
		}
	}
	if _, err := DecodeDirectory(append(slices.Clone(b), 0)); !errors.Is(err, errs.Corrupt) {
		t.Errorf("trailing byte: err = %v", err)
	}
	bad := []Directory{
		{Version: 1, DocCount: 1<<32 + 1},
		{Version: 1, Indexes: []DirEntry{{Name: ""}}},
		{Version: 1, Indexes: []DirEntry{{Name: "b"}, {Name: "a"}}},
		{Version: 1, Indexes: []DirEntry{{Name: "b"}, {Name: "b"}}},
		{Version: 1, Indexes: []DirEntry{{Name: "b", MetaOff: 1 << 63}}},
	}
	for i, d := range bad {
		if _, err := DecodeDirectory(AppendDirectory(nil, &d)); !errors.Is(err, errs.Corrupt) {
			t.Errorf("bad directory %d: err = %v", i, err)
		}
	}
	// Single-byte flips: the CRC (kept in the tail) catches them; a decode
	// without it never panics.
	crc := Checksum(b)
	for i := range b {
		c := slices.Clone(b)
		c[i] ^= 0x41
		if err := VerifyChecksum(c, crc, "tail"); !errors.Is(err, errs.Corrupt) {
			t.Fatalf("byte %d: checksum not caught", i)
		}
		if _, err := DecodeDirectory(c); err != nil && !errors.Is(err, errs.Corrupt) {
			t.Fatalf("byte %d: err = %v", i, err)
		}
	}
}

// A malformed varint in the directory's leading fields is reported as such,
// not as the zeros the failed reads return ("version 0, 0 docs").
func TestDirectoryMalformedVarint(t *testing.T) {
	for _, b := range [][]byte{
		{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, // version over 64 bits
		{0x01, 0x80},             // doc count truncated
		{0x01, 0x05, 0x80, 0x80}, // index count truncated
	} {
		_, err := DecodeDirectory(b)
		if !errors.Is(err, errs.Corrupt) || !strings.Contains(err.Error(), "malformed varint") || strings.Contains(err.Error(), "version 0") {
			t.Errorf("% x: err = %v, want a malformed varint error", b, err)
		}
	}
}
