package reader_test

import (
	"os"
	"testing"

	"github.com/snii-go/snii/internal/codec/format"
	"github.com/snii-go/snii/internal/errs"
	"github.com/snii-go/snii/internal/testkit/oracle"
	"github.com/snii-go/snii/reader"
)

// FuzzCraftedMeta rewrites the counts, offsets and lengths of a one-index
// segment's metadata group (term and doc counts, section bounds, the block
// directory's entries, lengths and offsets, the window limits) to fuzzed
// values, re-encodes it with valid varints and CRCs (metadata, directory,
// tail), and opens, queries and verifies the result: the checks behind the
// CRCs must reject what does not add up, with a corruption (or limit) error,
// never a panic or an allocation driven by a crafted count. (Issue 16 item 9.)
func FuzzCraftedMeta(f *testing.F) {
	var docs []oracle.Doc
	for _, d := range oracle.Generate(5, oracle.GenOptions{Docs: 400, Vocab: 300, MaxTokens: 12}) {
		var td oracle.Doc
		for _, fl := range d {
			if fl.Name == "text" {
				td = append(td, fl)
			}
		}
		docs = append(docs, td)
	}
	seg, err := os.ReadFile(build(f, docs, options(-1, "text")))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(uint8(0), uint64(0), uint8(0), uint64(0))
	f.Add(uint8(2), uint64(1<<40), uint8(0), uint64(0))
	f.Add(uint8(9), uint64(1<<31), uint8(10), uint64(0))
	f.Add(uint8(12), uint64(7), uint8(13), uint64(1<<28))
	queries := []reader.Query{
		reader.Term("text", "the"),
		reader.Prefix("text", "", 0),
		reader.Phrase("text", "na", "na"),
	}
	f.Fuzz(func(t *testing.T, k1 uint8, v1 uint64, k2 uint8, v2 uint64) {
		b := craftMeta(t, seg, [][2]uint64{{uint64(k1), v1}, {uint64(k2), v2}})
		if b == nil {
			return
		}
		s, err := openBytes(b)
		if err != nil {
			if !isKind(err, errs.Corrupt, errs.Version, errs.Limit, errs.NotFound) {
				t.Fatalf("Open: unexpected error kind: %v", err)
			}
			return
		}
		defer s.Close()
		for _, q := range queries {
			if _, err := s.Docs(bg, q, nil); err != nil && !isKind(err, errs.Corrupt, errs.NotFound, errs.Limit) {
				t.Fatalf("%s: unexpected error kind: %v", q, err)
			}
		}
		if err := s.Verify(bg); err != nil && !isKind(err, errs.Corrupt, errs.Limit) {
			t.Fatalf("Verify: unexpected error kind: %v", err)
		}
	})
}

// craftMeta sets metadata fields of seg's only index (field k%16 to v, for
// each pair) and rebuilds the metadata group, directory and tail; nil when
// the seed cannot be parsed.
func craftMeta(t *testing.T, seg []byte, sets [][2]uint64) []byte {
	t.Helper()
	tail, err := format.ParseTail(seg[len(seg)-format.TailSize:])
	if err != nil {
		t.Fatal(err)
	}
	dir, err := format.DecodeDirectory(seg[tail.DirOff : tail.DirOff+tail.DirLen])
	if err != nil || len(dir.Indexes) != 1 {
		t.Fatalf("seed: %v", err)
	}
	de := dir.Indexes[0]
	m, err := format.DecodeIndexMeta(seg[de.MetaOff:de.MetaOff+de.MetaLen], dir.Version)
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range sets {
		v := kv[1]
		blk := &m.Blocks[int(v>>32)%len(m.Blocks)] // the block a block field applies to
		switch kv[0] % 16 {
		case 0:
			m.TermCount = v
		case 1:
			m.DocsWithField = v
		case 2:
			m.SumDF = v
		case 3:
			m.SumTTF = v
		case 4:
			m.InlineTerms = v
		case 5:
			m.WindowedTerms = v
		case 6:
			m.PostingOff = v
		case 7:
			m.PostingLen = v
		case 8:
			m.DictOff = v
		case 9:
			m.DictLen = v
		case 10:
			blk.Entries = uint32(v)
		case 11:
			blk.Offset = v & 0xffffffff
		case 12:
			blk.StoredLen = uint32(v)
		case 13:
			blk.PlainLen = uint32(v)
		case 14:
			m.Limits.MaxDocs = int(v & 0x7fffffff)
		case 15:
			m.Limits.MaxPositions = int(v & 0x7fffffff)
		}
	}
	// Keep the blocks' CRCs valid so that the crafted numbers reach the
	// checks behind them.
	for i := range m.Blocks {
		bi := &m.Blocks[i]
		off := m.DictOff + bi.Offset
		if off <= uint64(len(seg)) && uint64(bi.StoredLen) <= uint64(len(seg))-off {
			bi.CRC = format.Checksum(seg[off : off+uint64(bi.StoredLen)])
		}
	}
	meta := format.AppendIndexMeta(nil, &m)
	out := append([]byte(nil), seg[:de.MetaOff]...)
	dir.Indexes[0].MetaLen = uint64(len(meta))
	dir.Indexes[0].MetaCRC = format.Checksum(meta)
	out = append(out, meta...)
	dirOff := uint64(len(out))
	db := format.AppendDirectory(nil, &dir)
	out = append(out, db...)
	return format.AppendTail(out, format.Tail{DirOff: dirOff, DirLen: uint64(len(db)), DirCRC: format.Checksum(db)})
}
