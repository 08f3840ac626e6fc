package format

import (
	"encoding/binary"
	"math"
	"math/bits"
	"slices"

	"github.com/snii-go/snii/internal/codec/bitpack"
	"github.com/snii-go/snii/internal/errs"
)

// DocEncBlocked is the doc window encoding of format 4 for the windows of a
// windowed term holding more than DocBlockLen docs: a directory of 128-doc
// blocks (each block's last doc and impact bound), then the blocks, each a
// packed block of doc gaps decodable on its own.
const DocEncBlocked = 2

// DocBlockLen is the number of docs in a block of a blocked doc window (the
// last block may hold fewer).
const DocBlockLen = bitpack.BlockLen

// BlockedMinDocs is the smallest window a writer stores blocked: a window of
// one block gains nothing from a directory.
const BlockedMinDocs = DocBlockLen + 1

// MaxImpacts is the most impacts a block's directory entry holds.
const MaxImpacts = 4

// Impact is a (term frequency, norm byte) pair of a block's impact bound.
type Impact struct {
	TF   uint32
	Norm byte
}

// DocBlock is one block of a blocked doc window, as its directory gives it.
type DocBlock struct {
	Base uint32 // the smallest doc the block may hold: the previous block's Last + 1, or the window's base
	Last uint32 // the block's last doc (the last block: the window's last doc as the caller knows it, or MaxUint32)
	// Impacts[:NImpacts] bound the block's docs: every doc's (tf, norm) is
	// dominated by one of them (a frequency at most its TF and a norm at
	// least its Norm). Ascending in TF and in Norm, both strictly.
	Impacts  [MaxImpacts]Impact
	NImpacts int32
	Ord      int32 // ordinal of the block's first doc in the window
	Docs     int32 // docs in the block
	off      int32 // offset of the packed block in the window body
}

// BlockImpacts returns the impacts of a block's docs (tf[i] and, when norms
// is not nil, norms[docs[i]]; else norm 0): the (tf, norm) pairs no other
// pair of the block dominates (a larger or equal tf with a smaller or equal
// norm), ascending; while there are more than MaxImpacts, the two adjacent
// pairs closest in tf (the first such) are replaced by the pair of the larger
// tf and the smaller norm, which dominates both. dst is reused.
func BlockImpacts(docs, tf []uint32, norms []byte, dst []Impact) []Impact {
	dst = dst[:0]
	if len(docs) == 0 {
		return dst
	}
	if norms == nil {
		dst = append(dst, Impact{slices.Max(tf), 0})
	} else {
		// The largest tf of each norm; walking the norms up, a norm's pair is
		// undominated when its tf passes every tf of the smaller norms.
		var best [256]uint32
		var seen [4]uint64
		for i, d := range docs {
			n := norms[d]
			best[n] = max(best[n], tf[i])
			seen[n>>6] |= 1 << (n & 63)
		}
		var top uint32
		for w, set := range seen {
			for ; set != 0; set &= set - 1 {
				n := w<<6 | bits.TrailingZeros64(set)
				if t := best[n]; len(dst) == 0 || t > top {
					dst = append(dst, Impact{t, byte(n)})
					top = t
				}
			}
		}
	}
	for len(dst) > MaxImpacts {
		m := 0
		for i := 1; i+1 < len(dst); i++ {
			if dst[i+1].TF-dst[i].TF < dst[m+1].TF-dst[m].TF {
				m = i
			}
		}
		dst[m+1].Norm = dst[m].Norm
		dst = slices.Delete(dst, m, m+1)
	}
	return dst
}

// blockCount returns the number of blocks of a window of n docs.
func blockCount(n int) int { return (n + DocBlockLen - 1) / DocBlockLen }

// AppendBlocked appends the blocked doc window of docs (strictly ascending,
// >= base, more than DocBlockLen of them) to dst, with its CRC when withCRC.
// tf[i] is docs[i]'s term frequency (>= 1); norms, when not nil, is indexed by
// doc id (the field's norm bytes), else every norm is 0. scratch is reused for
// the gaps (and returned).
func AppendBlocked(dst []byte, docs []uint32, base uint32, tf []uint32, norms []byte, withCRC bool, scratch []uint32) ([]byte, []uint32) {
	var imp [DocBlockLen]Impact
	start := len(dst)
	dst = append(dst, DocEncBlocked)
	nb := blockCount(len(docs))
	bb := base
	for b := range nb {
		lo, hi := b*DocBlockLen, min((b+1)*DocBlockLen, len(docs))
		last := docs[hi-1]
		if b < nb-1 {
			dst = binary.AppendUvarint(dst, uint64(last-bb-(DocBlockLen-1)))
		}
		ims := BlockImpacts(docs[lo:hi], tf[lo:hi], norms, imp[:0])
		dst = append(dst, byte(len(ims)-1))
		prev := uint32(0)
		for _, p := range ims {
			dst = binary.AppendUvarint(dst, uint64(p.TF-prev-1))
			dst = append(dst, p.Norm)
			prev = p.TF
		}
		bb = last + 1
	}
	bb = base
	for b := range nb {
		lo, hi := b*DocBlockLen, min((b+1)*DocBlockLen, len(docs))
		scratch = scratch[:0]
		prev := bb
		for i := lo; i < hi; i++ {
			g := docs[i] - prev
			if i > lo {
				g--
			}
			scratch = append(scratch, g)
			prev = docs[i]
		}
		dst = bitpack.Append(dst, scratch)
		bb = docs[hi-1] + 1
	}
	if withCRC {
		dst = binary.LittleEndian.AppendUint32(dst, Checksum(dst[start:]))
	}
	return dst, scratch
}

// BlockedWindow is a parsed blocked doc window: its directory, checked, and
// the bytes of its blocks, which are checked as each is decoded.
type BlockedWindow struct {
	body   []byte // enc byte .. last block (no CRC)
	Blocks []DocBlock
	// located: Blocks[:located] have their offset (off) set. ParseBlocked
	// sets the first one; Decode finds the others as it needs them (every
	// packed block before the one it decodes is skipped over once), and the
	// last block's decode checks that the blocks fill the body.
	located int
}

// IsBlocked reports whether the doc window src (either form) is blocked.
func IsBlocked(src []byte) bool { return len(src) > 0 && src[0] == DocEncBlocked }

// ParseBlocked parses the blocked doc window src of n docs after base, last
// being its last doc when the caller knows it (from the prelude; MaxUint32
// otherwise). It checks the CRC (withCRC) and the directory (every block's
// last doc ascending and within uint32, room for its docs, and, with impacts,
// the blocks' impacts; without, they are skipped over and NImpacts is 0); the
// blocks are located and checked as they are decoded (Decode; Locate walks
// them all). dst is reused for the directory. Errors wrap snii.ErrCorrupt.
func ParseBlocked(src []byte, n int, base, last uint32, withCRC, impacts bool, dst []DocBlock) (BlockedWindow, error) {
	body := src
	if withCRC {
		if len(src) < 1+DocWindowCRCSize {
			return BlockedWindow{}, errs.Corruptf("%d bytes, too short", len(src))
		}
		body = src[:len(src)-DocWindowCRCSize]
		if got, want := Checksum(body), binary.LittleEndian.Uint32(src[len(body):]); got != want {
			return BlockedWindow{}, errs.Corruptf("crc %08x, want %08x", got, want)
		}
	}
	if len(body) < 1 || body[0] != DocEncBlocked {
		return BlockedWindow{}, errs.Corruptf("not blocked")
	}
	if n <= DocBlockLen {
		return BlockedWindow{}, errs.Corruptf("blocked with %d docs", n)
	}
	nb := blockCount(n)
	// Every block takes at least 2 directory bytes and a 1-byte token.
	if nb > (len(body)-1)/3 {
		return BlockedWindow{}, errs.Corruptf("%d blocks in %d bytes", nb, len(body))
	}
	if cap(dst) < nb {
		dst = make([]DocBlock, nb)
	}
	blks := dst[:nb]
	r := reader{b: body, off: 1}
	bb := uint64(base)
	for b := range blks {
		k := &blks[b]
		k.Base, k.Ord = uint32(bb), int32(b*DocBlockLen)
		k.Docs = int32(min(DocBlockLen, n-b*DocBlockLen))
		if !impacts && b < nb-1 {
			// The common entry read in place: what the code below reads
			// of it, with the same result.
			if span, q, ok := leanEntry(body, r.off); ok {
				if l := bb + span + DocBlockLen - 1; l < math.MaxUint32 {
					k.Last, k.NImpacts = uint32(l), 0
					bb, r.off = l+1, q
					continue
				}
			}
		}
		if b < nb-1 {
			span := r.uvarint()
			l := bb + span + DocBlockLen - 1
			if !r.ok() || span > math.MaxUint32 || l >= math.MaxUint32 {
				return BlockedWindow{}, errs.Corruptf("block %d last doc out of range", b)
			}
			k.Last = uint32(l)
			bb = l + 1
		} else {
			if uint64(last) < bb+uint64(k.Docs)-1 {
				return BlockedWindow{}, errs.Corruptf("last block of %d docs from %d ends at %d", k.Docs, bb, last)
			}
			k.Last = last
		}
		ni := int32(r.u8()) + 1
		if ni > MaxImpacts {
			return BlockedWindow{}, errs.Corruptf("block %d has %d impacts", b, ni)
		}
		if !impacts {
			k.NImpacts = 0
			r.skipPairs(int(ni)) // a uvarint (tf) and a byte (norm) each
		} else {
			k.NImpacts = ni
			prev := uint64(0)
			for i := range ni {
				tf := prev + r.uvarintMax(math.MaxUint32-1) + 1
				n := r.u8()
				if !r.ok() || tf > math.MaxUint32 || (i > 0 && n <= k.Impacts[i-1].Norm) {
					return BlockedWindow{}, errs.Corruptf("block %d impact %d bad", b, i)
				}
				k.Impacts[i] = Impact{uint32(tf), n}
				prev = tf
			}
		}
		if !r.ok() {
			return BlockedWindow{}, errs.Corruptf("block directory truncated at block %d", b)
		}
	}
	blks[0].off = int32(r.off)
	return BlockedWindow{body: body, Blocks: blks, located: 1}, nil
}

// leanEntry reads the directory entry of a block that is not the last at
// b[p:] when its span is a uvarint of one or two bytes and the tf of each of
// its impacts one byte, and returns the span and the offset after the entry
// (its impacts passed over); ok is false for any other entry, or one that
// does not fit in b or names over MaxImpacts impacts, which ParseBlocked's
// general reading then reads (and rejects when it is malformed).
func leanEntry(b []byte, p int) (span uint64, next int, ok bool) {
	s, p, ok := bitpack.ReadUvarint32Short(b, p)
	if !ok || p >= len(b) {
		return 0, p, false
	}
	ni := int(b[p]) + 1
	p++
	if ni > MaxImpacts || 2*ni > len(b)-p {
		return 0, p, false
	}
	// (tf, norm) pairs: every tf, the bytes at even offsets, one byte.
	if p+8 <= len(b) {
		if binary.LittleEndian.Uint64(b[p:])&(0x0080008000800080>>(16*(MaxImpacts-ni))) != 0 {
			return 0, p, false
		}
	} else {
		for i := 0; i < 2*ni; i += 2 {
			if b[p+i] >= 0x80 {
				return 0, p, false
			}
		}
	}
	return uint64(s), p + 2*ni, true
}

// locate sets the offsets of the blocks up to b (skipping over the packed
// blocks before it).
func (w *BlockedWindow) locate(b int) error {
	for w.located <= b {
		k := w.located - 1
		q, ok := bitpack.Skip(w.body, int(w.Blocks[k].off), int(w.Blocks[k].Docs))
		if !ok || q >= len(w.body) {
			return errs.Corruptf("block %d malformed", k)
		}
		w.Blocks[k+1].off = int32(q)
		w.located++
	}
	return nil
}

// Locate locates every block and checks that they fill the body exactly
// (what Decode checks of the blocks it reaches).
func (w *BlockedWindow) Locate() error {
	last := len(w.Blocks) - 1
	if err := w.locate(last); err != nil {
		return err
	}
	q, ok := bitpack.Skip(w.body, int(w.Blocks[last].off), int(w.Blocks[last].Docs))
	if !ok {
		return errs.Corruptf("block %d malformed", last)
	}
	if q != len(w.body) {
		return errs.Corruptf("%d bytes after the blocks", len(w.body)-q)
	}
	return nil
}

// Find returns the first block whose Last >= doc at or after block from, or
// len(Blocks).
func (w *BlockedWindow) Find(from int, doc uint32) int {
	b := from
	for b < len(w.Blocks) && w.Blocks[b].Last < doc {
		b++
	}
	return b
}

// Decode decodes block b's docs into dst[:0] (reused when its capacity
// allows) and returns them. It checks the packed block, that the docs ascend
// from the block's Base and that the last one is the block's Last (at most
// Last for the last block when the window's last doc is unknown). Errors wrap
// snii.ErrCorrupt.
func (w *BlockedWindow) Decode(b int, dst []uint32) ([]uint32, error) {
	k := &w.Blocks[b]
	c := int(k.Docs)
	if cap(dst) < c {
		dst = make([]uint32, c)
	}
	out := dst[:c]
	if err := w.locate(b); err != nil {
		return dst[:0], err
	}
	// Gaps are non-negative, so the docs ascend and the last is the largest:
	// one check after the prefix sum covers every doc (no uint64 overflow in
	// 128 steps of at most 2^32). d starts at Base - 1 (mod 2^64): every doc
	// is the previous one plus its gap plus 1.
	d := uint64(k.Base) - 1
	p := int(k.off)
	// The whole body goes to the unpacker: the fields are then usually
	// followed by 8 bytes, which lets them be read in place (the block's end
	// is checked after).
	next, ok := bitpack.Unpack(w.body, p, out)
	switch {
	case !ok:
		return dst[:0], errs.Corruptf("block %d malformed", b)
	case b+1 == len(w.Blocks):
		if next != len(w.body) {
			return dst[:0], errs.Corruptf("%d bytes after the blocks", len(w.body)-next)
		}
	case b+1 < w.located:
		if next != int(w.Blocks[b+1].off) {
			return dst[:0], errs.Corruptf("block %d malformed", b)
		}
	case next >= len(w.body):
		return dst[:0], errs.Corruptf("block %d malformed", b)
	default: // the next block starts where this one ends
		w.Blocks[b+1].off = int32(next)
		w.located = b + 2
	}
	d = bitpack.RunningSums(out, out, d)
	if d > uint64(k.Last) {
		return dst[:0], errs.Corruptf("block %d ends at %d, past the block's last doc %d", b, d, k.Last)
	}
	if uint64(k.Last) != d && (b+1 < len(w.Blocks) || k.Last != math.MaxUint32) {
		return dst[:0], errs.Corruptf("block %d ends at %d, directory says %d", b, d, k.Last)
	}
	return out, nil
}

// decodeBlocked decodes a whole blocked window body (enc byte included, no
// CRC) of n docs into dst[:0].
func decodeBlocked(body []byte, n int, base uint32, dst []uint32) ([]uint32, error) {
	var scratch [8]DocBlock
	w, err := ParseBlocked(body, n, base, math.MaxUint32, false, false, scratch[:0])
	if err != nil {
		return dst[:0], err
	}
	if cap(dst) < n {
		dst = make([]uint32, 0, n)
	}
	dst = dst[:0]
	for b := range w.Blocks {
		got, err := w.Decode(b, dst[len(dst):cap(dst)])
		if err != nil {
			return dst[:0], err
		}
		dst = dst[:len(dst)+len(got)]
	}
	return dst, nil
}
