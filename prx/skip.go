package prx

import (
	"encoding/binary"
	"math/bits"
)

// shortRecord is the largest position count skipRecords skips byte by byte.
const shortRecord = 2

const (
	lsb8 = 0x0101010101010101 // the low bit of every byte
	msb8 = 0x8080808080808080 // the high bit of every byte
)

// skipRecords skips up to n document records of a plain payload starting at
// src[p:] (a record: uvarint pos_count, then pos_count uvarints) and returns where
// it stopped, the records skipped and their positions. Records of at most
// shortRecord positions that end within the next eight bytes are walked byte by
// byte; longer ones are skipped eight bytes at a time, which avoids the
// mispredicted loop exit of a byte-wise walk over a long, irregular record.
//
// A byte below 0x80 ends a uvarint, so a record with a one-byte count c ends at
// its (c+1)-th such byte. For each word w the bytes that end a uvarint are
// t = (^w >> 7) & lsb8 (0 or 1 per byte); t*lsb8 holds in byte i the running
// count over bytes 0..i (at most 8, so no byte carries into the next) and in its
// top byte the word's count; the first byte whose running count reaches k is
// found by adding 0x80-k to every byte and taking the lowest high bit.
//
// It stops early, leaving the record to the byte-wise loop (which reports the
// errors), at a record whose count takes more than one byte or whose end is not
// within the last whole word of src. Like that loop it does not check that the
// skipped uvarints are canonical: the CRC covers them.
func skipRecords(src []byte, p, n int) (next, docs, positions int) {
	for docs < n && p+8 <= len(src) {
		if c := int(src[p]); c <= shortRecord {
			// A short record: byte by byte is quicker (its branches predict well
			// and the next record's address does not wait on a multiply).
			q, left := p+1, c
			for ; left > 0 && q < p+8; q++ {
				left -= int(^src[q] >> 7)
			}
			if left == 0 {
				p = q
				docs++
				positions += c
				continue
			} // else longer than the word: the general path below
		}
		w := binary.LittleEndian.Uint64(src[p:])
		pc := int(w & 0xff)
		if pc >= 0x80 {
			break
		}
		k := uint64(pc + 1) // uvarint ends to pass, the count's own included
		q := p
		for {
			s := ((^w >> 7) & lsb8) * lsb8
			if c := s >> 56; c < k {
				k -= c
				q += 8
				if q+8 > len(src) {
					return p, docs, positions
				}
				w = binary.LittleEndian.Uint64(src[q:])
				continue
			}
			q += bits.TrailingZeros64((s+(0x80-k)*lsb8)&msb8)>>3 + 1
			break
		}
		p = q
		docs++
		positions += pc
	}
	return p, docs, positions
}
