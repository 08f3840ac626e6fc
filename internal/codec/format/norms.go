package format

import (
	"math/bits"

	"github.com/snii-go/snii/internal/errs"
)

// Norms: one byte per document per field holding the document's field
// length (its indexed tokens) in a lossy one-byte code. The code is the one
// Lucene 8 uses for its BM25 norms, so that scores computed from it agree with
// Lucene's: lengths below NormExact are stored exactly; longer lengths L store
// L - NormExact as a small float with a 3-bit mantissa (an implicit leading 1)
// and a 5-bit exponent, rounded down, and decode to the smallest length of
// their bucket. The byte order of codes is the order of lengths, so a larger
// code never decodes to a shorter length.
//
//	code c < 24:  length c
//	code c >= 24: v = c - 24; e = v >> 3; m = v & 7
//	              e == 0: length 24 + m
//	              e >= 1: length 24 + ((8 | m) << (e - 1))
//
// The section is docCount bytes, byte d being document d's code (0 for a
// document without the field), protected by a CRC32C kept in the metadata
// group.

// NormExact is the number of lengths (0 .. NormExact-1) a norm byte stores
// exactly.
const NormExact = 24

// EncodeNorm returns the norm byte of a field length. Lengths over 2^31-1
// saturate (they are rounded down like any other).
func EncodeNorm(length uint64) byte {
	if length < NormExact {
		return byte(length)
	}
	if length > 1<<31-1 {
		length = 1<<31 - 1
	}
	v := length - NormExact
	nb := bits.Len64(v)
	if nb < 4 { // no implicit bit: the value is its own mantissa
		return byte(NormExact + v)
	}
	shift := nb - 4
	m := (v >> uint(shift)) & 7
	return byte(NormExact + (uint64(shift+1)<<3 | m))
}

// DecodeNorm returns the field length a norm byte stands for (the smallest
// length encoding to it).
func DecodeNorm(b byte) uint32 { return normLengths[b] }

var normLengths = func() (t [256]uint32) {
	for c := range t {
		if c < NormExact {
			t[c] = uint32(c)
			continue
		}
		v := uint32(c - NormExact)
		e, m := v>>3, v&7
		if e == 0 {
			t[c] = NormExact + m
		} else {
			t[c] = NormExact + (8|m)<<(e-1)
		}
	}
	return t
}()

// CheckNorms checks a norms section read from a segment: its length must be
// the segment's document count and its CRC32C the one the metadata records.
func CheckNorms(b []byte, docCount uint64, crc uint32) error {
	if uint64(len(b)) != docCount {
		return errs.Corruptf("%d bytes for %d documents", len(b), docCount)
	}
	if got := Checksum(b); got != crc {
		return errs.Corruptf("crc32c %#08x, metadata says %#08x", got, crc)
	}
	return nil
}

// NormsEnd returns where the norms end when the field has some, else where its
// dict region ends. The pair section starts there.
func (m *IndexMeta) NormsEnd() uint64 {
	if m.HasNorms {
		return m.NormsOff + m.DocCount
	}
	return m.DictOff + m.DictLen
}
