package bitpack

import (
	"encoding/binary"
	"math/bits"
)

const maxUint32 = 1<<32 - 1

// UvarintLen32 returns the length of the uvarint encoding of v (1..5).
func UvarintLen32(v uint32) int {
	return (bits.Len32(v|1) + 6) / 7
}

// ReadUvarint decodes the canonical uvarint at b[p:]. It returns the value and
// the index after it; ok is false when b ends first, the value overflows 64
// bits, or the encoding is longer than needed (a multi-byte varint whose last
// byte is 0): every uvarint snii reads has exactly one valid encoding.
func ReadUvarint(b []byte, p int) (v uint64, next int, ok bool) {
	if v, q, ok := ReadUvarint32Short(b, p); ok {
		return uint64(v), q, true
	}
	if p >= len(b) {
		return 0, p, false
	}
	v, n := binary.Uvarint(b[p:])
	if n <= 0 || b[p+n-1] == 0 {
		return 0, p, false
	}
	return v, p + n, true
}

// ReadUvarint32 decodes the canonical uvarint at b[p:] whose value fits in uint32
// (ReadUvarint's rule with a 32-bit range).
// It returns the value and the index after it; ok is false when b ends first, the
// value overflows uint32, or the encoding is longer than needed.
func ReadUvarint32(b []byte, p int) (v uint32, next int, ok bool) {
	if v, q, ok := ReadUvarint32Short(b, p); ok {
		return v, q, true
	}
	return ReadUvarint32Slow(b, p)
}

// ReadUvarint32Short is the one- and two-byte cases of ReadUvarint32, small
// enough to inline: ok is false when b[p:] is empty or its uvarint is not one
// of one byte or a canonical one of two (second byte 1..127);
// ReadUvarint32Slow then decides. Most lengths, offsets and spans snii reads
// take one or two bytes.
func ReadUvarint32Short(b []byte, p int) (v uint32, next int, ok bool) {
	if p+1 < len(b) {
		if c, d := b[p], b[p+1]; c < 0x80 {
			return uint32(c), p + 1, true
		} else if d-1 < 0x7f {
			return uint32(c&0x7f) | uint32(d)<<7, p + 2, true
		}
	} else if p < len(b) && b[p] < 0x80 {
		return uint32(b[p]), p + 1, true
	}
	return 0, p, false
}

// ReadUvarint32Byte is ReadUvarint32's one-byte case, which the compiler
// inlines (ReadUvarint32 it does not, for its call): ok is false when b[p:]
// is empty or its uvarint takes more bytes; ReadUvarint32Slow then decides.
// Loops over many uvarints that are mostly one byte call it first.
func ReadUvarint32Byte(b []byte, p int) (v uint32, next int, ok bool) {
	if p < len(b) && b[p] < 0x80 {
		return uint32(b[p]), p + 1, true
	}
	return 0, p, false
}

// ReadUvarint32Slow is the checked multi-byte decoder behind ReadUvarint32.
func ReadUvarint32Slow(b []byte, p int) (v uint32, next int, ok bool) {
	for i := 0; i < 5; i++ {
		if p+i >= len(b) {
			return 0, p, false
		}
		c := b[p+i]
		if i == 4 && c > 0x0f { // a fifth byte may hold only the top 4 bits
			return 0, p, false
		}
		v |= uint32(c&0x7f) << (7 * i)
		if c < 0x80 {
			if c == 0 && i > 0 { // overlong: a trailing zero group
				return 0, p, false
			}
			return v, p + i + 1, true
		}
	}
	return 0, p, false
}

// AppendUvarint appends the uvarint encoding of v.
func AppendUvarint(dst []byte, v uint32) []byte {
	for v >= 0x80 {
		dst = append(dst, byte(v)|0x80)
		v >>= 7
	}
	return append(dst, byte(v))
}
