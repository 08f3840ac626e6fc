package bitpack

import (
	"encoding/binary"
	"math/bits"
)

// BlockLen is the number of values in a full position (or term-frequency) block;
// the last block of a column may hold fewer.
const BlockLen = 128

// BlockShift is log2(BlockLen).
const BlockShift = 7

// A packed block's token is one byte. In its short form (bits 0..5 at most
// 32) they are the width and bits 6..7 the exception count (0..3). In its
// long form (segment format 7) bits 0..5 are longForm plus the width (0..30),
// bits 6..7 are 0, and a byte with the exception count (0..MaxExceptions)
// follows: a block may patch more of its values than a token has room to
// count.
const (
	// shortExceptions is the most exceptions of a short token.
	shortExceptions = 3
	// MaxExceptions is the most values of a packed block stored as
	// exceptions (a long token).
	MaxExceptions = 32
	// longForm is the width field of a long token of width 0.
	longForm = 33
	// maxLongWidth is the largest width of a long token.
	maxLongWidth = 63 - longForm
)

// Params chooses the bit width and the exception count of a packed block of
// vals (1..BlockLen values): the smallest block over every width 0..32, with at
// most shortExceptions values over the width, or at most MaxExceptions in a
// long token (width at most maxLongWidth, one byte more); on a tie the fewer
// exceptions, then the smaller width. An exception is a value that does not
// fit in w bits and costs its index byte and the uvarint of its high bits, whose
// length follows from its bit length: the sizes come from a histogram of the
// values' bit lengths.
func Params(vals []uint32) (w uint, nx int, size int) {
	var h [33]int   // values by bit length
	var lens uint64 // bit b: a value of bit length b
	for _, v := range vals {
		l := bits.Len32(v)
		h[l]++
		lens |= 1 << l
	}
	top := bits.Len64(lens) - 1 // the largest bit length
	c := len(vals)
	size = -1
	over, cost := 0, 0 // exceptions over width cw, and their bytes
	// From the largest bit length down (a wider block is only larger, with
	// no exception either): each narrower width makes the values of bit
	// length cw+1 exceptions and adds a byte to every high part that grows
	// past a multiple of 7 bits. Exceptions only grow as the width narrows:
	// past MaxExceptions no narrower width can take them.
	for cw := top; cw >= 0; cw-- {
		if cw < top {
			over += h[cw+1]
			cost += 2 * h[cw+1] // index byte and a one-byte high part
			for b := cw + 8; b <= top; b += 7 {
				cost += h[b] // (b-cw) bits: one more uvarint byte from 8, 15, 22, 29
			}
		}
		s := 1 + (c*cw+7)/8 + cost
		switch {
		case over <= shortExceptions:
		case over <= MaxExceptions && cw <= maxLongWidth:
			s++
		case over > MaxExceptions:
			return w, nx, size
		default:
			continue
		}
		if size < 0 || s < size || (s == size && over <= nx) {
			w, nx, size = uint(cw), over, s
		}
	}
	return w, nx, size
}

// Append appends the packed block of vals (1..BlockLen values) with its
// canonical parameters (Params) and returns the extended slice.
func Append(dst []byte, vals []uint32) []byte {
	w, nx, _ := Params(vals)
	return AppendBlock(dst, vals, w, nx)
}

// AppendBlock appends the packed block of vals with width w and nx exceptions
// (as chosen by Params):
//
//	u8 token: w | nx<<6 (nx <= 3), or longForm+w then u8 nx |
//	ceil(len(vals)*w/8) bytes: the low w bits of each value, least significant
//	bit first | nx × (u8 index, uvarint value>>w)
func AppendBlock(dst []byte, vals []uint32, w uint, nx int) []byte {
	if nx <= shortExceptions {
		dst = append(dst, byte(w)|byte(nx)<<6)
	} else {
		dst = append(dst, byte(longForm+w), byte(nx))
	}
	if w > 0 {
		mask := uint64(1)<<w - 1
		var acc uint64
		var nb uint
		for _, v := range vals {
			acc |= (uint64(v) & mask) << nb
			nb += w
			for nb >= 8 {
				dst = append(dst, byte(acc))
				acc >>= 8
				nb -= 8
			}
		}
		if nb > 0 {
			dst = append(dst, byte(acc))
		}
	}
	if nx > 0 {
		for i, v := range vals {
			if hi := v >> w; w < 32 && hi != 0 {
				dst = append(dst, byte(i))
				dst = AppendUvarint(dst, hi)
			}
		}
	}
	return dst
}

// Unpack decodes the packed block of len(out) values at src[p:] into out and
// returns the index after it; ok is false for a malformed block (width above 32,
// truncated, exception index out of order or range, an exception that does not
// overflow w bits or overflows uint32).
func Unpack(src []byte, p int, out []uint32) (next int, ok bool) {
	if p >= len(src) {
		return p, false
	}
	w, nx, p, ok := ReadToken(src, p)
	if !ok {
		return p, false
	}
	c := len(out)
	nbytes := (c*int(w) + 7) / 8
	if nbytes > len(src)-p {
		return p, false
	}
	if haveAVX2 && c == BlockLen && w-1 < vecMaxWidth && nbytes+vecSlack <= len(src)-p {
		unpackVec(src[p:], w, out) // a whole block with slack: the kernel alone
	} else {
		UnpackBits(src[p:], w, out)
	}
	p += nbytes
	last := -1
	if nx > 0 && w == 32 {
		return p, false
	}
	maxHi := uint32(maxUint32 >> w)
	for i := 0; i < nx; i++ {
		if p >= len(src) {
			return p, false
		}
		idx := int(src[p])
		hi, q, vok := ReadUvarint32Byte(src, p+1)
		if !vok {
			hi, q, vok = ReadUvarint32Slow(src, p+1)
		}
		// last < idx < c and 0 < hi <= maxHi, one unsigned compare each.
		if !vok || uint(idx-last-1) >= uint(c-last-1) || hi-1 >= maxHi {
			return p, false
		}
		out[idx] |= hi << w
		last, p = idx, q
	}
	return p, true
}

// ReadToken reads the token of the packed block at src[p:] (p < len(src)):
// its width and exception count, and the index of its fields; ok is false
// for a width over 32, a long token with bits 6..7 set, its count byte
// missing or over MaxExceptions.
func ReadToken(src []byte, p int) (w uint, nx, next int, ok bool) {
	tok := src[p]
	w = uint(tok & 0x3f)
	if w <= 32 {
		return w, int(tok >> 6), p + 1, true
	}
	if tok>>6 != 0 || p+1 >= len(src) || src[p+1] > MaxExceptions { // (w is longForm..63)
		return 0, 0, p, false
	}
	return w - longForm, int(src[p+1]), p + 2, true
}

// Skip returns the index after the packed block of c values at src[p:]
// without decoding it (ok false when its header or exceptions are malformed).
func Skip(src []byte, p, c int) (next int, ok bool) {
	if p >= len(src) {
		return p, false
	}
	w, nx, p, ok := ReadToken(src, p)
	if !ok {
		return p, false
	}
	p += (c*int(w) + 7) / 8
	if nx > 0 && oneByteExceptions(src, p, nx) {
		return p + 2*nx, true
	}
	for i := 0; i < nx; i++ {
		if p >= len(src) {
			return p, false
		}
		_, q, vok := ReadUvarint32Byte(src, p+1)
		if !vok {
			if _, q, vok = ReadUvarint32Slow(src, p+1); !vok {
				return p, false
			}
		}
		p = q
	}
	return p, p <= len(src)
}

// oneByteExceptions reports whether the nx exceptions at src[p:] are all
// one byte of index and a one-byte high part: the 2*nx bytes there are in
// src and none has its high bit set (8 bytes at a time). Skip then passes
// them at once, as its loop would.
func oneByteExceptions(src []byte, p, nx int) bool {
	n := 2 * nx
	if n > len(src)-p {
		return false
	}
	b := src[p : p+n]
	var or uint64
	for len(b) >= 8 {
		or |= binary.LittleEndian.Uint64(b)
		b = b[8:]
	}
	for _, x := range b {
		or |= uint64(x)
	}
	return or&0x8080808080808080 == 0
}

// UnpackBits sets out[i] to the i-th w-bit field of src (least significant bit
// first); the fields take the first ceil(len(out)*w/8) bytes of src, which may
// go on (the bytes after them are read, never used).
//
// Every field is read with one 8-byte load, so the fields need 8 bytes after
// them: when src ends sooner, a block (at most BlockLen fields) is copied into
// a buffer with that slack first. Eight fields of up to 8 bits fill exactly w
// bytes (one load), eight of up to 15 bits two loads (the second four start 4w
// bits in, within 7 bits of a byte), wider fields one load each.
func UnpackBits(src []byte, w uint, out []uint32) {
	if w == 0 {
		clear(out)
		return
	}
	for len(out) > BlockLen { // a longer run, a block (16w bytes) at a time
		UnpackBits(src, w, out[:BlockLen])
		src, out = src[BlockLen/8*w:], out[BlockLen:]
	}
	if n := (len(out)*int(w) + 7) / 8; n+vecSlack <= len(src) {
		unpackSlack(src, w, out)
	} else {
		var buf [BlockLen*4 + vecSlack]byte
		copy(buf[:], src[:n])
		unpackSlack(buf[:], w, out)
	}
}

//go:generate go run gen_unpack.go -o unpack_gen.go

// unpackSlack is UnpackBits when src holds 8 bytes after the fields: the
// groups of eight fields by the vector unpacker (unpackvec.go) when the CPU
// has it, the width is at most vecMaxWidth and src holds vecSlack bytes after
// them, else by the unpacker generated for the width (one function per width,
// every shift and mask a constant); the rest one at a time.
func unpackSlack(src []byte, w uint, out []uint32) {
	i := len(out) &^ 7
	if haveAVX2 && w <= vecMaxWidth && i > 0 && i/8*int(w)+vecSlack <= len(src) {
		unpackVec(src, w, out[:i])
	} else if !unpackFixed(src, w, out[:i]) {
		i = 0
	}
	mask := uint64(1)<<w - 1
	for bit := uint(i) * w; i < len(out); i++ {
		out[i] = uint32(binary.LittleEndian.Uint64(src[bit>>3:]) >> (bit & 7) & mask)
		bit += w
	}
}
