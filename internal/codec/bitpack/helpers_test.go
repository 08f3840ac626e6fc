package bitpack

import (
	"encoding/binary"
	"math/bits"
)

// refParams tries every width and keeps the smallest block: at most 3
// exceptions in a one-byte token, or at most MaxExceptions with a width of at
// most 30 in a two-byte token; ties: fewer exceptions, then the smaller width.
func refParams(vals []uint32) (w uint, nx, size int) {
	size = -1
	for cw := uint(0); cw <= 32; cw++ {
		n, s := 0, 1+(len(vals)*int(cw)+7)/8
		for _, v := range vals {
			if bits.Len32(v) > int(cw) {
				n++
				s += 1 + len(binary.AppendUvarint(nil, uint64(v>>cw)))
			}
		}
		if n > 3 {
			if n > MaxExceptions || cw > 30 {
				continue
			}
			s++ // the count byte
		}
		if size < 0 || s < size || (s == size && n < nx) {
			w, nx, size = cw, n, s
		}
	}
	return w, nx, size
}

// refPackBlock packs vals bit by bit.
func refPackBlock(dst []byte, vals []uint32) []byte {
	w, nx, _ := refParams(vals)
	if nx <= 3 {
		dst = append(dst, byte(w)|byte(nx)<<6)
	} else {
		dst = append(dst, byte(33+w), byte(nx))
	}
	nbits := len(vals) * int(w)
	packed := make([]byte, (nbits+7)/8)
	for i, v := range vals {
		for b := 0; b < int(w); b++ {
			if v>>b&1 != 0 {
				bit := i*int(w) + b
				packed[bit/8] |= 1 << (bit % 8)
			}
		}
	}
	dst = append(dst, packed...)
	for i, v := range vals {
		if w < 32 && v>>w != 0 {
			dst = append(dst, byte(i))
			dst = binary.AppendUvarint(dst, uint64(v>>w))
		}
	}
	return dst
}
