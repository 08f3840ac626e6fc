package format

import (
	"encoding/binary"
	"math/bits"

	"github.com/snii-go/snii/internal/codec/bitpack"
)

// uvarintLen returns the encoded length of x as an unsigned LEB128 varint.
func uvarintLen(x uint64) int {
	return (bits.Len64(x|1) + 6) / 7
}

// reader is a bounds-checked cursor over a byte slice. The first failure is
// sticky: later reads return zero values and ok() stays false.
type reader struct {
	b   []byte
	off int
	bad bool
}

func (r *reader) ok() bool { return !r.bad }

func (r *reader) remaining() int { return len(r.b) - r.off }

func (r *reader) uvarint() uint64 {
	if r.bad {
		return 0
	}
	if r.off < len(r.b) && r.b[r.off] < 0x80 { // one byte: most directory fields
		v := r.b[r.off]
		r.off++
		return uint64(v)
	}
	v, next, ok := bitpack.ReadUvarint(r.b, r.off)
	if !ok {
		r.bad = true
		return 0
	}
	r.off = next
	return v
}

// uvarintMax reads a uvarint and fails when it exceeds max.
func (r *reader) uvarintMax(max uint64) uint64 {
	v := r.uvarint()
	if v > max {
		r.bad = true
		return 0
	}
	return v
}

func (r *reader) u8() byte {
	if r.bad || r.off >= len(r.b) {
		r.bad = true
		return 0
	}
	c := r.b[r.off]
	r.off++
	return c
}

// skipPairs skips n (uvarint, byte) pairs, each uvarint checked as
// bitpack.ReadUvarint checks it (not truncated, no overflow, minimal) without
// decoding it: a doc block's impacts when the reader does not rank (the
// window directory of a frequent term holds many). It fails as the loop of
// uvarint and u8 would.
func (r *reader) skipPairs(n int) {
	if r.bad {
		return
	}
	b, off := r.b, r.off
	for range n {
		if off+1 < len(b) && b[off] < 0x80 { // a one-byte uvarint and its byte
			off += 2
			continue
		}
		s := off
		for off < len(b) && b[off] >= 0x80 && off-s < binary.MaxVarintLen64 {
			off++
		}
		// off: the uvarint's last byte (c = off-s continuation bytes before it)
		c := off - s
		if off >= len(b) || c >= binary.MaxVarintLen64 || (c > 0 && b[off] == 0) || (c == binary.MaxVarintLen64-1 && b[off] > 1) {
			r.bad = true
			return
		}
		if off += 2; off > len(b) { // past the uvarint and the byte
			r.bad = true
			return
		}
	}
	r.off = off
}

func (r *reader) u32() uint32 {
	if r.bad || len(r.b)-r.off < 4 {
		r.bad = true
		return 0
	}
	v := binary.LittleEndian.Uint32(r.b[r.off:])
	r.off += 4
	return v
}

// bytes returns the next n bytes (aliasing the input) when they exist.
func (r *reader) bytes(n uint64) []byte {
	if r.bad || n > uint64(len(r.b)-r.off) {
		r.bad = true
		return nil
	}
	s := r.b[r.off : r.off+int(n) : r.off+int(n)]
	r.off += int(n)
	return s
}
