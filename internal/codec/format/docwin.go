package format

import (
	"encoding/binary"
	"math"

	"github.com/snii-go/snii/internal/codec/bitpack"
	"github.com/snii-go/snii/internal/codec/intcol"

	"github.com/ronanh/intcomp"
	"github.com/snii-go/snii/internal/errs"
)

// Doc window encodings (the first byte of a doc window).
const (
	DocEncUvarint = 0 // n uvarint gaps
	DocEncIntcomp = 1 // intcomp.CompressUint32 of doc-base, as uvarint word count + words LE
)

// DocWindowCRCSize is the size of a doc window's trailing CRC32C.
const DocWindowCRCSize = 4

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

// DocWindowMinLen returns a lower bound of the bytes of the window of n
// strictly ascending docs as Append writes it without CRC, whatever the docs:
// uvarint gaps take a byte each at least; intcomp (tried from intcompMinDocs
// docs) packs each full block of 128 docs as a header word and four groups of
// at least one word (a group of ascending docs has a delta of at least 1, so
// a bit width of at least 1).
func DocWindowMinLen(n int) int {
	if n < intcompMinDocs {
		return 1 + n
	}
	return 1 + min(n, 1+4*5*(n/intcomp.BitPackingBlockSize32))
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
// snii.ErrCorrupt.
func DecodeDocWindow(src []byte, n int, base uint32, withCRC bool, dst []uint32) ([]uint32, error) {
	if n < 1 {
		return dst[:0], errs.Corruptf("%d docs", n)
	}
	body := src
	if withCRC {
		if len(src) < 1+DocWindowCRCSize {
			return dst[:0], errs.Corruptf("%d bytes, too short", len(src))
		}
		body = src[:len(src)-DocWindowCRCSize]
		if got, want := Checksum(body), binary.LittleEndian.Uint32(src[len(body):]); got != want {
			return dst[:0], errs.Corruptf("crc %08x, want %08x", got, want)
		}
	}
	if len(body) < 2 {
		return dst[:0], errs.Corruptf("%d bytes, too short", len(body))
	}
	switch body[0] {
	case DocEncUvarint:
		return decodeGaps(body[1:], n, base, dst)
	case DocEncIntcomp:
		return decodeIntcomp(body[1:], n, base, dst)
	case DocEncBlocked:
		return decodeBlocked(body, n, base, dst)
	}
	return dst[:0], errs.Corruptf("unknown encoding %d", body[0])
}

func decodeGaps(b []byte, n int, base uint32, dst []uint32) ([]uint32, error) {
	if n > len(b) { // every gap takes at least one byte
		return dst[:0], errs.Corruptf("%d docs in %d bytes", n, len(b))
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
			v, o, ok := bitpack.ReadUvarint(b, off)
			if !ok {
				return dst, errs.Corruptf("truncated gap %d", i)
			}
			g, off = v, o
		}
		d := next + g
		if d > math.MaxUint32 || d < next {
			return dst, errs.Corruptf("doc %d overflows uint32", i)
		}
		dst = append(dst, uint32(d))
		next = d + 1
	}
	if off != len(b) {
		return dst, errs.Corruptf("%d trailing bytes", len(b)-off)
	}
	return dst, nil
}

func decodeIntcomp(b []byte, n int, base uint32, dst []uint32) ([]uint32, error) {
	nw, off, ok := bitpack.ReadUvarint(b, 0)
	if !ok || nw > uint64(len(b)-off)/4 || uint64(len(b)-off) != 4*nw {
		return dst[:0], errs.Corruptf("intcomp word count %d does not match %d bytes", nw, len(b)-off)
	}
	m := int(nw)
	// A valid stream holds at least one header word (3) and trailer per block;
	// a bit-packed block of 128 ids needs >= 5 words, a var-byte one needs one
	// byte per id; so n <= 32*m bounds the allocation by the input size.
	if m < 3 || n > 32*m {
		return dst[:0], errs.Corruptf("%d docs in %d intcomp words", n, m)
	}
	if cap(dst) < n+m {
		dst = make([]uint32, 0, n+m)
	}
	words := dst[n : n+m]
	for i := range words {
		words[i] = binary.LittleEndian.Uint32(b[off+4*i:])
	}
	end, last, err := intcol.Check(words, 0, n)
	if err != nil {
		return dst[:0], errs.Corruptf("intcomp: %v", err)
	}
	if end != m-1 {
		return dst[:0], errs.Corruptf("intcomp: %d words after the column, want the trailer only", m-end)
	}
	if words[m-1] != words[last+1] {
		return dst[:0], errs.Corruptf("intcomp trailer %d, want %d", words[m-1], words[last+1])
	}
	vals, err := intcol.Unpack(words, 0, n, dst[:0:n])
	if err != nil {
		return dst[:0], errs.Corruptf("%v", err)
	}
	limit := uint64(math.MaxUint32 - base)
	for i, v := range vals {
		if uint64(v) > limit {
			return dst[:0], errs.Corruptf("doc %d overflows uint32", i)
		}
		if i > 0 && v <= vals[i-1] {
			return dst[:0], errs.Corruptf("doc %d not ascending", i)
		}
	}
	for i := range vals {
		vals[i] += base
	}
	return dst[:n], nil // keeps dst's full capacity for the next call
}
