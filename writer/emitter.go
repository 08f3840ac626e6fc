package writer

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/snii-go/snii/internal/codec/format"
	"github.com/snii-go/snii/internal/codec/prx"
	"github.com/snii-go/snii/internal/errs"
)

// emitter turns one field's term stream (a PostingSource) into its
// posting region and dictionary blocks. It is the only place where windows
// are cut and encoded: every build path (in memory, spilled, compaction)
// goes through it, so the field's prx.Encoder — and its budget — sees the
// windows in the one canonical order: terms in byte order, windows
// ascending.
//
// Per term (df known up front):
//   - df < format.SlimMaxDF: all postings form one window. If the prx frame
//     and the doc window (both without CRC) fit format.InlineMax bytes, the
//     term is inline; otherwise slim: frame (with CRC), then doc window
//     (with CRC) in the posting region.
//   - df >= format.SlimMaxDF: windowed, windows of format.WindowDocs docs
//     (format.WindowDocsLarge once df >= format.LargeDF).
//   - A window prx refuses with ErrNeedsSplit is halved at a doc boundary
//     (first half ceil(n/2) docs) and each half encoded in turn, recursively;
//     a single-window term that had to be split becomes windowed.
//
// A windowed term's frames are written as they are built; only its doc
// windows (a spool that moves to a temp file past docSpanMemory) and its
// window refs wait for the prelude. At most one window's positions are ever
// in memory.
type emitter struct {
	name     string // index name, for errors
	docCount uint64 // documents in the segment; doc ids must be below it
	enc      *prx.Encoder
	onWindow func(field string, w *prx.Window, f prx.Frame) error // the onWindow hook, or nil
	out      *countWriter
	postOff  uint64 // absolute offset of the posting region
	// norms of the field's documents for the windows' impact bounds
	// (hasNorms false: the field stores none; norms nil: all 0)
	norms    []byte
	hasNorms bool

	dwe     format.DocWindowEncoder
	tfs     []uint32    // term frequencies of a blocked doc window
	gaps    []uint32    // scratch of AppendBlocked
	win     *prx.Window // the current window (all docs read for it), one of wins
	docs    []uint32    // doc ids of win
	wins    [2]prx.Window
	next    *prx.Window // the window read ahead of win (windowed terms), the other of wins
	nextDoc []uint32    // doc ids of next
	sub     prx.Window  // a split part of win
	docBuf  []byte
	refs    []format.WindowRef
	docSpan *spool
	winBase uint32 // base of the next doc window of a windowed term
	prxLen  uint64 // prx bytes of the current term
	lastDoc int64  // last doc read for the current term (-1 before the first)
	term    []byte

	bb       format.BlockBuilder
	dict     *spool
	compress func(dst, src []byte) []byte
	blocks   []format.BlockInfo
	first    [][]byte

	meta format.IndexMeta // stats and section bytes, filled as terms go
}

// countWriter counts the bytes written through it.
type countWriter struct {
	w io.Writer
	n uint64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += uint64(n)
	return n, err
}

// run emits every term of src.
func (e *emitter) run(src PostingSource) error {
	e.win, e.next = &e.wins[0], &e.wins[1]
	var prev []byte
	for first := true; ; first = false {
		term, df, ok, err := src.NextTerm()
		if err != nil {
			return e.sourceErr(err, false)
		}
		if !ok {
			break
		}
		if !first && bytes.Compare(term, prev) <= 0 {
			return errs.Invalidf("writer: index %q: term %q after %q (terms must ascend)", e.name, term, prev)
		}
		if df == 0 || df > e.docCount {
			return errs.Invalidf("writer: index %q: term %q: df %d with %d documents", e.name, term, df, e.docCount)
		}
		e.term = append(e.term[:0], term...)
		if err := e.emitTerm(src, df); err != nil {
			return err
		}
		prev = append(prev[:0], e.term...)
	}
	if e.bb.Count() > 0 {
		return e.flushBlock()
	}
	return nil
}

// sourceErr places an error of the PostingSource in the field (and the
// current term); an error the source placed in a segment already (a merge's)
// is returned as it is.
func (e *emitter) sourceErr(err error, inTerm bool) error {
	switch {
	case errs.Placed(err):
		return err
	case inTerm:
		return fmt.Errorf("writer: index %q: term %q: %w", e.name, e.term, err)
	}
	return fmt.Errorf("writer: index %q: %w", e.name, err)
}

// readDocs reads up to n postings of the current term into win/docs.
func (e *emitter) readDocs(src PostingSource, n uint64) error {
	e.win.Reset()
	e.docs = e.docs[:0]
	last := e.lastDoc
	for i := uint64(0); i < n; i++ {
		doc, pos, ok, err := src.NextDoc()
		if err != nil {
			return e.sourceErr(err, true)
		}
		if !ok {
			return errs.Invalidf("writer: index %q: term %q: fewer postings than its df", e.name, e.term)
		}
		if int64(doc) <= last || uint64(doc) >= e.docCount {
			return errs.Invalidf("writer: index %q: term %q: doc %d out of order or out of range (after %d, %d docs)", e.name, e.term, doc, last, e.docCount)
		}
		if len(pos) == 0 {
			return errs.Invalidf("writer: index %q: term %q: doc %d without positions", e.name, e.term, doc)
		}
		last = int64(doc)
		e.lastDoc = last
		e.docs = append(e.docs, doc)
		e.win.AppendDoc(pos)
		e.meta.SumTTF += uint64(len(pos))
	}
	return nil
}

// endOfTerm checks that the source has no posting beyond the term's df.
func (e *emitter) endOfTerm(src PostingSource) error {
	_, _, ok, err := src.NextDoc()
	if err != nil {
		return e.sourceErr(err, true)
	}
	if ok {
		return errs.Invalidf("writer: index %q: term %q: more postings than its df", e.name, e.term)
	}
	return nil
}

func (e *emitter) emitTerm(src PostingSource, df uint64) error {
	ent := format.Entry{DF: df}
	ttf0 := e.meta.SumTTF
	e.refs, e.winBase, e.prxLen, e.lastDoc = e.refs[:0], 0, 0, -1
	start := e.out.n - e.postOff
	if df < format.SlimMaxDF {
		if err := e.readDocs(src, df); err != nil {
			return err
		}
		if err := e.endOfTerm(src); err != nil {
			return err
		}
		f, err := e.encode(e.win)
		switch {
		case err == nil:
			if err := e.single(f, &ent, start); err != nil {
				return err
			}
		case errors.Is(err, prx.ErrNeedsSplit):
			mid := (len(e.docs) + 1) / 2
			if err := e.encodeWindows(0, mid); err != nil {
				return err
			}
			if err := e.encodeWindows(mid, len(e.docs)); err != nil {
				return err
			}
			if err := e.finishWindowed(&ent, start); err != nil {
				return err
			}
		default:
			return e.encodeErr(err, 0)
		}
	} else {
		size := uint64(format.WindowDocs)
		if df >= format.LargeDF {
			size = format.WindowDocsLarge
		}
		if err := e.windows(src, df, size); err != nil {
			return err
		}
		if err := e.endOfTerm(src); err != nil {
			return err
		}
		if err := e.finishWindowed(&ent, start); err != nil {
			return err
		}
	}
	ent.TTF = e.meta.SumTTF - ttf0
	e.meta.TermCount++
	e.meta.SumDF += df
	return e.addEntry(&ent)
}

// windows encodes the df postings of a windowed term as windows of size
// docs. Each window is read ahead and prepared (its units compressed on the
// encoder's second goroutine) while the one before it is encoded; an error
// reading a window is returned after the window before it is encoded.
func (e *emitter) windows(src PostingSource, df, size uint64) error {
	n := min(df, size)
	if err := e.readDocs(src, n); err != nil {
		return err
	}
	e.enc.Prepare(e.win)
	for left := df - n; ; {
		more := left > 0
		var readErr error
		if more {
			n = min(left, size)
			left -= n
			e.swap()
			if readErr = e.readDocs(src, n); readErr == nil {
				e.enc.Prepare(e.win)
			}
			e.swap()
		}
		if err := e.encodeWindows(0, len(e.docs)); err != nil {
			return err
		}
		if readErr != nil {
			return readErr
		}
		if !more {
			return nil
		}
		e.swap()
	}
}

// swap exchanges the current window with the one read ahead.
func (e *emitter) swap() {
	e.win, e.next = e.next, e.win
	e.docs, e.nextDoc = e.nextDoc, e.docs
}

// single stores a term whose postings are one window: inline or slim.
func (e *emitter) single(f prx.Frame, ent *format.Entry, start uint64) error {
	e.docBuf = e.dwe.Append(e.docBuf[:0], e.docs, 0, false)
	inl := f.Inline()
	if inl != nil && len(e.docBuf)+len(inl) <= format.InlineMax {
		ent.Class = format.ClassInline
		ent.Docs, ent.Frame = e.docBuf, inl
		e.meta.InlineTerms++
		e.meta.DocBytes += uint64(len(e.docBuf))
		e.meta.InlineFrameBytes += uint64(len(inl))
		return nil
	}
	if _, err := e.out.Write(f.Bytes); err != nil {
		return err
	}
	e.docBuf = e.dwe.Append(e.docBuf[:0], e.docs, 0, true)
	if _, err := e.out.Write(e.docBuf); err != nil {
		return err
	}
	ent.Class = format.ClassSlim
	ent.Offset, ent.PrxLen, ent.DocLen = start, uint64(len(f.Bytes)), uint64(len(e.docBuf))
	e.meta.SlimTerms++
	e.meta.PrxBytes += ent.PrxLen
	e.meta.DocBytes += ent.DocLen
	return nil
}

// encodeWindows encodes docs [lo, hi) of the current window as windows of a
// windowed term, halving (first half ceil(n/2) docs) while prx asks for a split.
func (e *emitter) encodeWindows(lo, hi int) error {
	w := e.view(lo, hi)
	f, err := e.encode(w)
	if errors.Is(err, prx.ErrNeedsSplit) && hi-lo > 1 {
		mid := lo + (hi-lo+1)/2
		if err := e.encodeWindows(lo, mid); err != nil {
			return err
		}
		return e.encodeWindows(mid, hi)
	}
	if err != nil {
		return e.encodeErr(err, len(e.refs))
	}
	if _, err := e.out.Write(f.Bytes); err != nil {
		return err
	}
	e.docBuf = e.appendDocWindow(w, e.docs[lo:hi])
	if _, err := e.docSpan.Write(e.docBuf); err != nil {
		return err
	}
	last := e.docs[hi-1]
	maxTF, minNorm := e.impact(w, e.docs[lo:hi])
	e.refs = append(e.refs, format.WindowRef{LastDoc: last, Docs: uint32(hi - lo), DocLen: uint32(len(e.docBuf)), PrxLen: uint32(len(f.Bytes)),
		MaxTF: maxTF, MinNorm: minNorm})
	e.winBase = last + 1
	e.prxLen += uint64(len(f.Bytes))
	return nil
}

// appendDocWindow encodes the doc window of a windowed term (docs are w's):
// blocked, with its blocks' impact bounds, when it holds more than one block
// of docs; else the smaller of uvarint gaps and intcomp.
func (e *emitter) appendDocWindow(w *prx.Window, docs []uint32) []byte {
	if len(docs) < format.BlockedMinDocs {
		return e.dwe.Append(e.docBuf[:0], docs, e.winBase, true)
	}
	e.tfs = e.tfs[:0]
	for i := range docs {
		e.tfs = append(e.tfs, w.Offsets[i+1]-w.Offsets[i])
	}
	var norms []byte
	if e.hasNorms {
		norms = e.norms
	}
	var b []byte
	b, e.gaps = format.AppendBlocked(e.docBuf[:0], docs, e.winBase, e.tfs, norms, true, e.gaps)
	return b
}

// impact returns a window's largest term frequency and smallest norm byte
// (0 when the field stores no norms).
func (e *emitter) impact(w *prx.Window, docs []uint32) (maxTF uint32, minNorm byte) {
	for i := range docs {
		maxTF = max(maxTF, w.Offsets[i+1]-w.Offsets[i])
	}
	if !e.hasNorms || e.norms == nil {
		return maxTF, 0
	}
	minNorm = 255
	for _, d := range docs {
		minNorm = min(minNorm, e.norms[d])
	}
	return maxTF, minNorm
}

// encode encodes one window with the field's encoder (and so its budget) and
// reports the stored frame to the onWindow hook.
func (e *emitter) encode(w *prx.Window) (prx.Frame, error) {
	f, err := e.enc.Encode(w)
	if err == nil && e.onWindow != nil {
		if herr := e.onWindow(e.name, w, f); herr != nil {
			return f, fmt.Errorf("writer: index %q: term %q: window hook: %w", e.name, e.term, herr)
		}
	}
	return f, err
}

// view returns docs [lo, hi) of the current window as a window.
func (e *emitter) view(lo, hi int) *prx.Window {
	if lo == 0 && hi == e.win.Docs() {
		return e.win
	}
	o := e.win.Offsets
	base := o[lo]
	e.sub.Offsets = e.sub.Offsets[:0]
	for _, v := range o[lo : hi+1] {
		e.sub.Offsets = append(e.sub.Offsets, v-base)
	}
	e.sub.Positions = e.win.Positions[base:o[hi]]
	return &e.sub
}

// finishWindowed writes the prelude and the doc windows of a windowed term.
func (e *emitter) finishWindowed(ent *format.Entry, start uint64) error {
	e.docBuf = format.AppendPrelude(e.docBuf[:0], e.refs)
	if _, err := e.out.Write(e.docBuf); err != nil {
		return err
	}
	if err := e.docSpan.copyTo(e.out); err != nil {
		return err
	}
	pre := uint64(len(e.docBuf))
	ent.Class = format.ClassWindowed
	ent.Offset, ent.PrxLen, ent.DocLen = start, e.prxLen, pre+uint64(e.docSpan.Len())
	e.meta.WindowedTerms++
	e.meta.PrxBytes += ent.PrxLen
	e.meta.DocBytes += ent.DocLen
	e.meta.PreludeBytes += pre
	return e.docSpan.reset()
}

func (e *emitter) encodeErr(err error, window int) error {
	return fmt.Errorf("writer: index %q: term %q: window %d: %w", e.name, e.term, window, err)
}

// addEntry adds the term's entry to the current dict block.
func (e *emitter) addEntry(ent *format.Entry) error {
	e.bb.Add(e.term, ent)
	if e.bb.PlainLen() >= format.BlockTarget {
		return e.flushBlock()
	}
	return nil
}

func (e *emitter) flushBlock() error {
	first := bytes.Clone(e.bb.FirstTerm())
	if first == nil {
		first = []byte{}
	}
	stored, info := e.bb.Finish(e.compress)
	info.Offset = uint64(e.dict.Len())
	if _, err := e.dict.Write(stored); err != nil {
		return err
	}
	e.blocks = append(e.blocks, info)
	e.first = append(e.first, first)
	e.bb.Reset()
	return nil
}
