package format

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/snii-go/snii/internal/codec/zstdopt"
	"github.com/snii-go/snii/internal/errs"
)

// storeCodec returns a compressor and a decompressor capped at MaxStoreBlockPlain.
func storeCodec(t testing.TB) (func(dst, src []byte) []byte, func(dst, src []byte) ([]byte, error)) {
	enc, err := zstdopt.NewEncoder(3)
	if err != nil {
		t.Fatal(err)
	}
	dec, err := zstdopt.NewDecoder(MaxStoreBlockPlain)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { enc.Close(); dec.Close() })
	return func(dst, src []byte) []byte { return enc.EncodeAll(src, dst) },
		func(dst, src []byte) ([]byte, error) { return dec.DecodeAll(src, dst) }
}

// buildStore cuts recs into blocks and returns the stored blocks and the header.
func buildStore(recs [][]byte, compress func(dst, src []byte) []byte) ([]byte, StoreMeta) {
	var b StoreBlockBuilder
	var out []byte
	m := StoreMeta{Format: RecordJSON, Records: uint64(len(recs))}
	for _, r := range recs {
		if !b.Fits(len(r)) {
			var sb StoreBlock
			out, sb = b.Finish(out, compress)
			m.Blocks = append(m.Blocks, sb)
		}
		b.Add(r)
		m.RawBytes += uint64(len(r))
	}
	if b.Len() > 0 {
		var sb StoreBlock
		out, sb = b.Finish(out, compress)
		m.Blocks = append(m.Blocks, sb)
	}
	return out, m
}

// readStore decodes every record of a store built by buildStore.
func readStore(stored []byte, m *StoreMeta, decompress func(dst, src []byte) ([]byte, error)) ([][]byte, error) {
	var recs [][]byte
	off := 0
	var ends []int
	for i, sb := range m.Blocks {
		plain, err := DecodeStoreBlock(stored[off:off+int(sb.StoredLen)], i, sb, decompress, nil)
		if err != nil {
			return nil, err
		}
		if ends, err = SplitStoreBlock(plain, i, int(sb.Docs), ends); err != nil {
			return nil, err
		}
		for k := 0; k < int(sb.Docs); k++ {
			recs = append(recs, plain[ends[k]:ends[k+1]])
		}
		off += int(sb.StoredLen)
	}
	return recs, nil
}

func TestStoreRoundTrip(t *testing.T) {
	compress, decompress := storeCodec(t)
	r := rand.New(rand.NewPCG(1, 2))
	var recs [][]byte
	for i := 0; i < 3000; i++ {
		var b []byte
		switch r.IntN(10) {
		case 0: // empty
		case 1: // random bytes: zstd cannot shrink the block they fill
			b = make([]byte, r.IntN(3*StoreBlockTarget))
			for j := range b {
				b[j] = byte(r.UintN(256))
			}
		default:
			b = bytes.Repeat([]byte("GET /api/v1 200 "), 1+r.IntN(20))
		}
		recs = append(recs, b)
	}
	for _, c := range []struct {
		name     string
		compress func(dst, src []byte) []byte
	}{{"zstd", compress}, {"plain", nil}} {
		stored, m := buildStore(recs, c.compress)
		hb := AppendStoreMeta(nil, &m)
		got, err := DecodeStoreMeta(hb, uint64(len(recs)))
		if err != nil {
			t.Fatal(err)
		}
		if got.BlocksLen() != uint64(len(stored)) || len(got.Blocks) != len(m.Blocks) {
			t.Fatalf("%s: header of %d blocks over %d bytes, stored %d", c.name, len(got.Blocks), got.BlocksLen(), len(stored))
		}
		var plain, zstd int
		for _, sb := range got.Blocks {
			if sb.Flags == 0 {
				plain++
			} else {
				zstd++
			}
			if sb.PlainLen > StoreBlockTarget && sb.Docs != 1 {
				t.Errorf("%s: a block of %d plain bytes holds %d records", c.name, sb.PlainLen, sb.Docs)
			}
		}
		if c.compress != nil && (plain == 0 || zstd == 0) {
			t.Errorf("%s: %d plain and %d zstd blocks: want both (random records do not shrink)", c.name, plain, zstd)
		}
		out, err := readStore(stored, &got, decompress)
		if err != nil {
			t.Fatal(err)
		}
		if len(out) != len(recs) {
			t.Fatalf("%s: %d records, want %d", c.name, len(out), len(recs))
		}
		for i := range recs {
			if !bytes.Equal(out[i], recs[i]) {
				t.Fatalf("%s: record %d differs", c.name, i)
			}
		}
	}
}

func TestStoreMetaErrors(t *testing.T) {
	compress, _ := storeCodec(t)
	recs := [][]byte{[]byte("a"), []byte("bb"), {}}
	_, m := buildStore(recs, compress)
	hb := AppendStoreMeta(nil, &m)
	if _, err := DecodeStoreMeta(hb, 4); !errors.Is(err, errs.Corrupt) {
		t.Errorf("wrong doc count: %v", err)
	}
	for l := 0; l < len(hb); l++ {
		if _, err := DecodeStoreMeta(hb[:l], 3); !errors.Is(err, errs.Corrupt) {
			t.Errorf("truncated to %d: %v", l, err)
		}
	}
	for _, bad := range []StoreMeta{
		{Format: 0, Records: 3, RawBytes: 3, Blocks: m.Blocks},
		{Format: RecordText, Records: 3, RawBytes: 100, Blocks: m.Blocks},
		{Format: RecordText, Records: 3, RawBytes: 3, Blocks: []StoreBlock{{Docs: 3, StoredLen: 9, PlainLen: 8, CRC: 1}}},
		{Format: RecordText, Records: 3, RawBytes: 3, Blocks: []StoreBlock{{Docs: 3, StoredLen: 9, PlainLen: 2, Flags: 1}}},
		{Format: RecordText, Records: 3, RawBytes: 3, Blocks: []StoreBlock{{Docs: 3, StoredLen: 9, PlainLen: 9, Flags: 2}}},
	} {
		if _, err := DecodeStoreMeta(AppendStoreMeta(nil, &bad), 3); !errors.Is(err, errs.Corrupt) {
			t.Errorf("%+v: %v", bad, err)
		}
	}
	if _, err := SplitStoreBlock([]byte{2, 1, 'a'}, 0, 2, nil); !errors.Is(err, errs.Corrupt) {
		t.Errorf("lengths past the bytes: %v", err)
	}
	if _, err := SplitStoreBlock([]byte{1, 'a', 'b'}, 0, 1, nil); !errors.Is(err, errs.Corrupt) {
		t.Errorf("trailing bytes: %v", err)
	}
}

// FuzzStoreBlock feeds arbitrary stored bytes and entries to the block
// decoder: it either fails with ErrCorrupt or returns records that add up
// to the plain length, and never decompresses past the entry's plain length.
func FuzzStoreBlock(f *testing.F) {
	compress, _ := storeCodec(f)
	for _, recs := range [][][]byte{{[]byte("a"), {}, []byte("ccc")}, {bytes.Repeat([]byte("xy"), 40)}} {
		stored, m := buildStore(recs, compress)
		sb := m.Blocks[0]
		f.Add(stored, sb.Docs, sb.PlainLen, sb.Flags)
		plainStored, pm := buildStore(recs, nil)
		f.Add(plainStored, pm.Blocks[0].Docs, pm.Blocks[0].PlainLen, uint8(0))
	}
	_, decompress := storeCodec(f)
	f.Fuzz(func(t *testing.T, stored []byte, docs, plainLen uint32, flags uint8) {
		if plainLen > 1<<20 {
			plainLen %= 1 << 20
		}
		info := StoreBlock{Docs: docs, StoredLen: uint32(len(stored)), PlainLen: plainLen, Flags: flags, CRC: Checksum(stored)}
		plain, err := DecodeStoreBlock(stored, 0, info, decompress, nil)
		if err != nil {
			if !errors.Is(err, errs.Corrupt) {
				t.Fatalf("error %v is not errs.Corrupt", err)
			}
			return
		}
		if len(plain) != int(plainLen) || (flags != 0 && cap(plain) > int(plainLen)) {
			t.Fatalf("plain of %d bytes (cap %d), entry says %d", len(plain), cap(plain), plainLen)
		}
		ends, err := SplitStoreBlock(plain, 0, int(docs), nil)
		if err != nil {
			if !errors.Is(err, errs.Corrupt) {
				t.Fatalf("error %v is not errs.Corrupt", err)
			}
			return
		}
		if len(ends) != int(docs)+1 || ends[len(ends)-1] != len(plain) || !slices.IsSorted(ends) {
			t.Fatalf("ends %v for %d docs of %d bytes", ends, docs, len(plain))
		}
	})
}

// TestStoreBlockBuilderTrim: Trim drops the buffers of a large block and
// keeps those of a small one; the builder works after either.
func TestStoreBlockBuilderTrim(t *testing.T) {
	var b StoreBlockBuilder
	b.Add(make([]byte, 1<<20))
	plain, n := b.TakePlain(nil)
	if n != 1 || len(plain) != 1<<20+3 {
		t.Fatalf("plain of %d bytes, %d records", len(plain), n)
	}
	b.Trim(64 << 10)
	if cap(b.lens)+cap(b.recs) != 0 {
		t.Errorf("kept %d bytes after a 1 MiB block", cap(b.lens)+cap(b.recs))
	}
	b.Add([]byte("abc"))
	b.Trim(64 << 10)
	if cap(b.recs) == 0 {
		t.Error("dropped the buffers of a small block")
	}
	if plain, n = b.TakePlain(nil); n != 1 || string(plain) != "\x03abc" {
		t.Errorf("plain %q, %d records", plain, n)
	}
}

// decodeStoreIndexRef decodes a block index entry by entry through the
// bounds-checked reader: the oracle of DecodeStoreMeta's inline uvarints.
func decodeStoreIndexRef(b []byte, docCount uint64) ([]StoreBlock, bool) {
	_, n, r, err := decodeStoreHead(b, docCount)
	if err != nil {
		return nil, false
	}
	blocks := make([]StoreBlock, n)
	for i := range blocks {
		blocks[i] = StoreBlock{
			Docs:      uint32(r.uvarintMax(math.MaxUint32)),
			StoredLen: uint32(r.uvarintMax(math.MaxUint32)),
			PlainLen:  uint32(r.uvarintMax(MaxStoreBlockPlain)),
			Flags:     r.u8(),
			CRC:       r.u32(),
		}
		if !r.ok() || blocks[i].check() != nil {
			return nil, false
		}
	}
	return blocks, r.remaining() == 0
}

// storeIndexBytes is a store header of the given entries, the uvarints of
// entry i written with pad[i] extra (overlong) continuation bytes when
// pad[i] > 0.
func storeIndexBytes(blocks []StoreBlock, pad []int) []byte {
	var docs, raw uint64
	for _, sb := range blocks {
		docs += uint64(sb.Docs)
		raw += uint64(sb.Docs)
	}
	head := AppendStoreMeta(nil, &StoreMeta{Format: RecordText, Records: docs, RawBytes: raw, BlocksOff: 64})
	head = head[:len(head)-1] // the block count (0) goes
	head = binary.AppendUvarint(head, uint64(len(blocks)))
	uv := func(dst []byte, v uint32, pad int) []byte {
		if pad == 0 {
			return binary.AppendUvarint(dst, uint64(v))
		}
		for v >= 0x80 {
			dst = append(dst, byte(v)|0x80)
			v >>= 7
		}
		dst = append(dst, byte(v)|0x80)
		for k := 1; k < pad; k++ {
			dst = append(dst, 0x80)
		}
		return append(dst, 0) // a trailing zero group
	}
	for i, sb := range blocks {
		p := 0
		if i < len(pad) {
			p = pad[i]
		}
		head = uv(head, sb.Docs, p)
		head = uv(head, sb.StoredLen, p)
		head = uv(head, sb.PlainLen, p)
		head = append(head, sb.Flags)
		head = binary.LittleEndian.AppendUint32(head, sb.CRC)
	}
	return head
}

// TestStoreIndexUvarints: the block index's uvarints of every length (one to
// five bytes, at each length's bounds) decode as the reader decodes them, and
// an overlong one is corrupt, wherever it sits.
func TestStoreIndexUvarints(t *testing.T) {
	vals := []uint32{1, 0x7f, 0x80, 0x3fff, 0x4000, 0x1fffff, 0x200000, 0xfffffff, MaxStoreBlockPlain}
	r := rand.New(rand.NewPCG(11, 12))
	for round := 0; round < 200; round++ {
		n := 1 + r.IntN(6)
		blocks := make([]StoreBlock, n)
		for i := range blocks {
			docs := vals[r.IntN(len(vals))]
			plain := max(docs, vals[r.IntN(len(vals))])
			sb := StoreBlock{Docs: docs, PlainLen: plain, StoredLen: plain, CRC: r.Uint32()}
			if r.IntN(2) == 0 {
				sb.Flags, sb.StoredLen = StoreFlagZstd, vals[r.IntN(len(vals))]
			}
			if r.IntN(8) == 0 {
				sb.StoredLen = math.MaxUint32 - uint32(r.IntN(3))
				sb.Flags = StoreFlagZstd
			}
			blocks[i] = sb
		}
		var docs uint64
		for _, sb := range blocks {
			docs += uint64(sb.Docs)
		}
		hb := storeIndexBytes(blocks, nil)
		m, err := DecodeStoreMeta(hb, docs)
		if err != nil || !slices.Equal(m.Blocks, blocks) {
			t.Fatalf("round %d: %+v, %v; want %+v", round, m.Blocks, err, blocks)
		}
		pad := make([]int, n)
		pad[r.IntN(n)] = 1 + r.IntN(2)
		bad := storeIndexBytes(blocks, pad)
		if _, err := DecodeStoreMeta(bad, docs); !errors.Is(err, errs.Corrupt) {
			t.Fatalf("round %d: overlong uvarints (pad %v): %v", round, pad, err)
		}
		if _, ok := decodeStoreIndexRef(bad, docs); ok {
			t.Fatalf("round %d: the reference decodes overlong uvarints", round)
		}
	}
}

// FuzzStoreMeta: DecodeStoreMeta accepts exactly the headers the reader's
// entry-by-entry decode accepts (and whose totals agree), with the same
// blocks, and fails with ErrCorrupt otherwise.
func FuzzStoreMeta(f *testing.F) {
	f.Add(storeIndexBytes([]StoreBlock{{Docs: 2, StoredLen: 300, PlainLen: 20000, Flags: 1}, {Docs: 1, StoredLen: 5, PlainLen: 5}}, nil), uint64(3))
	f.Add(storeIndexBytes([]StoreBlock{{Docs: 0x80, StoredLen: 0x4000, PlainLen: 0x200000, Flags: 1}}, []int{1}), uint64(0x80))
	f.Fuzz(func(t *testing.T, b []byte, docCount uint64) {
		m, err := DecodeStoreMeta(b, docCount)
		ref, ok := decodeStoreIndexRef(b, docCount)
		if err != nil {
			if !errors.Is(err, errs.Corrupt) {
				t.Fatalf("error %v is not errs.Corrupt", err)
			}
			if ok { // the entries decode: the totals must disagree
				head, _, _, _ := decodeStoreHead(b, docCount)
				var docs, plain, stored uint64
				for _, sb := range ref {
					docs, plain, stored = docs+uint64(sb.Docs), plain+uint64(sb.PlainLen), stored+uint64(sb.StoredLen)
				}
				if docs == head.Records && head.RawBytes <= plain && head.BlocksOff <= math.MaxInt64-stored {
					t.Fatalf("%v for entries the reference decodes: %+v", err, ref)
				}
			}
			return
		}
		if !ok || !slices.Equal(m.Blocks, ref) {
			t.Fatalf("decoded %+v; the reference: %+v (ok %v)", m.Blocks, ref, ok)
		}
	})
}
