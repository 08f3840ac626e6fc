package reader

import (
	"context"
	"iter"

	"github.com/snii-go/snii/internal/codec/format"
	"github.com/snii-go/snii/internal/codec/prx"
	"github.com/snii-go/snii/internal/errs"
)

// Postings iterates the documents of one term in ascending order. Doc ids are
// decoded one window at a time; positions only when Freq or Positions is called,
// and only for the current document's window. A Postings holds a decode source
// and keeps the segment open until Close. It is used by one goroutine.
type Postings struct {
	s      *Segment
	x      *qctx
	t      *termRef // nil: absent term (empty iterator)
	it     winIter
	w      winInfo
	docs   []uint32 // current window's docs
	i      int      // current doc: docs[i]; -1 before the first
	loaded bool     // win holds the current window's positions
	win    prx.Window
	err    error
	done   bool
	n      uint64 // documents returned by Next
	// skipped: Advance was used, so the end-of-term df check does not apply.
	skipped bool
	// owned: the postings of a TermIter's current term, closed with it.
	owned bool
}

// Postings returns an iterator over the documents of term in field. An absent
// term gives an empty iterator (the first Next returns false); an unknown field
// is an snii.ErrNotFound error. Once ctx is done, Next and Advance return false
// and Err returns ctx's error (checked as doc windows are loaded). Close the
// iterator when done.
func (s *Segment) Postings(ctx context.Context, name, term string) (*Postings, error) {
	f, err := s.field(name)
	if err != nil {
		return nil, err
	}
	if err := s.acquire(); err != nil {
		return nil, err
	}
	x := s.getCtx(ctx, false)
	p := &Postings{s: s, x: x, i: -1}
	if err := s.openPostings(x, f, term, p); err != nil {
		p.Close()
		return nil, err
	}
	return p, nil
}

// openPostings resolves term in f and places p before its first window,
// under the fault guard: both read the mapped file (the dictionary, and a
// windowed term's prelude).
func (s *Segment) openPostings(x *qctx, f *field, term string, p *Postings) (err error) {
	if s.guarding() {
		defer s.faultGuard(&err, x, enableFaults())
	}
	t, err := x.resolve(f, []byte(term))
	if err != nil {
		return err
	}
	if t == nil {
		p.done = true
		return nil
	}
	p.t = t
	p.it = t.windows(0)
	return nil
}

// loadWindow decodes the doc ids of the iterator's next window.
func (p *Postings) loadWindow() (ok bool) {
	if p.s.guarding() {
		defer p.faultGuard(&ok, enableFaults())
	}
	p.x.arena = p.x.arena[:0] // the previous window's frame is no longer needed
	if err := p.x.ctx.Err(); err != nil {
		p.err, p.done = err, true
		return false
	}
	w, ok := p.it.next()
	if !ok {
		p.done = true
		return false
	}
	docs, err := p.x.decodeDocs(p.t, &w, p.docs)
	p.docs = docs
	if err != nil {
		p.err, p.done = err, true
		return false
	}
	p.w = w
	p.i = 0
	p.loaded = false
	return true
}

// Next moves to the next document; false at the end or on error (see Err).
// At the end of a term read by Next alone it checks that the term had
// exactly df documents.
func (p *Postings) Next() bool {
	if p.next() {
		p.n++
		return true
	}
	if p.err == nil && !p.skipped && p.t != nil && p.n != p.t.e.DF {
		p.err = p.s.corrupt(p.t.name(), "windows hold %d docs, dict entry says df %d", p.n, p.t.e.DF)
	}
	return false
}

// next moves to the next document.
func (p *Postings) next() bool {
	if p.done {
		return false
	}
	if p.i >= 0 && p.i+1 < len(p.docs) {
		p.i++
		return true
	}
	return p.loadWindow()
}

// Advance moves to the first document >= target at or after the current one
// (staying put when the current document is already >= target); false when
// there is none or on error.
func (p *Postings) Advance(target uint32) (ok bool) {
	p.skipped = true
	if p.done {
		return false
	}
	if p.s.guarding() {
		defer p.faultGuard(&ok, enableFaults())
	}
	if p.i >= 0 {
		if p.docs[p.i] >= target {
			return true
		}
		if target <= p.docs[len(p.docs)-1] {
			p.i = seekGE(p.docs, p.i, target)
			return true
		}
	}
	if p.t.e.Class != format.ClassWindowed {
		if p.i >= 0 { // the only window is exhausted
			p.done = true
			return false
		}
		if !p.loadWindow() {
			return false
		}
	} else {
		j, err := p.t.find(target)
		if err != nil {
			p.err, p.done = err, true
			return false
		}
		if j >= p.t.nWin {
			p.done = true
			return false
		}
		p.it = p.t.windows(j)
		if !p.loadWindow() {
			return false
		}
	}
	p.i = seekGE(p.docs, 0, target)
	if p.i == len(p.docs) {
		p.done = true
		return false
	}
	return true
}

// Doc returns the current document.
func (p *Postings) Doc() uint32 {
	if p.i < 0 || p.i >= len(p.docs) {
		return 0
	}
	return p.docs[p.i]
}

// Positions returns the ascending positions of the term in the current
// document. The slice is valid until the next call to Next or Advance. The
// window's .prx frame is decoded at the first call in each window.
func (p *Postings) Positions() ([]uint32, error) {
	if p.err != nil {
		return nil, p.err
	}
	if p.t == nil || p.i < 0 || p.i >= len(p.docs) {
		return nil, errs.Invalidf("reader: Positions without a current document")
	}
	if !p.loaded && !p.loadPositions() {
		return nil, p.err
	}
	return p.win.Doc(p.i), nil
}

// loadPositions decodes the current window's .prx frame; false on error (in
// p.err).
func (p *Postings) loadPositions() (ok bool) {
	if p.s.guarding() {
		defer p.faultGuard(&ok, enableFaults())
	}
	var frame []byte
	withCRC := true
	if p.t.e.Class == format.ClassInline {
		frame, withCRC = p.t.e.Frame, false
	} else {
		b, err := p.x.read(p.w.prxOff, p.w.prxLen)
		if err != nil {
			p.err = p.s.wrap(p.x.prxWinName(p.t, &p.w), err)
			return false
		}
		frame = b
	}
	if _, err := p.x.source().Decode(frame, withCRC, &p.win); err != nil {
		p.err = p.s.wrap(p.x.prxWinName(p.t, &p.w), err)
		return false
	}
	if p.win.Docs() != len(p.docs) {
		p.err = p.s.corrupt(p.x.prxWinName(p.t, &p.w), "%d docs, the doc window has %d", p.win.Docs(), len(p.docs))
		return false
	}
	p.loaded = true
	return true
}

// Err returns the first error met (nil at a normal end).
func (p *Postings) Err() error { return p.err }

// Close releases the iterator's decode source and its hold on the segment.
// The postings of a TermIter belong to it: closing them is a no-op.
func (p *Postings) Close() {
	if p.x == nil || p.owned {
		return
	}
	p.s.putCtx(p.x)
	p.x = nil
	p.t = nil
	p.done = true
	p.s.release()
}

// Terms returns the terms of field starting with prefix, in byte order, each
// with its document frequency, at most maxExpansions terms (0: all):
//
//	terms, errf := seg.Terms(ctx, "body", "conn", 0)
//	for term, df := range terms {
//		...
//	}
//	if err := errf(); err != nil {
//		...
//	}
//
// The sequence stops early at the first error (a negative maxExpansions, an
// unknown field, a damaged block, ctx done); errf reports it once the loop
// is over (nil after a complete or a broken-off loop). Each range over terms
// scans the dictionary again.
func (s *Segment) Terms(ctx context.Context, name, prefix string, maxExpansions int) (terms iter.Seq2[string, uint64], errf func() error) {
	var err error
	seq := func(yield func(string, uint64) bool) {
		err = s.terms(ctx, name, prefix, maxExpansions, yield)
	}
	return seq, func() error { return err }
}

func (s *Segment) terms(ctx context.Context, name, prefix string, maxExpansions int, yield func(string, uint64) bool) (err error) {
	if maxExpansions < 0 {
		return errs.Invalidf("reader: negative max expansions %d", maxExpansions)
	}
	f, err := s.field(name)
	if err != nil {
		return err
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
	if err := x.ctx.Err(); err != nil {
		return err
	}
	return f.scanPrefix(x, bytesOf(prefix), maxExpansions, func(term []byte, e *format.Entry) (bool, error) {
		return yield(string(term), e.DF), nil
	})
}
