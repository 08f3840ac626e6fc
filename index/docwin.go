package index

import (
	"encoding/binary"
	"math"

	"github.com/ronanh/intcomp"
	"github.com/snii-go/snii/internal/errs"
)

// Doc window encodings (the first byte of a doc window).
const (
	DocEncUvarint = 0 // n uvarint gaps
	DocEncIntcomp = 1 // intcomp.CompressUint32 of doc-base, as uvarint word count + words LE
)

// docWindowCRCSize is the size of a doc window's trailing CRC32C.
const docWindowCRCSize = 4

// intcompMinDocs is the smallest window for which intcomp can be smaller than
// uvarint gaps. Below one bit-packing block (128 values) intcomp falls back to
// delta variable-byte coding of doc_i-doc_{i-1} = gap+1, never shorter than
// the uvarint of gap, plus at least 12 bytes of block header and trailer; so
// smaller windows are never tried.
const intcompMinDocs = intcomp.BitPackingBlockSize32

// DocWindowEncoder encodes doc windows, reusing its scratch buffers: in steady
// state it allocates nothing. The zero value is ready to use; it is not safe
// for concurrent use.
type DocWindowEncoder struct {
	vals  []uint32
	words []uint32
}

// AppendDocWindow appends the encoded window of docs to dst and returns the
// extended slice. docs must be non-empty, strictly ascending and >= base (base
// is the previous window's last doc + 1, or 0); otherwise the result is
// unspecified and fails DecodeDocWindow. withCRC appends the CRC32C of the
// window (the stand-alone form); inline windows are written without it.
//
// The smaller of the uvarint-gap and intcomp encodings is used, uvarint on ties.
func AppendDocWindow(dst []byte, docs []uint32, base uint32, withCRC bool) []byte {
	var e DocWindowEncoder
	return e.Append(dst, docs, base, withCRC)
}

// Append is AppendDocWindow with the encoder's reusable scratch buffers.
func (e *DocWindowEncoder) Append(dst []byte, docs []uint32, base uint32, withCRC bool) []byte {
	return e.append(dst, docs, base, withCRC, -1)
}

// append encodes with encoding force (DocEncUvarint or DocEncIntcomp), or the
// smaller one when force is -1.
func (e *DocWindowEncoder) append(dst []byte, docs []uint32, base uint32, withCRC bool, force int) []byte {
	start := len(dst)
	gapLen := 0
	prev := base
	for i, d := range docs {
		g := d - prev
		if i > 0 {
			g--
		}
		gapLen += uvarintLen(uint64(g))
		prev = d
	}
	useIntcomp := force == DocEncIntcomp
	if force == DocEncIntcomp || (force < 0 && len(docs) >= intcompMinDocs) {
		e.vals = e.vals[:0]
		for _, d := range docs {
			e.vals = append(e.vals, d-base)
		}
		e.words = intcomp.CompressUint32(e.vals, e.words[:0])
		icLen := uvarintLen(uint64(len(e.words))) + 4*len(e.words)
		if force < 0 {
			useIntcomp = icLen < gapLen
		}
	}
	if useIntcomp {
		dst = append(dst, DocEncIntcomp)
		dst = binary.AppendUvarint(dst, uint64(len(e.words)))
		for _, w := range e.words {
			dst = binary.LittleEndian.AppendUint32(dst, w)
		}
	} else {
		dst = append(dst, DocEncUvarint)
		prev = base
		for i, d := range docs {
			g := d - prev
			if i > 0 {
				g--
			}
			dst = binary.AppendUvarint(dst, uint64(g))
			prev = d
		}
	}
	if withCRC {
		dst = binary.LittleEndian.AppendUint32(dst, Checksum(dst[start:]))
	}
	return dst
}

// DecodeDocWindow decodes a window of n docs written by AppendDocWindow with
// the same base and withCRC. src must be exactly the window. The docs are
// appended to dst[:0] (reused when its capacity allows; the intcomp form also
// uses capacity beyond n as scratch, so a dst with cap >= n + len(src)/4 makes
// decoding allocation-free) and returned.
//
// It checks the CRC (withCRC), exactly n docs, strictly ascending ids, no
// uint32 overflow and that every byte of src is consumed. Errors wrap
// ErrCorrupt.
func DecodeDocWindow(src []byte, n int, base uint32, withCRC bool, dst []uint32) ([]uint32, error) {
	if n < 1 {
		return dst[:0], errs.Corruptf("doc window: %d docs", n)
	}
	body := src
	if withCRC {
		if len(src) < 1+docWindowCRCSize {
			return dst[:0], errs.Corruptf("doc window: %d bytes, too short", len(src))
		}
		body = src[:len(src)-docWindowCRCSize]
		if got, want := Checksum(body), binary.LittleEndian.Uint32(src[len(body):]); got != want {
			return dst[:0], errs.Corruptf("doc window: crc %08x, want %08x", got, want)
		}
	}
	if len(body) < 2 {
		return dst[:0], errs.Corruptf("doc window: %d bytes, too short", len(body))
	}
	switch body[0] {
	case DocEncUvarint:
		return decodeGaps(body[1:], n, base, dst)
	case DocEncIntcomp:
		return decodeIntcomp(body[1:], n, base, dst)
	}
	return dst[:0], errs.Corruptf("doc window: unknown encoding %d", body[0])
}

func decodeGaps(b []byte, n int, base uint32, dst []uint32) ([]uint32, error) {
	if n > len(b) { // every gap takes at least one byte
		return dst[:0], errs.Corruptf("doc window: %d docs in %d bytes", n, len(b))
	}
	if cap(dst) < n {
		dst = make([]uint32, 0, n)
	}
	dst = dst[:0]
	next := uint64(base) // smallest id the next doc may have
	off := 0
	for i := 0; i < n; i++ {
		var g uint64
		if off < len(b) && b[off] < 0x80 {
			g = uint64(b[off])
			off++
		} else {
			v, o, ok := readUvarint(b, off)
			if !ok {
				return dst, errs.Corruptf("doc window: truncated gap %d", i)
			}
			g, off = v, o
		}
		d := next + g
		if d > math.MaxUint32 || d < next {
			return dst, errs.Corruptf("doc window: doc %d overflows uint32", i)
		}
		dst = append(dst, uint32(d))
		next = d + 1
	}
	if off != len(b) {
		return dst, errs.Corruptf("doc window: %d trailing bytes", len(b)-off)
	}
	return dst, nil
}

func decodeIntcomp(b []byte, n int, base uint32, dst []uint32) (out []uint32, err error) {
	nw, off, ok := readUvarint(b, 0)
	if !ok || nw > uint64(len(b)-off)/4 || uint64(len(b)-off) != 4*nw {
		return dst[:0], errs.Corruptf("doc window: intcomp word count %d does not match %d bytes", nw, len(b)-off)
	}
	m := int(nw)
	// A valid stream holds at least one header word (3) and trailer per block;
	// a bit-packed block of 128 ids needs >= 5 words, a var-byte one needs one
	// byte per id; so n <= 32*m bounds the allocation by the input size.
	if m < 3 || n > 32*m {
		return dst[:0], errs.Corruptf("doc window: %d docs in %d intcomp words", n, m)
	}
	if cap(dst) < n+m {
		dst = make([]uint32, 0, n+m)
	}
	words := dst[n : n+m]
	for i := range words {
		words[i] = binary.LittleEndian.Uint32(b[off+4*i:])
	}
	if err := checkIntcomp(words, n); err != nil {
		return dst[:0], err
	}
	// intcomp is written for trusted input: its decoders index and reslice
	// freely. checkIntcomp has validated every block header and length, so no
	// panic is expected; the recover is a second line of defence that turns a
	// missed case into ErrCorrupt instead of crashing the reader.
	defer func() {
		if r := recover(); r != nil {
			out, err = dst[:0], errs.Corruptf("doc window: malformed intcomp stream (%v)", r)
		}
	}()
	vals := dst[:0:n]
	in := words[:m-1]
	for len(in) > 0 {
		if in[0] < intcomp.BitPackingBlockSize32 {
			in, vals = intcomp.UncompressDeltaVarByteUint32(in, vals)
		} else {
			in, vals = intcomp.UncompressDeltaBinPackUint32(in, vals)
		}
	}
	if len(vals) != n {
		return dst[:0], errs.Corruptf("doc window: intcomp gave %d docs, want %d", len(vals), n)
	}
	limit := uint64(math.MaxUint32 - base)
	for i, v := range vals {
		if uint64(v) > limit {
			return dst[:0], errs.Corruptf("doc window: doc %d overflows uint32", i)
		}
		if i > 0 && v <= vals[i-1] {
			return dst[:0], errs.Corruptf("doc window: doc %d not ascending", i)
		}
	}
	for i := range vals {
		vals[i] += base
	}
	return dst[:n], nil // keeps dst's full capacity for the next call
}

// checkIntcomp validates the block structure of an intcomp.CompressUint32
// stream (words) holding n values, so that the intcomp decoders only ever see
// well-formed blocks:
//
//	stream  = block* trailer
//	block   = count u32 | wordLen u32 | ...        (wordLen counts the header)
//	bitpack = count (multiple of 128) | wordLen | first value | count/128 × (u32 bit lengths, 4 groups) + packed words
//	varbyte = count (< 128) | wordLen | bytes packed big-endian in words, 0x80-padded
//	trailer = wordLen of the last block
func checkIntcomp(words []uint32, n int) error {
	body := words[:len(words)-1]
	total, last := 0, uint32(0)
	for h := 0; h < len(body); {
		if len(body)-h < 2 {
			return errs.Corruptf("doc window: intcomp block header truncated")
		}
		count, wlen := body[h], body[h+1]
		if count == 0 || uint64(count) > uint64(n-total) || wlen < 3 || uint64(wlen) > uint64(len(body)-h) {
			return errs.Corruptf("doc window: intcomp block (%d values, %d words) out of bounds", count, wlen)
		}
		blk := body[h : h+int(wlen)]
		if count < intcomp.BitPackingBlockSize32 {
			if err := checkVarByte(blk[2:], int(count)); err != nil {
				return err
			}
		} else {
			if count%intcomp.BitPackingBlockSize32 != 0 {
				return errs.Corruptf("doc window: intcomp bit-packed block of %d values", count)
			}
			p := 3
			for k := uint32(0); k < count/intcomp.BitPackingBlockSize32; k++ {
				if p >= len(blk) {
					return errs.Corruptf("doc window: intcomp bit-packed block truncated")
				}
				hdr := blk[p]
				p++
				for s := 24; s >= 0; s -= 8 {
					bl := int(hdr>>uint(s)) & 0x7f
					if bl > 32 {
						return errs.Corruptf("doc window: intcomp bit length %d", bl)
					}
					p += bl
				}
			}
			if p != len(blk) {
				return errs.Corruptf("doc window: intcomp bit-packed block length %d, want %d", len(blk), p)
			}
		}
		total += int(count)
		last = wlen
		h += int(wlen)
	}
	if total != n {
		return errs.Corruptf("doc window: intcomp holds %d docs, want %d", total, n)
	}
	if words[len(words)-1] != last {
		return errs.Corruptf("doc window: intcomp trailer %d, want %d", words[len(words)-1], last)
	}
	return nil
}

// checkVarByte checks that the var-byte data words hold exactly count values,
// each of at most 5 bytes, followed only by fewer than 4 padding bytes 0x80.
func checkVarByte(data []uint32, count int) error {
	vals, run, pad := 0, 0, 0
	for _, w := range data {
		for s := 24; s >= 0; s -= 8 {
			c := byte(w >> uint(s))
			if vals == count {
				if c != 0x80 {
					return errs.Corruptf("doc window: intcomp var-byte padding %#x", c)
				}
				pad++
				continue
			}
			run++
			if run > 5 {
				return errs.Corruptf("doc window: intcomp var-byte value too long")
			}
			if c < 0x80 {
				vals++
				run = 0
			}
		}
	}
	if vals != count || pad >= 4 {
		return errs.Corruptf("doc window: intcomp var-byte block holds %d values (padding %d), want %d", vals, pad, count)
	}
	return nil
}
