package reader

import (
	"bytes"
	"context"

	"github.com/snii-go/snii/internal/seam"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/snii-go/snii/internal/codec/format"
	"github.com/snii-go/snii/internal/codec/prx"
)

// Verify walks the whole segment and checks it structurally: the sections tile
// the file (header, then per field its posting region, dict region and metadata
// group, then the directory and the tail); every dict block (CRC, entries,
// anchors, first term against the sampled index), terms strictly ascending
// across blocks; every term's class rules (inline size, slim df and size,
// windowed window sizes), its postings contiguous in term order and filling the
// posting region; every prelude, doc window and .prx frame decoded (CRCs, doc
// counts, ascending docs and positions, df and total term frequency); and the
// index statistics (term, class, df and position totals, byte accounting, docs
// with the field, frames and bytes per codec); then the store: its blocks and
// header follow the last metadata group, and every block is read, checked
// (CRC, decoded length, record lengths) and decoded. The first problem is returned as
// an error naming its place; it wraps snii.ErrCorrupt.
func (s *Segment) Verify(ctx context.Context) (err error) {
	if ctx == nil {
		ctx = context.Background()
	}
	if err := s.acquire(); err != nil {
		return err
	}
	defer s.release()
	x := s.getCtx(ctx, false)
	defer s.putCtx(x)
	if s.guarding() {
		defer s.faultGuard(&err, x, enableFaults())
	}

	next := uint64(format.HeaderSize)
	for _, f := range s.fields {
		m := &f.meta
		if m.PostingOff != next {
			return s.corrupt(place{index: m.Name, window: -1}, "posting region starts at %d, the previous section ends at %d", m.PostingOff, next)
		}
		if m.End() != f.metaOff {
			return s.corrupt(place{index: m.Name, window: -1}, "dict region, norms and pair section end at %d, metadata starts at %d", m.End(), f.metaOff)
		}
		if err := f.verifyPairs(x); err != nil {
			return err
		}
		if _, err := f.loadNorms(x); err != nil {
			return err
		}
		next = f.metaOff + f.metaLen
		if err := f.verify(x, nil); err != nil {
			return err
		}
	}
	if s.store != nil {
		if next, err = x.verifyStore(next); err != nil {
			return err
		}
	}
	if next != s.dirOff {
		return s.corrupt(sec("directory"), "starts at %d, the last metadata group or the store ends at %d", s.dirOff, next)
	}
	return nil
}

// fieldTotals accumulates what a field's terms add up to.
type fieldTotals struct {
	terms, sumDF, sumTTF       uint64
	classes                    [3]uint64
	docBytes, preludeBytes     uint64
	prxBytes, inlineFrameBytes uint64
	windows, frameBytes        [prx.NumCodecs]int64
	nextOff                    uint64 // where the next term's postings must start
	docs                       *roaring.Bitmap
}

// windows calls fn for every stored .prx window of the named field, in the
// order the writer emitted them (terms in byte order, windows ascending), decoding
// the stored frames. It walks and checks the field as Verify does, so a corrupt
// field fails with the error Verify would give; an error from fn stops the walk
// and is returned. snii capture reads a segment's windows through it (internal/seam).
func (s *Segment) windows(ctx context.Context, field string, fn seam.WindowFunc) (err error) {
	if ctx == nil {
		ctx = context.Background()
	}
	if err := s.acquire(); err != nil {
		return err
	}
	defer s.release()
	f, err := s.field(field)
	if err != nil {
		return err
	}
	x := s.getCtx(ctx, false)
	defer s.putCtx(x)
	if s.guarding() {
		defer s.faultGuard(&err, x, enableFaults())
	}
	return f.verify(x, fn)
}

// verify checks the field's terms and statistics; visit, when not nil, sees
// every window.
func (f *field) verify(x *qctx, visit seam.WindowFunc) error {
	x.fullCheck = true
	defer func() { x.fullCheck = false }()
	s := f.seg
	m := &f.meta
	tot := fieldTotals{docs: roaring.New()}
	var prev []byte
	var e format.Entry
	for bi := range m.Blocks {
		if err := x.ctx.Err(); err != nil {
			return err
		}
		cb, err := f.decodeBlock(x, bi)
		if err != nil {
			return err
		}
		it := cb.b.Iter()
		n := 0
		for {
			term, ok, err := it.Next(&e)
			if err != nil {
				return s.wrap(f.blockName(bi), err)
			}
			if !ok {
				break
			}
			if n == 0 && !bytes.Equal(term, m.FirstTerms[bi]) {
				return s.corrupt(f.blockName(bi), "starts with %q, the sampled index says %q", term, m.FirstTerms[bi])
			}
			if prev != nil && bytes.Compare(prev, term) >= 0 {
				at := f.blockName(bi)
				at.term = string(term)
				return s.corrupt(at, "after %q", prev)
			}
			prev = append(prev[:0], term...)
			if prev == nil {
				prev = []byte{}
			}
			n++
			if err := f.verifyTerm(x, term, &e, &tot, visit); err != nil {
				return err
			}
		}
		if n != int(m.Blocks[bi].Entries) {
			return s.corrupt(f.blockName(bi), "%d entries, directory says %d", n, m.Blocks[bi].Entries)
		}
	}
	name := place{section: "metadata", index: m.Name, window: -1}
	type check struct {
		what      string
		got, want uint64
	}
	for _, c := range []check{
		{"term count", tot.terms, m.TermCount},
		{"sum of df", tot.sumDF, m.SumDF},
		{"sum of ttf", tot.sumTTF, m.SumTTF},
		{"inline terms", tot.classes[format.ClassInline], m.InlineTerms},
		{"slim terms", tot.classes[format.ClassSlim], m.SlimTerms},
		{"windowed terms", tot.classes[format.ClassWindowed], m.WindowedTerms},
		{"doc bytes", tot.docBytes, m.DocBytes},
		{"prelude bytes", tot.preludeBytes, m.PreludeBytes},
		{"prx bytes", tot.prxBytes, m.PrxBytes},
		{"inline frame bytes", tot.inlineFrameBytes, m.InlineFrameBytes},
		{"posting region length", tot.nextOff, m.PostingLen},
		{"docs with the field", tot.docs.GetCardinality(), m.DocsWithField},
	} {
		if c.got != c.want {
			return s.corrupt(name, "%s %d, the terms add up to %d", c.what, c.want, c.got)
		}
	}
	for c := range tot.windows {
		if tot.windows[c] != m.Outcome.Windows[c] || tot.frameBytes[c] != m.Outcome.Bytes[c] {
			return s.corrupt(name, "%s frames: %d windows, %d bytes recorded; the terms hold %d windows, %d bytes",
				prx.Codec(c), m.Outcome.Windows[c], m.Outcome.Bytes[c], tot.windows[c], tot.frameBytes[c])
		}
	}
	return nil
}

// verifyTerm checks one term: class rules, locator, prelude, every doc window
// and every frame.
func (f *field) verifyTerm(x *qctx, term []byte, e *format.Entry, tot *fieldTotals, visit seam.WindowFunc) error {
	s := f.seg
	x.nterms = 0 // termRefs are reused term after term
	t, err := x.resolved(f, term, e)
	if err != nil {
		return err
	}
	tot.terms++
	tot.sumDF += e.DF
	tot.sumTTF += e.TTF
	if int(e.Class) < len(tot.classes) {
		tot.classes[e.Class]++
	}
	switch e.Class {
	case format.ClassInline:
		tot.docBytes += uint64(len(e.Docs))
		tot.inlineFrameBytes += uint64(len(e.Frame))
		if e.DF >= format.SlimMaxDF {
			return s.corrupt(t.name(), "inline with df %d", e.DF)
		}
	default:
		if e.Offset != tot.nextOff {
			return s.corrupt(t.name(), "postings at %d, the previous term's end at %d", e.Offset, tot.nextOff)
		}
		tot.nextOff = e.Offset + e.PrxLen + e.DocLen
		tot.docBytes += e.DocLen
		tot.prxBytes += e.PrxLen
		if e.Class == format.ClassWindowed {
			tot.preludeBytes += uint64(t.pre.Size())
		}
	}
	size := format.WindowDocs
	if e.DF >= format.LargeDF {
		size = format.WindowDocsLarge
	}
	if e.Class == format.ClassWindowed && e.DF < format.SlimMaxDF && t.nWin < 2 {
		return s.corrupt(t.name(), "windowed with df %d in one window", e.DF)
	}

	it := t.windows(0)
	var docs uint64
	var ttf uint64
	prevEnd := uint64(0)
	for {
		w, ok := it.next()
		if !ok {
			break
		}
		if err := x.ctx.Err(); err != nil {
			return err
		}
		if e.Class == format.ClassWindowed {
			if w.docs > size {
				return s.corrupt(x.docWinName(t, &w), "%d docs, windows of this term hold at most %d", w.docs, size)
			}
			// frames and doc windows are back to back
			if w.idx == 0 {
				prevEnd = t.start
			}
			if w.prxOff != prevEnd {
				return s.corrupt(x.prxWinName(t, &w), "at %d, the previous frame ends at %d", w.prxOff, prevEnd)
			}
			prevEnd = w.prxOff + w.prxLen
		}
		d, err := x.decodeDocs(t, &w, x.docBuf)
		x.docBuf = d
		if err != nil {
			return err
		}
		docs += uint64(len(d))
		tot.docs.AddMany(d)
		var frame []byte
		withCRC := true
		if e.Class == format.ClassInline {
			frame, withCRC = e.Frame, false
		} else if frame, err = x.readInto(w.prxOff, w.prxLen, &x.blockBuf); err != nil {
			return s.wrap(x.prxWinName(t, &w), err)
		}
		if e.Class == format.ClassSlim && !prx.IsMulti(frame) && e.DocLen >= 4 && e.PrxLen >= 4 && e.DocLen-4+e.PrxLen-4 <= format.InlineMax {
			return s.corrupt(t.name(), "slim but its postings (%d+%d bytes without CRCs) fit inline", e.DocLen-4, e.PrxLen-4)
		}
		n, err := x.source().Decode(frame, withCRC, &x.win)
		if err != nil {
			return s.wrap(x.prxWinName(t, &w), err)
		}
		if n != len(frame) {
			return s.corrupt(x.prxWinName(t, &w), "frame of %d bytes in a %d-byte slot", n, len(frame))
		}
		if x.win.Docs() != len(d) {
			return s.corrupt(x.prxWinName(t, &w), "%d docs, the doc window has %d", x.win.Docs(), len(d))
		}
		if e.Class == format.ClassWindowed {
			if err := f.verifyImpact(x, t, &w, d); err != nil {
				return err
			}
		}
		for k := 0; k < len(d); k++ {
			ps := x.win.Doc(k)
			if len(ps) == 0 {
				return s.corrupt(x.prxWinName(t, &w), "doc %d has no positions", d[k])
			}
			for j := 1; j < len(ps); j++ {
				if ps[j] <= ps[j-1] {
					return s.corrupt(x.prxWinName(t, &w), "doc %d: positions not strictly ascending", d[k])
				}
			}
			ttf += uint64(len(ps))
		}
		units := x.source().Units()
		for _, u := range units {
			tot.windows[u.Codec]++
			fb := int64(u.Len)
			if !withCRC {
				fb += prx.CRCSize
			}
			tot.frameBytes[u.Codec] += fb
		}
		if visit != nil {
			if err := visit(term, &x.win, units); err != nil {
				return err
			}
		}
	}
	if docs != e.DF {
		return s.corrupt(t.name(), "windows hold %d docs, df %d", docs, e.DF)
	}
	if ttf != e.TTF {
		return s.corrupt(t.name(), "windows hold %d positions, ttf %d", ttf, e.TTF)
	}
	if e.Class == format.ClassWindowed && prevEnd != t.start+e.PrxLen {
		return s.corrupt(t.name(), "frames end at %d, prx length says %d", prevEnd, t.start+e.PrxLen)
	}
	return nil
}
