package intcol

import (
	"fmt"

	"github.com/ronanh/intcomp"
)

// Block is the number of values per bit-packed block.
const Block = intcomp.BitPackingBlockSize32

// Check checks that words[i:] starts with the blocks of a column of n values and
// returns the index after them and the index where the column's last block starts
// (i when the column is empty). Errors describe the problem without context;
// callers wrap them with their section and error kind.
func Check(words []uint32, i, n int) (end, last int, err error) {
	last = i
	if full := n - n%Block; full > 0 {
		end, err := header(words, i, full, 3, "bit-packed", "group")
		if err != nil {
			return 0, 0, err
		}
		q := i + 3
		for blk := 0; blk < full/Block; blk++ {
			if q >= end {
				return 0, 0, fmt.Errorf("block %d header missing", blk)
			}
			hd := words[q]
			q++
			for _, bl := range [4]uint32{hd >> 24 & 0x7f, hd >> 16 & 0x7f, hd >> 8 & 0x7f, hd & 0x7f} {
				if bl > 32 {
					return 0, 0, fmt.Errorf("block %d bit width %d", blk, bl)
				}
				q += int(bl)
			}
			if q > end {
				return 0, 0, fmt.Errorf("block %d overruns its group", blk)
			}
		}
		if q != end {
			return 0, 0, fmt.Errorf("bit-packed group has %d unused words", end-q)
		}
		i = end
	}
	r := n % Block
	if r == 0 {
		return i, last, nil
	}
	last = i
	if end, err = header(words, i, r, 2, "variable-byte", "block"); err != nil {
		return 0, 0, err
	}
	// Each value is a canonical little-endian base-128 delta of at most 5 bytes;
	// the last word is padded with 0x80.
	vals, vlen, pad := 0, 0, 0
	for _, wv := range words[i+2 : end] {
		for sh := 24; sh >= 0; sh -= 8 {
			c := byte(wv >> uint(sh))
			if vals == r {
				if c != 0x80 {
					return 0, 0, fmt.Errorf("bad padding byte %#x", c)
				}
				pad++
				continue
			}
			vlen++
			if c < 0x80 {
				if (vlen > 1 && c == 0) || (vlen == 5 && c > 0x0f) {
					return 0, 0, fmt.Errorf("value %d: bad variable-byte encoding", vals)
				}
				vals++
				vlen = 0
			} else if vlen == 5 {
				return 0, 0, fmt.Errorf("value %d: variable-byte value too long", vals)
			}
		}
	}
	if vals != r || pad > 3 {
		return 0, 0, fmt.Errorf("variable-byte block holds %d values and %d padding bytes, want %d values", vals, pad, r)
	}
	return end, last, nil
}

// Unpack decodes the n values of a column that Check accepted, starting at
// words[i:], appending to out[:0] (with cap(out) >= n intcomp does not allocate).
//
// Check has validated every header, bit width and length, so intcomp's decoders
// should not fail; they still run under recover, because a panic in a third-party
// decoder must not cross snii's API: it becomes an error.
func Unpack(words []uint32, i, n int, out []uint32) (res []uint32, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, fmt.Errorf("intcomp: %v", r)
		}
	}()
	in := words[i:]
	out = out[:0]
	if n >= Block {
		in, out = intcomp.UncompressDeltaBinPackUint32(in, out)
	}
	if n%Block != 0 {
		_, out = intcomp.UncompressDeltaVarByteUint32(in, out)
	}
	if len(out) != n {
		return nil, fmt.Errorf("column decoded to %d values, want %d", len(out), n)
	}
	return out, nil
}

// header checks the header at words[i] of a part of a column (a bit-packed
// group or the variable-byte block): its value count, which must be n, and
// its length in words, which must cover its own hdr header words and stay
// within words. It returns the index after the part.
func header(words []uint32, i, n, hdr int, kind, part string) (end int, err error) {
	if len(words)-i < hdr {
		return 0, fmt.Errorf("%s header truncated", kind)
	}
	if int64(words[i]) != int64(n) {
		return 0, fmt.Errorf("%s %s of %d values, want %d", kind, part, words[i], n)
	}
	inlen := int64(words[i+1])
	if inlen < int64(hdr) || inlen > int64(len(words)-i) {
		return 0, fmt.Errorf("%s %s length %d out of range", kind, part, inlen)
	}
	return i + int(inlen), nil
}
