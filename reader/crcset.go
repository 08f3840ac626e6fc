package reader

import (
	"sync/atomic"

	"github.com/snii-go/snii/internal/codec/format"
	"github.com/snii-go/snii/internal/codec/prx"
)

// crcSet records the checksummed regions of a mapped segment whose CRC32C a
// query verified (the .prx units and multi-unit headers, the doc windows), so
// that later queries do not compute it again: a mapped file does not change
// under the reader, so a region verified once stays verified. Verify's walk
// (fullCheck) ignores it and checks everything.
//
// One bit stands for the region starting in each 4 file bytes: two checked
// regions start at least 5 bytes apart (each holds at least one byte and its
// 4-byte CRC), so no two share a bit. The bits are allocated in chunks, each
// as a region in its 128 KiB of the file is first verified: at most a bit per
// 4 bytes of the file, 720 KB for a 23 MB segment, fewer the fewer regions
// the queries touch. It is safe for concurrent use.
type crcSet struct {
	size   int64 // the file's
	chunks []atomic.Pointer[crcChunk]
}

const (
	crcShift     = 2       // one bit per 1<<crcShift file bytes
	crcChunkBits = 1 << 15 // bits per chunk: 128 KiB of file, 4 KiB of bits
)

type crcChunk [crcChunkBits / 64]atomic.Uint64

// newCRCSet returns the set of a mapped segment of size bytes.
func newCRCSet(size int64) *crcSet {
	n := (size>>crcShift + crcChunkBits - 1) / crcChunkBits
	return &crcSet{size: size, chunks: make([]atomic.Pointer[crcChunk], n)}
}

// bit returns the chunk index and bit of the region at off (ok false: off is
// outside the file).
func (v *crcSet) bit(off int64) (int, uint, bool) {
	if off < 0 || off >= v.size {
		return 0, 0, false
	}
	b := off >> crcShift
	return int(b / crcChunkBits), uint(b % crcChunkBits), true
}

// Verified implements prx.Verified.
func (v *crcSet) Verified(off int64) bool {
	ci, i, ok := v.bit(off)
	if !ok {
		return false
	}
	c := v.chunks[ci].Load()
	return c != nil && c[i>>6].Load()>>(i&63)&1 != 0
}

// MarkVerified implements prx.Verified.
func (v *crcSet) MarkVerified(off int64) {
	ci, i, ok := v.bit(off)
	if !ok {
		return
	}
	c := v.chunks[ci].Load()
	if c == nil {
		n := new(crcChunk)
		if v.chunks[ci].CompareAndSwap(nil, n) {
			c = n
		} else {
			c = v.chunks[ci].Load()
		}
	}
	c[i>>6].Or(1 << (i & 63))
}

// verifier returns the segment's set for the query (nil: every CRC is
// computed: a segment read through a ReaderAt, whose bytes are read again
// each time, or Verify's walk).
func (x *qctx) verifier() prx.Verified {
	if x.s.crcs == nil || x.fullCheck {
		return nil
	}
	return x.s.crcs
}

// docWindowCRC returns how to decode the doc window src at file offset off:
// with its CRC computed (withCRC) unless the segment's set holds it verified,
// in which case body is src without its CRC. mark reports whether a decode
// that succeeds should record it in the set.
func (x *qctx) docWindowCRC(off uint64, src []byte) (body []byte, withCRC, mark bool) {
	v := x.verifier()
	if v != nil && len(src) > format.DocWindowCRCSize && v.Verified(int64(off)) {
		return src[:len(src)-format.DocWindowCRCSize], false, false
	}
	x.count.docCheckedBytes += int64(max(len(src)-format.DocWindowCRCSize, 0))
	return src, true, v != nil
}
