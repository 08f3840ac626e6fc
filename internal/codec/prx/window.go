package prx

import (
	"github.com/snii-go/snii/internal/codec/bitpack"
	"github.com/snii-go/snii/internal/errs"
)

// Window is one window of positions in CSR form: document i (its ordinal in the
// window) has Positions[Offsets[i]:Offsets[i+1]], ascending (equal positions are
// allowed). len(Offsets) is the document count plus one and Offsets[0] is 0; an empty
// Offsets (the zero Window, or after Reset) is a window of no documents.
type Window struct {
	Offsets   []uint32
	Positions []uint32
}

// Docs returns the number of documents in the window.
func (w *Window) Docs() int {
	if len(w.Offsets) == 0 {
		return 0
	}
	return len(w.Offsets) - 1
}

// Doc returns the positions of document i (0 <= i < Docs()); the slice aliases w.
func (w *Window) Doc(i int) []uint32 {
	return w.Positions[w.Offsets[i]:w.Offsets[i+1]]
}

// Reset empties the window and keeps the capacity of its slices.
func (w *Window) Reset() {
	w.Offsets = w.Offsets[:0]
	w.Positions = w.Positions[:0]
}

// AppendDoc appends one document with the given positions (copied). An empty
// Offsets is started with its leading 0.
func (w *Window) AppendDoc(pos []uint32) {
	if len(w.Offsets) == 0 {
		w.Offsets = append(w.Offsets, 0)
	}
	w.Positions = append(w.Positions, pos...)
	w.Offsets = append(w.Offsets, uint32(len(w.Positions)))
}

// Validate reports an error wrapping snii.ErrInvalidArgument when w is not a well-formed
// window: Offsets must start at 0, never decrease and end at len(Positions), and the
// positions of each document must not decrease.
func (w *Window) Validate() error {
	_, err := scanWindow(w)
	return err
}

// windowScan is what one pass over a valid window learns.
type windowScan struct {
	docs      int
	positions int
	pcBytes   int  // sum of uvarint lengths of the per-doc position counts
	posBytes  int  // sum of uvarint lengths of the position values (first absolute, then deltas)
	plain     int  // exact plain payload length
	pforOK    bool // the running positions fit in uint32
	empty     int  // the first document without positions, or -1
	maxPos    uint32
}

// scanWindow validates w and measures its plain payload in one pass.
func scanWindow(w *Window) (windowScan, error) {
	s := windowScan{empty: -1}
	if len(w.Offsets) == 0 {
		if len(w.Positions) != 0 {
			return s, errs.Invalidf("prx: window has %d positions but no offsets", len(w.Positions))
		}
		s.plain = 1
		s.pforOK = true
		return s, nil
	}
	if w.Offsets[0] != 0 {
		return s, errs.Invalidf("prx: window offsets start at %d, want 0", w.Offsets[0])
	}
	s.docs = len(w.Offsets) - 1
	if last := w.Offsets[s.docs]; uint64(last) != uint64(len(w.Positions)) {
		return s, errs.Invalidf("prx: window offsets end at %d but it has %d positions", last, len(w.Positions))
	}
	s.positions = len(w.Positions)
	var running uint64 // running position at the end of the previous non-empty doc
	prevOff := uint32(0)
	for i := 1; i <= s.docs; i++ {
		off := w.Offsets[i]
		if off < prevOff || uint64(off) > uint64(len(w.Positions)) {
			return s, errs.Invalidf("prx: window offset %d of doc %d out of order (previous %d, %d positions)", off, i-1, prevOff, len(w.Positions))
		}
		pos := w.Positions[prevOff:off]
		s.pcBytes += bitpack.UvarintLen32(uint32(len(pos)))
		prev := uint32(0)
		for j, p := range pos {
			if p < prev {
				return s, errs.Invalidf("prx: window doc %d: positions not ascending at index %d (%d after %d)", i-1, j, p, prev)
			}
			s.posBytes += bitpack.UvarintLen32(p - prev)
			prev = p
		}
		if len(pos) > 0 {
			running += uint64(prev)
			s.maxPos = max(s.maxPos, prev)
		} else if s.empty < 0 {
			s.empty = i - 1
		}
		prevOff = off
	}
	s.pforOK = running <= maxUint32
	s.plain = bitpack.UvarintLen32(uint32(s.docs)) + s.pcBytes + s.posBytes
	return s, nil
}

// Slice sets dst to documents lo..hi-1 of w (positions aliased, offsets rebased
// into dst's own slice) and returns dst.
func (w *Window) Slice(lo, hi int, dst *Window) *Window {
	base := w.Offsets[lo]
	dst.Offsets = dst.Offsets[:0]
	for _, v := range w.Offsets[lo : hi+1] {
		dst.Offsets = append(dst.Offsets, v-base)
	}
	dst.Positions = w.Positions[base:w.Offsets[hi]]
	return dst
}
