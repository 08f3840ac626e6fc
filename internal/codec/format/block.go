package format

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/snii-go/snii/internal/codec/bitpack"
	"github.com/snii-go/snii/internal/errs"
)

// Dictionary block constants.
const (
	// BlockTarget is the plain size at which a dict block is closed (the block
	// that crosses it is closed after that entry).
	BlockTarget = 64 << 10
	// AnchorEvery: every AnchorEvery-th entry (starting with the first) is an
	// anchor, stored with shared=0 and listed in the anchor offsets table.
	AnchorEvery = 16
	// MaxBlockPlainLen is the hard cap on a block's plain length; decoding
	// rejects larger claims before allocating.
	MaxBlockPlainLen = 16 << 20
	// BlockFlagZstd marks a block stored zstd-compressed.
	BlockFlagZstd = 1
)

// BlockInfo is a block directory entry.
type BlockInfo struct {
	Offset    uint64 // relative to the dict region start
	StoredLen uint32 // bytes in the file
	PlainLen  uint32 // bytes once decompressed
	Entries   uint32
	Flags     uint8 // bit 0: zstd
	CRC       uint32
}

// BlockBuilder builds one dictionary block. The zero value is ready to use; it
// is not safe for concurrent use. Terms must be added in strictly ascending
// byte order (a violation is caught by Block.Check, not by Add).
type BlockBuilder struct {
	ents    []byte   // encoded entries
	anchors []uint32 // anchor offsets within ents
	prev    []byte   // previous term
	count   int
	out     []byte // plain block assembled by Finish
	comp    []byte // compression output
}

// Add appends term with value e.
func (b *BlockBuilder) Add(term []byte, e *Entry) {
	shared := 0
	if b.count%AnchorEvery == 0 {
		b.anchors = append(b.anchors, uint32(len(b.ents)))
	} else {
		shared = commonPrefix(b.prev, term)
	}
	b.ents = binary.AppendUvarint(b.ents, uint64(shared))
	b.ents = binary.AppendUvarint(b.ents, uint64(len(term)-shared))
	b.ents = append(b.ents, term[shared:]...)
	b.ents = AppendEntry(b.ents, e)
	b.prev = append(b.prev[:0], term...)
	b.count++
}

// Count returns the number of entries added since the last Reset.
func (b *BlockBuilder) Count() int { return b.count }

// PlainLen returns the plain (uncompressed) size the block would have now.
func (b *BlockBuilder) PlainLen() int {
	return uvarintLen(uint64(b.count)) + uvarintLen(uint64(len(b.anchors))) + 4*len(b.anchors) + len(b.ents)
}

// FirstTerm returns the block's first term (an anchor's full key), or nil when
// the block is empty. It aliases the builder's memory until Reset.
func (b *BlockBuilder) FirstTerm() []byte {
	if b.count == 0 {
		return nil
	}
	_, off, _ := bitpack.ReadUvarint(b.ents, 0)
	l, off, _ := bitpack.ReadUvarint(b.ents, off)
	return b.ents[off : off+int(l) : off+int(l)]
}

// Finish assembles the block:
//
//	plain: uvarint nEntries | uvarint nAnchors | nAnchors × u32 anchorOff | entries
//
// and stores compress(dst, plain) instead when that is strictly smaller
// (compress may be nil: never compress). compress appends to dst and returns
// it, like zstd.Encoder.EncodeAll(src, dst). The returned bytes are owned by
// the builder and valid until the next Finish or Reset; info.Offset is left 0
// for the caller. Finish does not reset the builder.
func (b *BlockBuilder) Finish(compress func(dst, src []byte) []byte) (stored []byte, info BlockInfo) {
	b.out = binary.AppendUvarint(b.out[:0], uint64(b.count))
	b.out = binary.AppendUvarint(b.out, uint64(len(b.anchors)))
	for _, a := range b.anchors {
		b.out = binary.LittleEndian.AppendUint32(b.out, a)
	}
	b.out = append(b.out, b.ents...)
	stored = b.out
	info = BlockInfo{PlainLen: uint32(len(b.out)), Entries: uint32(b.count)}
	if compress != nil {
		b.comp = compress(b.comp[:0], b.out)
		if len(b.comp) < len(b.out) {
			stored = b.comp
			info.Flags = BlockFlagZstd
		}
	}
	info.StoredLen = uint32(len(stored))
	info.CRC = Checksum(stored)
	return stored, info
}

// Reset empties the builder, keeping its buffers.
func (b *BlockBuilder) Reset() {
	b.ents = b.ents[:0]
	b.anchors = b.anchors[:0]
	b.prev = b.prev[:0]
	b.count = 0
}

func commonPrefix(a, b []byte) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// Block is a decoded plain dictionary block whose header and anchor table
// were verified. Entries are decoded lazily with full bounds checks; Check
// verifies the whole block. A Block is immutable: safe for concurrent use.
type Block struct {
	plain   []byte // entries area
	anchors []byte // nAnchors × u32
	n       int    // entries
	off     uint64 // info.Offset, for messages
}

// DecodeBlock verifies and decodes a stored block. It checks len(stored) ==
// info.StoredLen, the CRC of the stored bytes, the flags, and bounds
// info.PlainLen (<= MaxBlockPlainLen) before allocating. A zstd block is
// decompressed with decompress(dst, stored), which must append to dst (like
// zstd.Decoder.DecodeAll); dst is scratch[:0] when cap(scratch) >= PlainLen, a
// new buffer of capacity PlainLen otherwise. The result must be exactly
// PlainLen bytes; decompress should itself refuse to grow far beyond cap(dst)
// (e.g. zstd.WithDecoderMaxMemory). The returned Block aliases stored (plain
// block) or the decompression output.
func DecodeBlock(stored []byte, info BlockInfo, decompress func(dst, src []byte) ([]byte, error), scratch []byte) (Block, error) {
	at := info.Offset
	if uint64(len(stored)) != uint64(info.StoredLen) {
		return Block{}, errs.Corruptf("at %d: %d bytes, directory says %d", at, len(stored), info.StoredLen)
	}
	if got := Checksum(stored); got != info.CRC {
		return Block{}, errs.Corruptf("at %d: crc %08x, want %08x", at, got, info.CRC)
	}
	if info.PlainLen == 0 || info.PlainLen > MaxBlockPlainLen {
		return Block{}, errs.Corruptf("at %d: plain length %d", at, info.PlainLen)
	}
	plain := stored
	switch info.Flags {
	case 0:
		if info.PlainLen != info.StoredLen {
			return Block{}, errs.Corruptf("at %d: plain block of %d bytes, directory says %d", at, info.StoredLen, info.PlainLen)
		}
	case BlockFlagZstd:
		if decompress == nil {
			return Block{}, errs.Invalidf("at %d: compressed block and no decompressor", at)
		}
		if cap(scratch) < int(info.PlainLen) {
			scratch = make([]byte, 0, info.PlainLen)
		}
		out, err := decompress(scratch[:0], stored)
		if err != nil {
			return Block{}, errs.Corruptf("at %d: decompress: %v", at, err)
		}
		if len(out) != int(info.PlainLen) {
			return Block{}, errs.Corruptf("at %d: decompressed %d bytes, want %d", at, len(out), info.PlainLen)
		}
		plain = out
	default:
		return Block{}, errs.Corruptf("at %d: unknown flags %#x", at, info.Flags)
	}
	r := reader{b: plain}
	n := r.uvarint()
	na := r.uvarint()
	if !r.ok() || n == 0 || n != uint64(info.Entries) || na != (n+AnchorEvery-1)/AnchorEvery || na > uint64(r.remaining())/4 {
		return Block{}, errs.Corruptf("at %d: %d entries, %d anchors (directory says %d entries)", at, n, na, info.Entries)
	}
	b := Block{n: int(n), off: at}
	b.anchors = r.bytes(4 * na)
	b.plain = plain[r.off:len(plain):len(plain)]
	prev := -1
	for i := 0; i < int(na); i++ {
		a := int64(binary.LittleEndian.Uint32(b.anchors[4*i:]))
		if a <= int64(prev) || a >= int64(len(b.plain)) || (i == 0 && a != 0) {
			return Block{}, errs.Corruptf("at %d: anchor %d offset %d out of order or bounds", at, i, a)
		}
		prev = int(a)
	}
	return b, nil
}

// Len returns the number of entries.
func (b *Block) Len() int { return b.n }

func (b *Block) anchor(i int) int { return int(binary.LittleEndian.Uint32(b.anchors[4*i:])) }

func (b *Block) numAnchors() int { return len(b.anchors) / 4 }

// groupEnd returns the end offset of anchor group i's entries.
func (b *Block) groupEnd(i int) int {
	if i+1 < b.numAnchors() {
		return b.anchor(i + 1)
	}
	return len(b.plain)
}

// anchorKey returns the full key of anchor i.
func (b *Block) anchorKey(i int) ([]byte, error) {
	off := b.anchor(i)
	src := b.plain[:b.groupEnd(i)]
	// The common case without a call: shared 0 and a one-byte length (the
	// binary search reads an anchor key per step).
	if off >= 0 && off+1 < len(src) && src[off] == 0 && src[off+1] < 0x80 {
		if n, k := int(src[off+1]), off+2; n <= len(src)-k {
			return src[k : k+n : k+n], nil
		}
	}
	r := reader{b: src, off: off}
	shared := r.uvarint()
	key := r.bytes(r.uvarint())
	if !r.ok() || shared != 0 {
		return nil, errs.Corruptf("at %d: anchor %d malformed", b.off, i)
	}
	return key, nil
}

// FirstTerm returns the block's first term (aliasing the block), for checks
// against the sampled term index.
func (b *Block) FirstTerm() ([]byte, error) { return b.anchorKey(0) }

// findGroup returns the last anchor group whose key is <= term, or -1 when
// term sorts before the block's first key.
func (b *Block) findGroup(term []byte) (int, error) {
	lo, hi := 0, b.numAnchors() // invariant: key(lo-1) <= term < key(hi)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		k, err := b.anchorKey(m)
		if err != nil {
			return 0, err
		}
		if bytes.Compare(k, term) <= 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo - 1, nil
}

// Seek looks term up. When found it decodes the entry into e (Docs and Frame
// alias the block). It binary-searches the anchors, then scans at most
// AnchorEvery entries, comparing front-coded keys without rebuilding them.
func (b *Block) Seek(term []byte, e *Entry) (found bool, err error) {
	g, err := b.findGroup(term)
	if err != nil || g < 0 {
		return false, err
	}
	end := b.groupEnd(g)
	src := b.plain[:end]
	off := b.anchor(g)
	// lcp = common prefix of the previous key and term; prevLen its length.
	// While scanning, the previous key is < term.
	lcp, prevLen := 0, 0
	for k := 0; k < AnchorEvery && off < end; k++ {
		var shared, sl uint64
		var o int
		ok1, ok2 := true, true
		if off+1 < len(src) && src[off] < 0x80 && src[off+1] < 0x80 { // the common case, without a call
			shared, sl, o = uint64(src[off]), uint64(src[off+1]), off+2
		} else {
			shared, o, ok1 = bitpack.ReadUvarint(src, off)
			sl, o, ok2 = bitpack.ReadUvarint(src, o)
		}
		if !ok1 || !ok2 || sl > uint64(end-o) || shared > uint64(prevLen) {
			return false, errs.Corruptf("at %d: entry %d key malformed", b.off, g*AnchorEvery+k)
		}
		suffix := src[o : o+int(sl)]
		o += int(sl)
		s := int(shared)
		var c int
		if s <= lcp {
			// key = term[:s] + suffix
			rest := term[s:]
			p := commonPrefix(suffix, rest)
			lcp = s + p
			switch { // bytes.Compare(suffix, rest), from their common prefix
			case p < len(suffix) && p < len(rest):
				c = int(suffix[p]) - int(rest[p])
			default:
				c = len(suffix) - len(rest)
			}
		} else {
			c = -1 // key shares prevKey[:lcp+1] and prevKey < term at byte lcp
		}
		prevLen = s + len(suffix)
		if c == 0 {
			if _, err := DecodeEntry(src[o:], e); err != nil {
				return false, fmt.Errorf("at %d: entry %d (%q): %w", b.off, g*AnchorEvery+k, term, err)
			}
			return true, nil
		}
		if c > 0 {
			return false, nil
		}
		n, err := skipEntry(src[o:])
		if err != nil {
			return false, fmt.Errorf("at %d: entry %d: %w", b.off, g*AnchorEvery+k, err)
		}
		off = o + n
	}
	return false, nil
}

// BlockIter walks the entries of a block in order.
type BlockIter struct {
	b       *Block
	i       int // entries returned so far
	off     int
	key     []byte
	pending bool // SeekGE has decoded entry i-1 into key/ent and not returned it
	ent     Entry
	err     error
}

// Iter returns an iterator over all entries.
func (b *Block) Iter() BlockIter { return BlockIter{b: b} }

// Next decodes the next entry into e and returns its term, valid until the
// next call. ok is false at the end or on error. Next verifies anchors
// (shared=0, anchor offsets), shared <= previous key length, strictly
// ascending keys and, at the end, that the entries fill the block exactly.
func (it *BlockIter) Next(e *Entry) (term []byte, ok bool, err error) {
	if it.err != nil {
		return nil, false, it.err
	}
	if it.pending {
		it.pending = false
		*e = it.ent
		return it.key, true, nil
	}
	if it.b == nil || it.i >= it.b.n {
		if it.b != nil && it.off != len(it.b.plain) {
			it.err = errs.Corruptf("at %d: %d bytes after the last entry", it.b.off, len(it.b.plain)-it.off)
			return nil, false, it.err
		}
		return nil, false, nil
	}
	if err := it.step(e); err != nil {
		it.err = err
		return nil, false, err
	}
	return it.key, true, nil
}

func (it *BlockIter) step(e *Entry) error {
	b := it.b
	i := it.i
	src := b.plain
	if i%AnchorEvery == 0 && it.off != b.anchor(i/AnchorEvery) {
		return errs.Corruptf("at %d: entry %d at %d, anchor table says %d", b.off, i, it.off, b.anchor(i/AnchorEvery))
	}
	shared, o, ok1 := bitpack.ReadUvarint(src, it.off)
	sl, o, ok2 := bitpack.ReadUvarint(src, o)
	if !ok1 || !ok2 || sl > uint64(len(src)-o) || shared > uint64(len(it.key)) || (i%AnchorEvery == 0 && shared != 0) {
		return errs.Corruptf("at %d: entry %d key malformed", b.off, i)
	}
	suffix := src[o : o+int(sl)]
	o += int(sl)
	if i > 0 && bytes.Compare(suffix, it.key[shared:]) <= 0 {
		return errs.Corruptf("at %d: entry %d not in ascending order", b.off, i)
	}
	it.key = append(it.key[:shared], suffix...)
	n, err := DecodeEntry(src[o:], e)
	if err != nil {
		return fmt.Errorf("at %d: entry %d (%q): %w", b.off, i, it.key, err)
	}
	it.off = o + n
	it.i++
	return nil
}

// SeekGE returns an iterator whose first Next returns the first entry with a
// term >= term (or ends when there is none).
func (b *Block) SeekGE(term []byte) (BlockIter, error) {
	g, err := b.findGroup(term)
	if err != nil {
		return BlockIter{}, err
	}
	g = max(g, 0)
	it := BlockIter{b: b, i: g * AnchorEvery, off: b.anchor(g)}
	for {
		k, ok, err := it.Next(&it.ent)
		if err != nil {
			return BlockIter{}, err
		}
		if !ok {
			return it, nil
		}
		if bytes.Compare(k, term) >= 0 {
			it.pending = true
			return it, nil
		}
	}
}

// Check walks the whole block and verifies every entry (see BlockIter.Next).
func (b *Block) Check() error {
	it := b.Iter()
	var e Entry
	for {
		_, ok, err := it.Next(&e)
		if err != nil {
			return err
		}
		if !ok {
			return nil
		}
	}
}
