package prx

import (
	"github.com/snii-go/snii/internal/codec/bitpack"
	"github.com/snii-go/snii/limits"
)
import "slices"

// PlainSize returns the exact length in bytes of the plain payload of w, or -1 when
// w is not a valid window (see Window.Validate).
func PlainSize(w *Window) int {
	s, err := scanWindow(w)
	if err != nil {
		return -1
	}
	return s.plain
}

// AppendPlain appends the plain payload of w to dst:
//
//	uvarint doc_count, then per doc: uvarint pos_count, pos_count uvarints
//	(the first position absolute, then deltas to the previous position; a delta may be 0)
//
// w must be valid (see Window.Validate); for an invalid window dst is returned unchanged.
func AppendPlain(dst []byte, w *Window) []byte {
	s, err := scanWindow(w)
	if err != nil {
		return dst
	}
	return appendPlain(dst, w, s.plain)
}

// appendPlain appends the plain payload of the valid window w, whose plain length is size.
func appendPlain(dst []byte, w *Window, size int) []byte {
	dst = slices.Grow(dst, size)
	docs := w.Docs()
	dst = bitpack.AppendUvarint(dst, uint32(docs))
	for i := 0; i < docs; i++ {
		pos := w.Positions[w.Offsets[i]:w.Offsets[i+1]]
		dst = bitpack.AppendUvarint(dst, uint32(len(pos)))
		prev := uint32(0)
		for _, p := range pos {
			d := p - prev
			if d < 0x80 {
				dst = append(dst, byte(d))
			} else {
				dst = bitpack.AppendUvarint(dst, d)
			}
			prev = p
		}
	}
	return dst
}

// DecodePlain decodes a whole plain payload (exactly src) into dst, reusing its
// capacity. It returns an error wrapping snii.ErrCorrupt when src is malformed (bad or
// overlong uvarint, counts over the limits or over the bytes left, a position
// overflowing uint32, trailing bytes), and snii.ErrInvalidArgument when limits is invalid.
// On error dst is reset to no documents.
func DecodePlain(src []byte, limits limits.Limits, dst *Window) error {
	lim, err := checkedLimits(limits)
	if err != nil {
		return err
	}
	if len(src) > lim.MaxBytes {
		dst.Reset()
		return plainCorruptf(CodecRaw, true, "%d bytes over the limit %d", len(src), lim.MaxBytes)
	}
	if _, err := decodePlain(src, &lim, dst, CodecRaw, true); err != nil {
		dst.Reset()
		return err
	}
	return nil
}

// readDocCount reads and bounds the doc count at the start of a plain payload.
func readDocCount(src []byte, lim *limits.Limits, c Codec, standalone bool) (n, p int, err error) {
	v, p, ok := bitpack.ReadUvarint32(src, 0)
	if !ok {
		return 0, 0, plainCorruptf(c, standalone, "doc count: bad uvarint")
	}
	n = int(v)
	if n > lim.MaxDocs {
		return 0, 0, plainCorruptf(c, standalone, "doc count %d over the limit %d", n, lim.MaxDocs)
	}
	if n > len(src)-p { // every doc takes at least one byte (its position count)
		return 0, 0, plainCorruptf(c, standalone, "doc count %d but only %d bytes left", n, len(src)-p)
	}
	return n, p, nil
}

// readPosCount reads and bounds the position count of doc i at src[p:]; total is the
// number of positions of the docs before it.
func readPosCount(src []byte, p, i, total int, lim *limits.Limits, c Codec, standalone bool) (pc, next int, err error) {
	var v uint32
	var ok bool
	if p < len(src) && src[p] < 0x80 {
		v, next, ok = uint32(src[p]), p+1, true
	} else {
		v, next, ok = bitpack.ReadUvarint32Slow(src, p)
	}
	if !ok {
		return 0, p, plainCorruptf(c, standalone, "doc %d: position count: bad uvarint", i)
	}
	pc = int(v)
	if pc > len(src)-next { // every position takes at least one byte
		return 0, p, plainCorruptf(c, standalone, "doc %d: %d positions but only %d bytes left", i, pc, len(src)-next)
	}
	if pc > lim.MaxPositions-total {
		return 0, p, plainCorruptf(c, standalone, "doc %d: %d positions in the window, over the limit %d", i, total+pc, lim.MaxPositions)
	}
	return pc, next, nil
}

// decodePlain decodes the whole plain payload src into dst and returns its position
// count. dst is left in an undefined state on error.
func decodePlain(src []byte, lim *limits.Limits, dst *Window, c Codec, standalone bool) (positions int, err error) {
	n, p, err := readDocCount(src, lim, c, standalone)
	if err != nil {
		return 0, err
	}
	offs := growU32(dst.Offsets, n+1)
	offs[0] = 0
	// Every position and every count takes at least one byte: this bounds the
	// positions, so dst grows once and the loop never reallocates.
	bound := min(len(src)-p-n, lim.MaxPositions)
	pos := dst.Positions[:cap(dst.Positions)]
	if len(pos) < bound {
		pos = make([]uint32, bound)
	}
	t := 0
	for i := 0; i < n; i++ {
		var pc int
		if p < len(src) && src[p] < 0x80 {
			pc = int(src[p])
			p++
		} else if pc, p, err = readPosCount(src, p, i, t, lim, c, standalone); err != nil {
			return 0, err
		}
		if pc > bound-t { // more positions than bytes left
			return 0, plainCorruptf(c, standalone, "doc %d: %d positions but only %d bytes left", i, pc, len(src)-p)
		}
		// The positions of doc i, decoded inline (this loop is the plain decode's
		// hot path, so no function call). One- and two-byte uvarints are decoded inline, longer
		// ones by the checked decoder. The running sum is 64-bit and cannot wrap (at
		// most 2^26 deltas below 2^32), so it is checked against uint32 once, at the
		// end of the doc.
		var acc uint64
		for e := t + pc; t < e; t++ {
			if p < len(src) {
				if b := src[p]; b < 0x80 {
					acc += uint64(b)
					p++
				} else if p+1 < len(src) && src[p+1]-1 < 0x7f { // two bytes, canonical
					acc += uint64(b&0x7f) | uint64(src[p+1])<<7
					p += 2
				} else {
					d, q, ok := bitpack.ReadUvarint32Slow(src, p)
					if !ok {
						return 0, plainCorruptf(c, standalone, "doc %d: position %d: bad uvarint", i, pc-(e-t))
					}
					acc += uint64(d)
					p = q
				}
			} else {
				return 0, plainCorruptf(c, standalone, "doc %d: positions truncated", i)
			}
			pos[t] = uint32(acc)
		}
		if acc > maxUint32 {
			return 0, plainCorruptf(c, standalone, "doc %d: positions overflow uint32", i)
		}
		offs[i+1] = uint32(t)
	}
	if p != len(src) {
		return 0, plainCorruptf(c, standalone, "%d trailing bytes after %d docs", len(src)-p, n)
	}
	dst.Offsets, dst.Positions = offs, pos[:t]
	return t, nil
}

// growU32 returns s resized to n elements, reallocating (without copying) when its
// capacity is short. The contents are not preserved or cleared.
func growU32(s []uint32, n int) []uint32 {
	if cap(s) < n {
		return make([]uint32, n)
	}
	return s[:n]
}
