package prx

import (
	"encoding/binary"
	"github.com/snii-go/snii/internal/intcol"

	"github.com/ronanh/intcomp"
)

// PFOR payload (see doc.go and docs/FORMAT.md):
//
//	uvarint doc_count n
//	uvarint total_positions t
//	offsets column: n values, Offsets[1..n] of the window (cumulative position counts)
//	running column: t values, the running positions of the window
//
// A column of v values is the output of intcomp.CompressUint32 (v1.1.1) for those
// values without its final word (the length of its last block, which the reader does
// not need): at most one bit-packed block group holding v - v%128 values followed by
// at most one variable-byte block holding v%128 values; each word little-endian. A
// column of 0 values is empty. The columns need no length prefix: the block headers
// and the value counts delimit them.

const pforBlock = intcol.Block // 128 values per bit-packed block

// pforBuilder holds the scratch of the PFOR encoder.
type pforBuilder struct {
	runs []uint32 // running positions
	cw   []uint32 // offsets column words
	rw   []uint32 // running column words
}

// build packs the columns of the valid window w (whose running positions fit in
// uint32) and returns the exact PFOR payload length.
func (b *pforBuilder) build(w *Window, s *windowScan) int {
	runs := growU32(b.runs, s.positions)
	var base uint32
	for i := 0; i < s.docs; i++ {
		lo, hi := w.Offsets[i], w.Offsets[i+1]
		for j := lo; j < hi; j++ {
			runs[j] = base + w.Positions[j]
		}
		if hi > lo {
			base = runs[hi-1]
		}
	}
	b.runs = runs
	var offs []uint32
	if s.docs > 0 {
		offs = w.Offsets[1 : s.docs+1]
	}
	b.cw = packColumn(offs, b.cw[:0])
	b.rw = packColumn(runs, b.rw[:0])
	return uvarintLen32(uint32(s.docs)) + uvarintLen32(uint32(s.positions)) + 4*(len(b.cw)+len(b.rw))
}

// packColumn compresses vals with intcomp and drops the trailing last-block-length word.
func packColumn(vals, out []uint32) []uint32 {
	if len(vals) == 0 {
		return out[:0]
	}
	out = intcomp.CompressUint32(vals, out[:0])
	return out[:len(out)-1]
}

// appendPayload appends the payload packed by the last build.
func (b *pforBuilder) appendPayload(dst []byte, s *windowScan) []byte {
	dst = appendUvarint(dst, uint32(s.docs))
	dst = appendUvarint(dst, uint32(s.positions))
	dst = appendWords(dst, b.cw)
	return appendWords(dst, b.rw)
}

func appendWords(dst []byte, w []uint32) []byte {
	for _, v := range w {
		dst = binary.LittleEndian.AppendUint32(dst, v)
	}
	return dst
}

// smallPFORSize returns the exact PFOR payload length of a window whose two columns
// both have fewer than 128 values, without building it. Such columns are single
// variable-byte blocks (2 header words, then the value bytes padded to whole words),
// and their delta bytes are exactly the plain payload's: the deltas of the offsets
// column are the position counts, those of the running column are the plain
// position uvarints. Hence such a PFOR payload is always larger than the plain one.
func smallPFORSize(s *windowScan) int {
	size := uvarintLen32(uint32(s.docs)) + uvarintLen32(uint32(s.positions))
	if s.docs > 0 {
		size += 8 + 4*((s.pcBytes+3)/4)
	}
	if s.positions > 0 {
		size += 8 + 4*((s.posBytes+3)/4)
	}
	return size
}

// pforScratch holds the decoder's reusable buffers.
type pforScratch struct {
	words []uint32 // payload words
	offs  []uint32 // offsets column (selective decode)
	runs  []uint32 // running column (selective decode)
}

// pforHeader is the parsed, validated structure of a PFOR payload.
type pforHeader struct {
	docs, positions int
	words           []uint32 // all column words (aliases the scratch)
	split           int      // index of the running column's first word
}

// parsePFOR reads the counts, copies the column words into the scratch and checks the
// structure of both columns, so that intcomp only ever sees well-formed blocks.
func parsePFOR(payload []byte, lim *Limits, sc *pforScratch) (h pforHeader, err error) {
	n, p, ok := readUvarint32(payload, 0)
	if !ok {
		return h, corruptf(CodecPFOR, "doc count: bad uvarint")
	}
	t, p, ok := readUvarint32(payload, p)
	if !ok {
		return h, corruptf(CodecPFOR, "position count: bad uvarint")
	}
	h.docs, h.positions = int(n), int(t)
	if h.docs > lim.MaxDocs {
		return h, corruptf(CodecPFOR, "doc count %d over the limit %d", h.docs, lim.MaxDocs)
	}
	if h.positions > lim.MaxPositions {
		return h, corruptf(CodecPFOR, "position count %d over the limit %d", h.positions, lim.MaxPositions)
	}
	rest := payload[p:]
	if len(rest)%4 != 0 {
		return h, corruptf(CodecPFOR, "column bytes %d not a multiple of 4", len(rest))
	}
	nw := len(rest) / 4
	words := growU32(sc.words, nw)
	sc.words = words
	for i := range words {
		words[i] = binary.LittleEndian.Uint32(rest[4*i:])
	}
	h.words = words
	if h.split, err = checkColumn(words, 0, h.docs, "offsets"); err != nil {
		return h, err
	}
	end, err := checkColumn(words, h.split, h.positions, "positions")
	if err != nil {
		return h, err
	}
	if end != nw {
		return h, corruptf(CodecPFOR, "%d trailing words after the columns", nw-end)
	}
	return h, nil
}

// checkColumn checks one column with intcol.Check (see internal/intcol) and names
// it in the error.
func checkColumn(words []uint32, i, n int, name string) (int, error) {
	end, _, err := intcol.Check(words, i, n)
	if err != nil {
		return 0, corruptf(CodecPFOR, "%s column: %v", name, err)
	}
	return end, nil
}

// unpackColumn decodes the n values of a column checked by checkColumn, starting at
// words[i:], into out[:n] (cap(out) >= n, so intcomp does not allocate).
func unpackColumn(words []uint32, i, n int, out []uint32) ([]uint32, error) {
	res, err := intcol.Unpack(words, i, n, out)
	if err != nil {
		return nil, corruptf(CodecPFOR, "%v", err)
	}
	return res, nil
}

// decodeColumns unpacks both columns into offs (len docs+1, offs[0] = 0) and runs
// (len positions) and checks the offsets: they never decrease and end at the position
// count. The running positions are checked by the caller (runsToPositions or
// checkRuns).
func decodeColumns(h *pforHeader, offs, runs []uint32) error {
	offs[0] = 0
	if _, err := unpackColumn(h.words, 0, h.docs, offs[1:1:len(offs)]); err != nil {
		return err
	}
	if _, err := unpackColumn(h.words, h.split, h.positions, runs[:0:len(runs)]); err != nil {
		return err
	}
	prev := uint32(0)
	for i, o := range offs {
		if o < prev {
			return corruptf(CodecPFOR, "doc %d: offsets decrease (%d after %d)", i-1, o, prev)
		}
		prev = o
	}
	if int64(prev) != int64(h.positions) {
		return corruptf(CodecPFOR, "position counts sum to %d, want %d", prev, h.positions)
	}
	return nil
}

// checkRuns checks that the running positions never decrease.
func checkRuns(runs []uint32) error {
	prev := uint32(0)
	for j, r := range runs {
		if r < prev {
			return corruptf(CodecPFOR, "running position %d decreases (%d after %d)", j, r, prev)
		}
		prev = r
	}
	return nil
}

// runsToPositions checks the running positions of a whole window (they never
// decrease) and turns them into positions in place: each doc's positions minus the
// running position before it.
func runsToPositions(offs, pos []uint32) error {
	var prev, base uint32
	j := 0
	for _, hi := range offs[1:] {
		base = prev
		for ; j < int(hi); j++ {
			r := pos[j]
			if r < prev {
				return corruptf(CodecPFOR, "running position %d decreases (%d after %d)", j, r, prev)
			}
			pos[j] = r - base
			prev = r
		}
	}
	return nil
}

// decodePFOR decodes a PFOR payload into dst: the whole window when full, else only
// the documents whose ordinals (strictly ascending, checked by the caller) are listed.
// A selection of every document is decoded as a whole window. Otherwise both columns
// are unpacked into the scratch (intcomp has no random access) and the selected
// documents are copied out.
func decodePFOR(payload []byte, lim *Limits, sc *pforScratch, ords []uint32, full bool, dst *Window) (res selectResult, err error) {
	h, err := parsePFOR(payload, lim, sc)
	if err != nil {
		return res, err
	}
	res.docs, res.positions = h.docs, h.positions
	if !full {
		if len(ords) > 0 && int(ords[len(ords)-1]) >= h.docs {
			return res, corruptf(CodecPFOR, "selected doc ordinal %d but the window has %d docs", ords[len(ords)-1], h.docs)
		}
		full = len(ords) == h.docs
	}
	if full {
		offs := growU32(dst.Offsets, h.docs+1)
		pos := growU32(dst.Positions, h.positions)
		if err := decodeColumns(&h, offs, pos); err != nil {
			return res, err
		}
		if err := runsToPositions(offs, pos); err != nil {
			return res, err
		}
		dst.Offsets, dst.Positions = offs, pos
		res.selected = h.positions
		return res, nil
	}
	sc.offs = growU32(sc.offs, h.docs+1)
	sc.runs = growU32(sc.runs, h.positions)
	offs, runs := sc.offs, sc.runs
	if err := decodeColumns(&h, offs, runs); err != nil {
		return res, err
	}
	if err := checkRuns(runs); err != nil {
		return res, err
	}
	n := 0
	for _, o := range ords {
		n += int(offs[o+1] - offs[o])
	}
	doffs := growU32(dst.Offsets, len(ords)+1)
	dpos := growU32(dst.Positions, n)
	doffs[0] = 0
	k := 0
	for i, o := range ords {
		lo, hi := offs[o], offs[o+1]
		var base uint32 // running position at the end of the docs before o
		if lo > 0 {
			base = runs[lo-1]
		}
		for _, r := range runs[lo:hi] {
			dpos[k] = r - base
			k++
		}
		doffs[i+1] = uint32(k)
	}
	dst.Offsets, dst.Positions = doffs, dpos
	res.selected = n
	return res, nil
}
