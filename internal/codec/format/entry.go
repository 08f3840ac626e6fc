package format

import (
	"encoding/binary"
	"math"
	"strconv"

	"github.com/snii-go/snii/internal/codec/bitpack"
	"github.com/snii-go/snii/internal/errs"
)

// Class says where a term's postings live.
type Class uint8

// Term classes.
const (
	// ClassInline: doc window (no CRC) and prx frame (inline form) inside the entry.
	ClassInline Class = 0
	// ClassSlim: one window in the posting region: prx frame, then doc window.
	ClassSlim Class = 1
	// ClassWindowed: several windows (or a split one): prx frames, then prelude + doc windows.
	ClassWindowed Class = 2
)

// String returns "inline", "slim" or "windowed".
func (c Class) String() string {
	switch c {
	case ClassInline:
		return "inline"
	case ClassSlim:
		return "slim"
	case ClassWindowed:
		return "windowed"
	}
	return "class(" + strconv.Itoa(int(c)) + ")"
}

// Class thresholds and window sizes.
const (
	// InlineMax: a single-window term is inline when len(doc window) +
	// len(inline prx frame) <= InlineMax.
	InlineMax = 256
	// SlimMaxDF: terms with df < SlimMaxDF whose positions fit one window are slim.
	SlimMaxDF = 512
	// WindowDocs is the number of docs per window of a windowed term.
	WindowDocs = 256
	// WindowDocsLarge is the number of docs per window once df >= LargeDF.
	WindowDocsLarge = 1024
	// LargeDF is the df from which windows hold WindowDocsLarge docs.
	LargeDF = 8192
)

// Entry is the value of a dictionary entry (everything after the key).
type Entry struct {
	DF, TTF uint64 // docs holding the term; total positions (TTF >= DF)
	Class   Class
	// Docs and Frame: inline only, the doc window (no CRC) and the prx frame
	// (inline form). When decoded they alias the block's bytes.
	Docs, Frame []byte
	// Offset (relative to the field's posting region), PrxLen and DocLen:
	// slim and windowed only.
	Offset, PrxLen, DocLen uint64
}

// AppendEntry appends the encoding of e (df, ttf, class, class fields) to dst:
//
//	uvarint df | uvarint ttf | u8 class |
//	  inline:          uvarint docLen | docs | uvarint frameLen | frame
//	  slim, windowed:  uvarint offset | uvarint prxLen | uvarint docLen
func AppendEntry(dst []byte, e *Entry) []byte {
	dst = binary.AppendUvarint(dst, e.DF)
	dst = binary.AppendUvarint(dst, e.TTF)
	dst = append(dst, byte(e.Class))
	if e.Class == ClassInline {
		dst = binary.AppendUvarint(dst, uint64(len(e.Docs)))
		dst = append(dst, e.Docs...)
		dst = binary.AppendUvarint(dst, uint64(len(e.Frame)))
		return append(dst, e.Frame...)
	}
	dst = binary.AppendUvarint(dst, e.Offset)
	dst = binary.AppendUvarint(dst, e.PrxLen)
	return binary.AppendUvarint(dst, e.DocLen)
}

// skipEntry returns the length of the entry at the start of src without
// decoding it: the lookup's step over the entries before the one it seeks.
// It checks only what it reads (the varints, the class, the lengths against
// the bytes left); DecodeEntry checks the entry a lookup returns, and a full
// walk (Verify) every entry.
func skipEntry(src []byte) (int, error) {
	p, ok := skipUvarints(src, 0, 2) // df, ttf
	if !ok || p >= len(src) {
		return 0, errs.Corruptf("dict entry: truncated")
	}
	c := Class(src[p])
	p++
	switch c {
	case ClassInline: // the doc window's and the frame's lengths and bytes
		for range 2 {
			var n uint64
			if p < len(src) && src[p] < 0x80 { // a one-byte length, without a call
				n, p = uint64(src[p]), p+1
			} else {
				q := p
				if n, q, ok = bitpack.ReadUvarint(src, p); !ok {
					return 0, errs.Corruptf("dict entry: truncated")
				}
				p = q
			}
			if n > uint64(len(src)-p) {
				return 0, errs.Corruptf("dict entry: truncated")
			}
			p += int(n)
		}
	case ClassSlim, ClassWindowed: // offset, prx length, doc length
		if p, ok = skipUvarints(src, p, 3); !ok {
			return 0, errs.Corruptf("dict entry: truncated")
		}
	default:
		return 0, errs.Corruptf("dict entry: unknown class %d", c)
	}
	return p, nil
}

// skipUvarints returns the offset after the n uvarints at src[p:], or false
// when one is truncated or longer than a uint64's (their values are not
// needed: a skipped entry's are checked by a full walk).
func skipUvarints(src []byte, p, n int) (int, bool) {
	for ; n > 0; n-- {
		for start := p; ; {
			if p >= len(src) || p-start >= binary.MaxVarintLen64 {
				return p, false
			}
			c := src[p]
			p++
			if c < 0x80 {
				break
			}
		}
	}
	return p, true
}

// DecodeEntry decodes an entry written by AppendEntry at the start of src into
// e and returns the number of bytes read. Docs and Frame alias src. It checks
// bounds and the class invariants: DF >= 1, TTF >= DF, a known class, inline
// parts non-empty with len(Docs)+len(Frame) <= InlineMax, slim DF < SlimMaxDF,
// non-empty PrxLen and DocLen and no overflow of Offset+PrxLen+DocLen.
// Errors wrap snii.ErrCorrupt.
func DecodeEntry(src []byte, e *Entry) (n int, err error) {
	r := reader{b: src}
	*e = Entry{}
	e.DF = r.uvarint()
	e.TTF = r.uvarint()
	c := r.u8()
	if !r.ok() {
		return 0, errs.Corruptf("dict entry: truncated")
	}
	e.Class = Class(c)
	if e.DF == 0 || e.DF > math.MaxUint32+1 || e.TTF < e.DF {
		return 0, errs.Corruptf("dict entry: df %d, ttf %d", e.DF, e.TTF)
	}
	switch e.Class {
	case ClassInline:
		e.Docs = r.bytes(r.uvarint())
		e.Frame = r.bytes(r.uvarint())
		if !r.ok() {
			return 0, errs.Corruptf("dict entry: inline postings truncated")
		}
		if len(e.Docs) == 0 || len(e.Frame) == 0 || len(e.Docs)+len(e.Frame) > InlineMax {
			return 0, errs.Corruptf("dict entry: inline doc window %d bytes, frame %d bytes", len(e.Docs), len(e.Frame))
		}
	case ClassSlim, ClassWindowed:
		e.Offset = r.uvarint()
		e.PrxLen = r.uvarint()
		e.DocLen = r.uvarint()
		if !r.ok() {
			return 0, errs.Corruptf("dict entry: locator truncated")
		}
		if e.PrxLen == 0 || e.DocLen == 0 || e.Offset > math.MaxInt64 ||
			e.PrxLen > math.MaxInt64-e.Offset || e.DocLen > math.MaxInt64-e.Offset-e.PrxLen {
			return 0, errs.Corruptf("dict entry: locator offset %d, prx %d bytes, docs %d bytes", e.Offset, e.PrxLen, e.DocLen)
		}
		if e.Class == ClassSlim && e.DF >= SlimMaxDF {
			return 0, errs.Corruptf("dict entry: slim term with df %d", e.DF)
		}
	default:
		return 0, errs.Corruptf("dict entry: unknown class %d", c)
	}
	return r.off, nil
}

// CheckLocator reports an error wrapping snii.ErrCorrupt when a slim or windowed
// entry's postings (Offset+PrxLen+DocLen) do not fit a posting region of
// postingLen bytes. Inline entries always pass.
func (e *Entry) CheckLocator(postingLen uint64) error {
	if e.Class == ClassInline {
		return nil
	}
	if e.Offset > postingLen || e.PrxLen > postingLen-e.Offset || e.DocLen > postingLen-e.Offset-e.PrxLen {
		return errs.Corruptf("dict entry: postings [%d, +%d+%d) outside the posting region of %d bytes",
			e.Offset, e.PrxLen, e.DocLen, postingLen)
	}
	return nil
}
