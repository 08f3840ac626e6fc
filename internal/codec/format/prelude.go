package format

import (
	"encoding/binary"
	"math"

	"github.com/snii-go/snii/internal/errs"
)

// Prelude layout constants.
const (
	// SuperBlockWindows is the number of windows per prelude super-block.
	SuperBlockWindows = 64
	// superBlockSize is the fixed size of one super-block record.
	superBlockSize = 24
	// minPreludeEntry is the smallest encoding of one window entry (5
	// uvarints and a byte).
	minPreludeEntry = 6
)

// WindowRef describes one window of a windowed term, as the writer knows it.
type WindowRef struct {
	LastDoc uint32 // last doc id of the window
	Docs    uint32 // number of docs (>= 1)
	DocLen  uint32 // bytes of the doc window (with CRC)
	PrxLen  uint32 // bytes of the prx frame
	// Impact bounds: the largest term frequency of the window's docs (>= 1)
	// and the smallest norm byte among them (0 when the field stores no
	// norms). No document of the window scores above a document with
	// frequency MaxTF and norm MinNorm.
	MaxTF   uint32
	MinNorm byte
}

// entryLen is the encoded length of w's entry, d being its last-doc delta.
func (w *WindowRef) entryLen(d uint32) int {
	return uvarintLen(uint64(d)) + uvarintLen(uint64(w.Docs)) + uvarintLen(uint64(w.DocLen)) +
		uvarintLen(uint64(w.PrxLen)) + uvarintLen(uint64(w.MaxTF-1)) + 1
}

// AppendPrelude appends the prelude of wins (in window order) to dst:
//
//	uvarint nWindows | uvarint entriesLen |
//	ceil(nWindows/64) × {u32 lastDoc | u32 entryOff | u64 docOff | u64 prxOff} |
//	entries: nWindows × {uvarint lastDoc-prevLastDoc (first: lastDoc) | uvarint docs | uvarint docLen | uvarint prxLen |
//	                     uvarint maxTF-1 | u8 minNorm} |
//	u32 crc32c(all of the above)
//
// wins must be non-empty with strictly ascending LastDoc; otherwise the result
// fails ParsePrelude.
func AppendPrelude(dst []byte, wins []WindowRef) []byte {
	start := len(dst)
	entriesLen := 0
	prev := uint32(0)
	for i, w := range wins {
		d := w.LastDoc
		if i > 0 {
			d -= prev
		}
		prev = w.LastDoc
		entriesLen += w.entryLen(d)
	}
	dst = binary.AppendUvarint(dst, uint64(len(wins)))
	dst = binary.AppendUvarint(dst, uint64(entriesLen))
	// super-blocks
	var entryOff, docOff, prxOff uint64
	prev = 0
	for i, w := range wins {
		if i%SuperBlockWindows == 0 {
			last := wins[min(i+SuperBlockWindows, len(wins))-1].LastDoc
			dst = binary.LittleEndian.AppendUint32(dst, last)
			dst = binary.LittleEndian.AppendUint32(dst, uint32(entryOff))
			dst = binary.LittleEndian.AppendUint64(dst, docOff)
			dst = binary.LittleEndian.AppendUint64(dst, prxOff)
		}
		d := w.LastDoc
		if i > 0 {
			d -= prev
		}
		prev = w.LastDoc
		entryOff += uint64(w.entryLen(d))
		docOff += uint64(w.DocLen)
		prxOff += uint64(w.PrxLen)
	}
	prev = 0
	for i, w := range wins {
		d := w.LastDoc
		if i > 0 {
			d -= prev
		}
		prev = w.LastDoc
		dst = binary.AppendUvarint(dst, uint64(d))
		dst = binary.AppendUvarint(dst, uint64(w.Docs))
		dst = binary.AppendUvarint(dst, uint64(w.DocLen))
		dst = binary.AppendUvarint(dst, uint64(w.PrxLen))
		dst = binary.AppendUvarint(dst, uint64(w.MaxTF-1))
		dst = append(dst, w.MinNorm)
	}
	return binary.LittleEndian.AppendUint32(dst, Checksum(dst[start:]))
}

// Prelude is a parsed, fully verified prelude. It aliases the bytes it was
// parsed from and is immutable: safe for concurrent use.
type Prelude struct {
	src      []byte // the prelude bytes (CRC included)
	n        int    // windows
	sbOff    int    // start of the super-blocks in src
	entOff   int    // start of the entries area in src
	docBytes uint64 // sum of DocLen
	prxBytes uint64 // sum of PrxLen
	docCount uint64 // sum of Docs
}

// WindowInfo describes one window of a windowed term.
type WindowInfo struct {
	Base    uint32 // previous window's LastDoc+1 (0 for the first window)
	LastDoc uint32
	Docs    uint32
	DocOff  uint64 // offset of the doc window, relative to the end of the prelude
	DocLen  uint64
	PrxOff  uint64 // offset of the prx frame, relative to the term's posting data start
	PrxLen  uint64
	MaxTF   uint32 // the largest term frequency of the window's docs
	MinNorm byte   // the smallest norm byte of the window's docs (0: no norms)
}

// ParsePrelude parses and verifies the prelude at the start of src (a
// windowed term's doc-postings span) and returns it with its length n. It
// checks the CRC, that the entries fill exactly entriesLen bytes, that LastDoc
// is strictly ascending without overflow, that each window has 1 <=
// docs <= LastDoc-Base+1 and non-empty doc and prx bytes, and that every
// super-block record matches the entries. Errors wrap snii.ErrCorrupt.
func ParsePrelude(src []byte) (p Prelude, n int, err error) {
	p, end, err := parsePreludeHead(src)
	if err != nil {
		return Prelude{}, 0, err
	}
	// Verify every entry against its super-block.
	er := reader{b: src[:end], off: p.entOff}
	var last uint64
	for i := 0; i < p.n; i++ {
		if i%SuperBlockWindows == 0 {
			sb := p.superBlock(i / SuperBlockWindows)
			if uint64(sb.entryOff) != uint64(er.off-p.entOff) || sb.docOff != p.docBytes || sb.prxOff != p.prxBytes {
				return Prelude{}, 0, errs.Corruptf("prelude: super-block %d does not match its entries", i/SuperBlockWindows)
			}
		}
		d := er.uvarint()
		docs := er.uvarintMax(math.MaxUint32)
		dl := er.uvarintMax(math.MaxUint32)
		pl := er.uvarintMax(math.MaxUint32)
		er.uvarintMax(math.MaxUint32 - 1) // maxTF-1
		er.u8()                           // minNorm
		if !er.ok() {
			return Prelude{}, 0, errs.Corruptf("prelude: window %d entry truncated", i)
		}
		base := last + 1
		if i == 0 {
			base = 0
		}
		if (i > 0 && d == 0) || d > math.MaxUint32-last {
			return Prelude{}, 0, errs.Corruptf("prelude: window %d last doc not ascending", i)
		}
		last += d
		if docs == 0 || docs > last-base+1 || dl == 0 || pl == 0 {
			return Prelude{}, 0, errs.Corruptf("prelude: window %d has %d docs in [%d, %d], %d doc bytes, %d prx bytes", i, docs, base, last, dl, pl)
		}
		p.docBytes += dl
		p.prxBytes += pl
		p.docCount += docs
		if i%SuperBlockWindows == SuperBlockWindows-1 || i == p.n-1 {
			if sb := p.superBlock(i / SuperBlockWindows); uint64(sb.lastDoc) != last {
				return Prelude{}, 0, errs.Corruptf("prelude: super-block %d last doc %d, want %d", i/SuperBlockWindows, sb.lastDoc, last)
			}
		}
	}
	if er.off != end {
		return Prelude{}, 0, errs.Corruptf("prelude: %d trailing entry bytes", end-er.off)
	}
	return p, end + 4, nil
}

// parsePreludeHead parses the prelude's header, checks its sizes and its CRC,
// and returns it (sums not computed) with the end of its entries.
func parsePreludeHead(src []byte) (p Prelude, end int, err error) {
	r := reader{b: src}
	nw := r.uvarint()
	el := r.uvarint()
	if !r.ok() {
		return Prelude{}, 0, errs.Corruptf("prelude: truncated header")
	}
	rem := uint64(r.remaining())
	if nw == 0 || nw > rem/minPreludeEntry || el > rem || el < nw*minPreludeEntry {
		return Prelude{}, 0, errs.Corruptf("prelude: %d windows in %d entry bytes", nw, el)
	}
	nsb := (nw + SuperBlockWindows - 1) / SuperBlockWindows
	if nsb*superBlockSize > rem-el || rem-el-nsb*superBlockSize < 4 {
		return Prelude{}, 0, errs.Corruptf("prelude: %d windows do not fit %d bytes", nw, rem)
	}
	p = Prelude{n: int(nw), sbOff: r.off, entOff: r.off + int(nsb*superBlockSize)}
	end = p.entOff + int(el)
	if got, want := Checksum(src[:end]), binary.LittleEndian.Uint32(src[end:]); got != want {
		return Prelude{}, 0, errs.Corruptf("prelude: crc %08x, want %08x", got, want)
	}
	p.src = src[: end+4 : end+4]
	return p, end, nil
}

// PreludeSums are what verifying a prelude adds up: its windows' docs, doc
// bytes and prx bytes.
type PreludeSums struct{ Docs, DocBytes, PrxBytes uint64 }

// Sums returns p's sums.
func (p *Prelude) Sums() PreludeSums {
	return PreludeSums{Docs: p.docCount, DocBytes: p.docBytes, PrxBytes: p.prxBytes}
}

// ParseVerifiedPrelude parses a prelude whose bytes ParsePrelude verified
// before, with the sums it returned: it checks the header, the sizes and the
// CRC (so other bytes are still rejected), not every entry again. A reader
// that keeps the sums of the preludes it verified resolves a frequent term
// without walking its windows' entries at every query.
func ParseVerifiedPrelude(src []byte, sums PreludeSums) (p Prelude, n int, err error) {
	p, end, err := parsePreludeHead(src)
	if err != nil {
		return Prelude{}, 0, err
	}
	p.docCount, p.docBytes, p.prxBytes = sums.Docs, sums.DocBytes, sums.PrxBytes
	return p, end + 4, nil
}

type superBlock struct {
	lastDoc, entryOff uint32
	docOff, prxOff    uint64
}

func (p *Prelude) superBlock(i int) superBlock {
	b := p.src[p.sbOff+i*superBlockSize:]
	return superBlock{
		lastDoc:  binary.LittleEndian.Uint32(b),
		entryOff: binary.LittleEndian.Uint32(b[4:]),
		docOff:   binary.LittleEndian.Uint64(b[8:]),
		prxOff:   binary.LittleEndian.Uint64(b[16:]),
	}
}

// Len returns the number of windows.
func (p *Prelude) Len() int { return p.n }

// Size returns the prelude's length in bytes (the n of ParsePrelude).
func (p *Prelude) Size() int { return len(p.src) }

// DocBytes returns the total length of the doc windows that follow the prelude.
func (p *Prelude) DocBytes() uint64 { return p.docBytes }

// PrxBytes returns the total length of the term's prx frames.
func (p *Prelude) PrxBytes() uint64 { return p.prxBytes }

// DocCount returns the total number of docs over all windows (the term's df).
func (p *Prelude) DocCount() uint64 { return p.docCount }

// Window returns window i (0 <= i < Len(); otherwise an error wrapping
// snii.ErrInvalidArgument). It costs a scan of at most 64 entries; use Cursor to
// walk windows in order.
func (p *Prelude) Window(i int) (WindowInfo, error) {
	if i < 0 || i >= p.n {
		return WindowInfo{}, errs.Invalidf("prelude: window %d of %d", i, p.n)
	}
	c := p.cursorAt(i / SuperBlockWindows)
	var w WindowInfo
	for {
		w = c.next()
		if c.i == i+1 {
			return w, nil
		}
	}
}

// Find returns the first window whose LastDoc >= doc, or Len() when doc is
// beyond the last window. It binary-searches the super-blocks, then scans at
// most 64 entries.
func (p *Prelude) Find(doc uint32) (int, error) {
	c := p.cursorAt(0)
	err := c.SeekForward(doc)
	return c.Index(), err
}

// SeekForward moves c so that its next Next returns the first window whose
// LastDoc >= doc, never backwards: when that window is at or before c's next
// one, c is left as it is. It scans forward from c when the window is in c's
// super-block, else from the start of the window's super-block (found by
// binary search), at most 64 entries either way; Find followed by Cursor scans
// the super-block twice.
func (c *WindowCursor) SeekForward(doc uint32) error {
	p := c.p
	if p == nil || c.i >= p.n {
		return nil
	}
	cur := c.i / SuperBlockWindows
	lo, nsb := p.superBlockOf(doc, cur)
	if lo == nsb {
		*c = p.cursorAt(nsb) // beyond the last window
		return nil
	}
	if lo > cur {
		*c = p.cursorAt(lo)
	}
	if c.skipBefore(doc) {
		return nil
	}
	// Unreachable for a verified prelude: the super-block's lastDoc is its
	// last window's.
	return errs.Corruptf("prelude: super-block %d inconsistent", lo)
}

// superBlockOf returns the first super-block at or after from whose last doc is
// at least doc (nsb, the number of super-blocks, when none), by binary search.
func (p *Prelude) superBlockOf(doc uint32, from int) (sb, nsb int) {
	nsb = (p.n + SuperBlockWindows - 1) / SuperBlockWindows
	lo, hi := from, nsb
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if p.superBlock(m).lastDoc < doc {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo, nsb
}

// WindowCursor walks the windows of a prelude in order.
type WindowCursor struct {
	p      *Prelude
	i      int
	off    int
	last   uint32
	docOff uint64
	prxOff uint64
}

// Cursor returns a cursor whose first Next returns window i (clamped to 0..Len()).
func (p *Prelude) Cursor(i int) WindowCursor {
	i = max(0, min(i, p.n))
	c := p.cursorAt(i / SuperBlockWindows)
	for c.i < i {
		c.next()
	}
	return c
}

func (p *Prelude) cursorAt(sb int) WindowCursor {
	c := WindowCursor{p: p, i: sb * SuperBlockWindows}
	if c.i >= p.n {
		c.i = p.n
		return c
	}
	s := p.superBlock(sb)
	c.off = p.entOff + int(s.entryOff)
	c.docOff, c.prxOff = s.docOff, s.prxOff
	if sb > 0 {
		c.last = p.superBlock(sb - 1).lastDoc
	}
	return c
}

// Index returns the index of the window the next Next returns (Len() when none).
func (c *WindowCursor) Index() int { return c.i }

// Next returns the next window, or ok=false after the last one.
func (c *WindowCursor) Next() (w WindowInfo, ok bool) {
	if c.p == nil || c.i >= c.p.n {
		return WindowInfo{}, false
	}
	return c.next(), true
}

// skipBefore moves c past the windows whose LastDoc is below doc, reading of
// each only what the cursor keeps (next's scan, without building the
// windows), and reports whether it stopped at a window (false: at the end).
// The prelude was verified by ParsePrelude.
func (c *WindowCursor) skipBefore(doc uint32) bool {
	b := c.p.src
	for c.i < c.p.n {
		d, off := verifiedUvarint(b, c.off)
		last := c.last + uint32(d)
		if c.i == 0 {
			last = uint32(d)
		}
		if last >= doc {
			return true
		}
		off = skipUvarint(b, off) // docs
		dl, off := verifiedUvarint(b, off)
		pl, off := verifiedUvarint(b, off)
		off = skipUvarint(b, off) + 1 // max tf - 1, min norm
		c.last, c.off = last, off
		c.docOff += dl
		c.prxOff += pl
		c.i++
	}
	return false
}

// verifiedUvarint decodes the uvarint at b[off:], which ParsePrelude
// verified: bitpack.ReadUvarint without its checks, small enough for the
// compiler to inline in the window cursor's scans. It stops at the end of b.
func verifiedUvarint(b []byte, off int) (uint64, int) {
	var v uint64
	for s := uint(0); off < len(b); s += 7 {
		c := b[off]
		off++
		v |= uint64(c&0x7f) << (s & 63)
		if c < 0x80 {
			break
		}
	}
	return v, off
}

// skipUvarint returns the offset after the uvarint at b[off:] (verified).
func skipUvarint(b []byte, off int) int {
	for off < len(b) && b[off] >= 0x80 {
		off++
	}
	return off + 1
}

// next decodes the entry at c.off; the prelude was verified by ParsePrelude.
func (c *WindowCursor) next() WindowInfo {
	b := c.p.src
	d, off := verifiedUvarint(b, c.off)
	docs, off := verifiedUvarint(b, off)
	dl, off := verifiedUvarint(b, off)
	pl, off := verifiedUvarint(b, off)
	mt, off := verifiedUvarint(b, off)
	w := WindowInfo{Base: c.last + 1, Docs: uint32(docs), DocOff: c.docOff, DocLen: dl, PrxOff: c.prxOff, PrxLen: pl,
		MaxTF: uint32(mt) + 1, MinNorm: b[off]}
	off++
	if c.i == 0 {
		w.Base = 0
		w.LastDoc = uint32(d)
	} else {
		w.LastDoc = c.last + uint32(d)
	}
	c.last = w.LastDoc
	c.off = off
	c.docOff += dl
	c.prxOff += pl
	c.i++
	return w
}
