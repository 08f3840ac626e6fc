package format

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/snii-go/snii"
	"github.com/snii-go/snii/internal/codec/bitpack"
	"github.com/snii-go/snii/internal/errs"
)

// RecordFormat is the record format a store's metadata records.
type RecordFormat = snii.RecordFormat

// Record formats.
const (
	RecordText  = snii.RecordText
	RecordJSON  = snii.RecordJSON
	RecordMixed = snii.RecordMixed
)

// ValidRecordFormat reports whether f is one of the record formats.
func ValidRecordFormat(f RecordFormat) bool { return f >= RecordText && f <= RecordMixed }

// Store constants.
const (
	// StoreBlockTarget is the plain size a store block is filled to: a block
	// ends before the record that would take its plain bytes past it, so a
	// block over it holds a single record.
	StoreBlockTarget = 16 << 10
	// MaxStoreBlockPlain is the hard cap on a store block's plain length (and
	// so on one record); decoding rejects larger claims before allocating.
	MaxStoreBlockPlain = 1 << 28
	// StoreFlagZstd marks a store block stored as one zstd frame.
	StoreFlagZstd = 1
	// MaxTextField is the longest text field name a store header may hold.
	MaxTextField = 1 << 10
)

// StoreBlock is one entry of the store's block index.
type StoreBlock struct {
	Docs      uint32 // records in the block (>= 1)
	StoredLen uint32 // bytes in the file
	PlainLen  uint32 // bytes once decompressed: the lengths and the records
	Flags     uint8  // 0: plain, StoreFlagZstd: one zstd frame
	CRC       uint32 // crc32c of the stored bytes
}

// StoreMeta is the store header: what the records hold and the block index.
// The blocks lie back to back from BlocksOff; block b starts at BlocksOff plus
// the StoredLen of the blocks before it and holds the records of the docs
// after theirs.
type StoreMeta struct {
	Format    RecordFormat
	TextField string
	Records   uint64 // records stored (the segment's documents)
	RawBytes  uint64 // sum of the record lengths
	BlocksOff uint64 // absolute offset of the first block
	Blocks    []StoreBlock
}

// BlocksLen returns the stored bytes of all the blocks.
func (m *StoreMeta) BlocksLen() uint64 {
	var n uint64
	for _, b := range m.Blocks {
		n += uint64(b.StoredLen)
	}
	return n
}

// AppendStoreMeta appends the store header:
//
//	u8 format | uvarint len(textField) | textField | uvarint records | uvarint rawBytes |
//	uvarint blocksOff | uvarint nBlocks |
//	nBlocks × {uvarint docs | uvarint storedLen | uvarint plainLen | u8 flags | u32 crc32c}
func AppendStoreMeta(dst []byte, m *StoreMeta) []byte {
	dst = append(dst, byte(m.Format))
	dst = binary.AppendUvarint(dst, uint64(len(m.TextField)))
	dst = append(dst, m.TextField...)
	dst = binary.AppendUvarint(dst, m.Records)
	dst = binary.AppendUvarint(dst, m.RawBytes)
	dst = binary.AppendUvarint(dst, m.BlocksOff)
	dst = binary.AppendUvarint(dst, uint64(len(m.Blocks)))
	for _, b := range m.Blocks {
		dst = binary.AppendUvarint(dst, uint64(b.Docs))
		dst = binary.AppendUvarint(dst, uint64(b.StoredLen))
		dst = binary.AppendUvarint(dst, uint64(b.PlainLen))
		dst = append(dst, b.Flags)
		dst = binary.LittleEndian.AppendUint32(dst, b.CRC)
	}
	return dst
}

// minStoreBlockEntry is the smallest encoding of a block index entry.
const minStoreBlockEntry = 1 + 1 + 1 + 1 + 4

// DecodeStoreMeta decodes a store header (b is exactly the header; its CRC is
// checked by the caller against the directory). It checks the record format,
// that the blocks hold docCount records in all, each block at least one, that
// every block's lengths are within MaxStoreBlockPlain and consistent with its
// flags, that the record bytes fit in the plain bytes, and exact consumption.
// The placement of the blocks is the caller's to check (they end where the
// header starts).
func DecodeStoreMeta(b []byte, docCount uint64) (StoreMeta, error) {
	m, n, r, err := decodeStoreHead(b, docCount)
	if err != nil {
		return StoreMeta{}, err
	}
	m.Blocks = make([]StoreBlock, n)
	var docs, plain, stored uint64
	p := r.off
	for i := range m.Blocks {
		var v [3]uint32 // docs, storedLen, plainLen (bitpack.ReadUvarint32's rule)
		ok := true
		for k := range v {
			// One to three bytes inline; longer, overlong or at the end of b
			// by the slow path.
			if p+2 < len(b) {
				c0, c1, c2 := b[p], b[p+1], b[p+2]
				switch {
				case c0 < 0x80:
					v[k], p = uint32(c0), p+1
					continue
				case c1 < 0x80 && c1 != 0:
					v[k], p = uint32(c0&0x7f)|uint32(c1)<<7, p+2
					continue
				case c1 >= 0x80 && c2 < 0x80 && c2 != 0:
					v[k], p = uint32(c0&0x7f)|uint32(c1&0x7f)<<7|uint32(c2)<<14, p+3
					continue
				}
			}
			if v[k], p, ok = bitpack.ReadUvarint32Slow(b, p); !ok {
				break
			}
		}
		if !ok || v[2] > MaxStoreBlockPlain || len(b)-p < 5 {
			return StoreMeta{}, errs.Corruptf("header: block %d truncated", i)
		}
		sb := StoreBlock{Docs: v[0], StoredLen: v[1], PlainLen: v[2], Flags: b[p], CRC: binary.LittleEndian.Uint32(b[p+1:])}
		p += 5
		if !sb.valid() {
			return StoreMeta{}, fmt.Errorf("block %d: %w", i, sb.check())
		}
		docs += uint64(sb.Docs)
		plain += uint64(sb.PlainLen)
		stored += uint64(sb.StoredLen)
		m.Blocks[i] = sb
	}
	if p != len(b) {
		return StoreMeta{}, errs.Corruptf("header: %d trailing bytes", len(b)-p)
	}
	if docs != m.Records || m.RawBytes > plain {
		return StoreMeta{}, errs.Corruptf("header: blocks hold %d records and %d plain bytes, header says %d records of %d bytes", docs, plain, m.Records, m.RawBytes)
	}
	if m.BlocksOff > math.MaxInt64-stored {
		return StoreMeta{}, errs.Corruptf("header: blocks at [%d, +%d) overflow", m.BlocksOff, stored)
	}
	return m, nil
}

// DecodeStoreHead decodes and checks the part of a store header before its
// block index: the fields of StoreMeta but Blocks (nil), and the number of
// blocks the index holds. DecodeStoreMeta checks the rest.
func DecodeStoreHead(b []byte, docCount uint64) (StoreMeta, int, error) {
	m, n, _, err := decodeStoreHead(b, docCount)
	return m, n, err
}

// decodeStoreHead is DecodeStoreHead, with the reader at the block index.
func decodeStoreHead(b []byte, docCount uint64) (StoreMeta, int, reader, error) {
	r := reader{b: b}
	m := StoreMeta{Format: RecordFormat(r.u8())}
	m.TextField = string(r.bytes(r.uvarintMax(MaxTextField)))
	m.Records, m.RawBytes, m.BlocksOff = r.uvarint(), r.uvarint(), r.uvarint()
	n := r.uvarint()
	if !r.ok() {
		return StoreMeta{}, 0, r, errs.Corruptf("header: truncated (%d bytes)", len(b))
	}
	if !ValidRecordFormat(m.Format) {
		return StoreMeta{}, 0, r, errs.Corruptf("header: record format %d", m.Format)
	}
	if m.Records != docCount || n > uint64(r.remaining()/minStoreBlockEntry) || (n == 0) != (docCount == 0) {
		return StoreMeta{}, 0, r, errs.Corruptf("header: %d records in %d blocks of %d bytes, segment has %d documents", m.Records, n, len(b), docCount)
	}
	if m.BlocksOff > math.MaxInt64 {
		return StoreMeta{}, 0, r, errs.Corruptf("header: blocks at %d", m.BlocksOff)
	}
	return m, int(n), r, nil
}

// check checks the entry's own consistency (a plain block's lengths agree,
// every record has at least its one-byte length).
func (b StoreBlock) check() error {
	switch {
	case b.Docs == 0 || uint64(b.PlainLen) < uint64(b.Docs):
		return errs.Corruptf("%d records in %d plain bytes", b.Docs, b.PlainLen)
	case b.Flags == 0 && b.StoredLen != b.PlainLen:
		return errs.Corruptf("plain block of %d bytes, %d plain bytes", b.StoredLen, b.PlainLen)
	case b.Flags > StoreFlagZstd:
		return errs.Corruptf("unknown flags %#x", b.Flags)
	case b.StoredLen == 0:
		return errs.Corruptf("empty")
	}
	return nil
}

// valid reports whether check finds nothing wrong (the test the compiler
// inlines, for the loop over a whole block index).
func (b StoreBlock) valid() bool {
	return b.Docs != 0 && b.PlainLen >= b.Docs && (b.Flags != 0 || b.StoredLen == b.PlainLen) &&
		b.Flags <= StoreFlagZstd && b.StoredLen != 0
}

// StoreBlockBuilder collects the records of one store block. The zero value
// is ready to use; it is not safe for concurrent use.
type StoreBlockBuilder struct {
	lens  []byte // uvarint record lengths
	recs  []byte // records, back to back
	n     int
	plain []byte // the plain block assembled by Finish
	// target replaces StoreBlockTarget when > 0 (measurements in tests)
	target int
}

// Len returns the records added since the last Finish.
func (b *StoreBlockBuilder) Len() int { return b.n }

// PlainLen returns the plain length of the block so far.
func (b *StoreBlockBuilder) PlainLen() int { return len(b.lens) + len(b.recs) }

// Fits reports whether a record of n bytes may join the block: the block is
// empty, or its plain length stays within StoreBlockTarget.
func (b *StoreBlockBuilder) Fits(n int) bool {
	t := StoreBlockTarget
	if b.target > 0 {
		t = b.target
	}
	return b.n == 0 || b.PlainLen()+uvarintLen(uint64(n))+n <= t
}

// Add appends a record.
func (b *StoreBlockBuilder) Add(rec []byte) {
	b.lens = binary.AppendUvarint(b.lens, uint64(len(rec)))
	b.recs = append(b.recs, rec...)
	b.n++
}

// Trim drops the builder's buffers when they hold more than n bytes (after
// a block of a large record), so that they do not stay at their largest.
func (b *StoreBlockBuilder) Trim(n int) {
	if cap(b.lens)+cap(b.recs)+cap(b.plain) > n {
		b.lens, b.recs, b.plain = nil, nil, nil
	}
}

// Finish appends the stored block to dst (the zstd frame compress(nil, plain)
// makes when it is strictly smaller than the plain block, the plain block
// otherwise), returns it with its index entry, and resets the builder. The
// stored block is dst[len(dst)-StoredLen:].
//
// The plain block is n uvarint record lengths followed by the n records.
func (b *StoreBlockBuilder) Finish(dst []byte, compress func(dst, src []byte) []byte) ([]byte, StoreBlock) {
	var n int
	b.plain, n = b.TakePlain(b.plain)
	return AppendStoreBlock(dst, b.plain, n, compress)
}

// TakePlain writes the plain block into dst[:0] (grown as needed), resets
// the builder and returns the block and its record count.
func (b *StoreBlockBuilder) TakePlain(dst []byte) ([]byte, int) {
	dst = append(append(dst[:0], b.lens...), b.recs...)
	n := b.n
	b.lens, b.recs, b.n = b.lens[:0], b.recs[:0], 0
	return dst, n
}

// AppendStoreBlock appends the stored form of the plain block of docs
// records to dst (the zstd frame compress(dst, plain) appends when it is
// strictly smaller than plain, plain otherwise) and returns it with the
// block's index entry.
func AppendStoreBlock(dst, plain []byte, docs int, compress func(dst, src []byte) []byte) ([]byte, StoreBlock) {
	sb := StoreBlock{Docs: uint32(docs), PlainLen: uint32(len(plain))}
	start := len(dst)
	if compress != nil {
		dst = compress(dst, plain)
		if len(dst)-start < len(plain) {
			sb.Flags = StoreFlagZstd
		} else {
			dst = dst[:start]
		}
	}
	if sb.Flags == 0 {
		dst = append(dst, plain...)
	}
	sb.StoredLen = uint32(len(dst) - start)
	sb.CRC = Checksum(dst[start:])
	return dst, sb
}

// DecodeStoreBlock verifies a stored block against its entry (length, CRC,
// flags) and returns its plain bytes: stored itself for a plain block, else
// decompress(dst, stored) with dst = scratch[:0] when cap(scratch) >=
// PlainLen, a new buffer of capacity PlainLen otherwise (decompress must
// append to dst like zstd.Decoder.DecodeAll and should refuse to grow past
// its capacity). The plain length must come out exact. Errors wrap
// ErrCorrupt and name the block.
func DecodeStoreBlock(stored []byte, block int, info StoreBlock, decompress func(dst, src []byte) ([]byte, error), scratch []byte) ([]byte, error) {
	if err := info.check(); err != nil {
		return nil, fmt.Errorf("block %d: %w", block, err)
	}
	if uint64(len(stored)) != uint64(info.StoredLen) {
		return nil, errs.Corruptf("block %d: %d bytes, index says %d", block, len(stored), info.StoredLen)
	}
	if got := Checksum(stored); got != info.CRC {
		return nil, errs.Corruptf("block %d: crc %08x, index says %08x", block, got, info.CRC)
	}
	if info.Flags == 0 {
		return stored, nil
	}
	if decompress == nil {
		return nil, errs.Invalidf("block %d: compressed block and no decompressor", block)
	}
	if cap(scratch) < int(info.PlainLen) {
		scratch = make([]byte, 0, info.PlainLen)
	}
	out, err := decompress(scratch[:0], stored)
	if err != nil {
		return nil, errs.Corruptf("block %d: decompress: %v", block, err)
	}
	if len(out) != int(info.PlainLen) {
		return nil, errs.Corruptf("block %d: decompressed %d bytes, index says %d", block, len(out), info.PlainLen)
	}
	return out, nil
}

// SplitStoreBlock parses the plain block of n records and returns, appended to
// ends[:0], the n+1 offsets that delimit them: record i is
// plain[ends[i]:ends[i+1]]. The lengths must add up to exactly the bytes
// after them.
func SplitStoreBlock(plain []byte, block, n int, ends []int) ([]int, error) {
	ends = append(ends[:0], 0)
	off, sum := 0, uint64(0)
	for i := 0; i < n; i++ {
		var l uint64
		if b, next, ok := bitpack.ReadUvarint32Byte(plain, off); ok {
			l, off = uint64(b), next
		} else {
			v, next, ok := bitpack.ReadUvarint(plain, off)
			if !ok || v > uint64(len(plain)) {
				return nil, errs.Corruptf("block %d: record length %d of %d malformed", block, i, n)
			}
			l, off = v, next
		}
		sum += l
		ends = append(ends, int(sum))
	}
	if sum != uint64(len(plain)-off) {
		return nil, errs.Corruptf("block %d: %d record bytes, the lengths say %d", block, len(plain)-off, sum)
	}
	for i := range ends {
		ends[i] += off
	}
	return ends, nil
}
