package writer

import (
	"github.com/snii-go/snii/analysis"
	"github.com/snii-go/snii/internal/errs"
)

// A document's analysis into a docBatch, and the analysis goroutine.
//
// With GOMAXPROCS > 1 and only built-in analyzers, Add checks a document,
// numbers it and stores its record, then appends its values to a raw batch;
// a full raw batch goes to the analysis goroutine, which analyzes its
// documents in order into the inverter's batches with analyzers of its own
// (an analyzer is not shared across goroutines) while Add takes the next
// documents. A document of syncDocBytes or more is analyzed by its own Add
// once every document before it is inverted, so that it is the only one an
// analysis limit can reject (see syncDocBytes). Otherwise (one core, the
// serial fault, a registered analyzer) Add analyzes every document itself.

// syncDocBytes is the size, in value bytes plus analysis.ValueGap per
// value, from which a document is analyzed by its own Add. Below it a
// built-in analyzer cannot reach an analysis limit: it uses at most one
// position per byte of a value (a token takes one byte or more, keyword one
// position per non-empty value), so a field has fewer than 2^30 positions
// and tokens (the limits are 2^31 tokens and 2^32 positions), and a token
// takes at most 3/2 of its text's bytes (lowercasing rune by rune lengthens
// a 2-byte rune to 3 bytes at most), so the batch's terms stay below its
// handover size plus 3/2 GiB (the limit is 4 GiB).
const syncDocBytes = 1 << 30

// fieldAnalysis is one field's analysis of the document being analyzed
// into a batch.
type fieldAnalysis struct {
	name     string
	an       analysis.Analyzer
	seed     *hashSeed // the field's term buffer's
	next     uint64    // first position of the next value
	seen     bool      // the field had a value in this document
	overflow bool      // a position did not fit a uint32
	skipped  uint64    // tokens skipped in this document
	full     bool      // the document has too many tokens for a term buffer
	batch    *tokenBatch
	docStart int                           // the document's first token in batch
	emit     func(term []byte, pos uint32) // add, bound once (Add allocates nothing)
}

// docAnalyzer analyzes documents into batches, with one analyzer per field
// in Writer.fields order.
type docAnalyzer []*fieldAnalysis

// newDocAnalyzer returns a docAnalyzer with fresh analyzers for fields.
func newDocAnalyzer(fields []*fieldState) (docAnalyzer, error) {
	a := make(docAnalyzer, len(fields))
	for i, fs := range fields {
		an, err := analysis.New(fs.opt.Analyzer)
		if err != nil {
			return nil, err
		}
		fa := &fieldAnalysis{name: fs.opt.Name, an: an, seed: &fs.buf.seed}
		fa.emit = fa.add
		a[i] = fa
	}
	return a, nil
}

// begin starts a document at the end of b.
func (a docAnalyzer) begin(b *docBatch) {
	for i, fa := range a {
		fa.batch = &b.fields[i]
		fa.docStart = len(fa.batch.toks)
	}
}

// value analyzes a value of field i of the document.
func (a docAnalyzer) value(i int, v string) {
	fa := a[i]
	if fa.seen {
		fa.next += analysis.ValueGap
	}
	fa.seen = true
	n, sk := fa.an.Analyze(v, fa.emit)
	fa.next += uint64(n)
	fa.skipped += uint64(sk)
}

// end ends document id: it joins b, or, over an analysis limit, its tokens
// are dropped from b and the error says which limit.
func (a docAnalyzer) end(id uint32, b *docBatch) error {
	var failed error
	for _, fa := range a {
		switch {
		case fa.full:
			failed = errFull(id, fa.name)
		case fa.overflow:
			failed = errs.Limitf("writer: document %d, field %q: more than 2^32 positions", id, fa.name)
		}
	}
	if failed != nil {
		for _, fa := range a {
			fa.batch.truncate(fa.docStart)
			fa.resetDoc()
		}
		return failed
	}
	for _, fa := range a {
		fa.batch.docs = append(fa.batch.docs, batchDoc{end: len(fa.batch.toks), seen: fa.seen, skipped: fa.skipped})
		fa.resetDoc()
	}
	b.docs++
	return nil
}

func (fa *fieldAnalysis) resetDoc() {
	fa.next, fa.seen, fa.overflow, fa.full, fa.skipped = 0, false, false, false, 0
}

// builtinAnalyzers reports whether every field's analyzer is a built-in
// one, whose bound syncDocBytes relies on.
func builtinAnalyzers(fields []FieldOptions) bool {
	for _, f := range fields {
		sp, err := analysis.ParseSpec(f.Analyzer)
		if err != nil || sp.Version > 1 {
			return false
		}
		switch sp.Name {
		case "", analysis.Standard, analysis.Whitespace, analysis.Keyword:
		default:
			return false
		}
	}
	return true
}

// rawBatch is a run of documents Add has checked and numbered, not yet
// analyzed.
type rawBatch struct {
	vals   []rawValue // the documents' values, in Add's order
	ends   []int      // per document, the end of its values in vals
	memory int        // the bytes of the values and of vals and ends
	flush  bool       // invert every document up to the batch's last before replying
}

// rawValue is one value of a document of a rawBatch.
type rawValue struct {
	field int // in Writer.fields
	v     string
}

// Per value, the bytes of a raw batch besides the value's own; per document,
// its end.
const (
	rawValueBytes = 24
	rawDocBytes   = 8
)

func (r *rawBatch) reset() {
	clear(r.vals) // (the values' strings are the caller's: let them go)
	r.vals, r.ends, r.memory, r.flush = r.vals[:0], r.ends[:0], 0, false
}

// analyzerPipe passes raw batches from Add to the analysis goroutine.
type analyzerPipe struct {
	an     docAnalyzer    // the analysis goroutine's
	limit  int            // batchLimit
	syncAt int64          // syncDocBytes, or the test fault's
	cur    *rawBatch      // the batch Add fills
	spare  *rawBatch      // the other batch, when not in flight
	work   chan *rawBatch // to the goroutine (nil before it starts)
	done   chan error     // from the goroutine: the batch in flight is analyzed
	busy   bool           // a batch is in flight
}

// newAnalyzerPipe returns the analysis goroutine's pipe of a build, or nil
// when Add analyzes every document itself.
func newAnalyzerPipe(fields []*fieldState, o *Options) (*analyzerPipe, error) {
	if !o.parallel() || !builtinAnalyzers(o.Fields) {
		return nil, nil
	}
	an, err := newDocAnalyzer(fields)
	if err != nil {
		return nil, err
	}
	p := &analyzerPipe{an: an, limit: batchLimit(o.MemoryLimit), syncAt: syncDocBytes, cur: &rawBatch{}, spare: &rawBatch{}}
	if o.faults != nil && o.faults.syncDoc > 0 {
		p.syncAt = o.faults.syncDoc
	}
	return p, nil
}

// addRaw appends doc's values to the current raw batch and hands the batch
// over once full.
func (w *Writer) addRaw(doc *Document) error {
	p, r := w.pipe, w.pipe.cur
	for _, f := range doc.Fields {
		i := w.byName[f.Name].idx
		for _, v := range f.Values {
			r.vals = append(r.vals, rawValue{field: i, v: v})
			r.memory += len(v) + rawValueBytes
		}
	}
	r.ends = append(r.ends, len(r.vals))
	r.memory += rawDocBytes
	if r.memory >= p.limit {
		return w.sendRaw(false)
	}
	return nil
}

// sendRaw hands the current raw batch to the analysis goroutine (after
// waiting for the one in flight) and returns the first error of the
// analysis and the inversion so far. With flush it waits until every
// document added is inverted.
func (w *Writer) sendRaw(flush bool) error {
	p := w.pipe
	if err := w.waitAnalyzed(); err != nil {
		return err
	}
	r := p.cur
	if len(r.ends) == 0 { // (the goroutine is idle: Add may invert)
		if flush {
			return w.invertAll()
		}
		return nil
	}
	if p.work == nil {
		p.work, p.done = make(chan *rawBatch), make(chan error)
		go func(an docAnalyzer, work <-chan *rawBatch, done chan<- error) {
			var err error
			for r := range work {
				if err == nil {
					err = w.analyzeRaw(an, r)
				}
				done <- err
			}
		}(p.an, p.work, p.done)
	}
	r.flush = flush
	p.work <- r
	p.busy = true
	p.cur, p.spare = p.spare, r
	p.cur.reset()
	if flush {
		return w.waitAnalyzed()
	}
	return nil
}

// waitAnalyzed waits for the raw batch in flight and returns the first
// error of the analysis goroutine.
func (w *Writer) waitAnalyzed() error {
	p := w.pipe
	if !p.busy {
		return nil
	}
	err := <-p.done
	p.busy = false
	return err
}

// stopAnalyzer waits for the raw batch in flight and ends the analysis
// goroutine.
func (w *Writer) stopAnalyzer() {
	p := w.pipe
	if p == nil {
		return
	}
	_ = w.waitAnalyzed()
	if p.work != nil {
		close(p.work)
		p.work = nil
	}
}

// analyzeRaw analyzes r's documents into the inverter's batches (on the
// analysis goroutine), handing each batch over once full as Add does.
func (w *Writer) analyzeRaw(an docAnalyzer, r *rawBatch) error {
	inv := w.inv
	start := 0
	for _, end := range r.ends {
		b := inv.cur
		an.begin(b)
		for _, rv := range r.vals[start:end] {
			an.value(rv.field, rv.v)
		}
		start = end
		if err := an.end(b.first+uint32(b.docs), b); err != nil {
			return err
		}
		if b.memory() >= inv.limit {
			if err := w.handOver(); err != nil {
				return err
			}
		}
	}
	if fl := w.opts.faults; fl != nil {
		fl.asyncDocs += len(r.ends)
	}
	if r.flush {
		return w.invertAll()
	}
	return nil
}

// invertAdded inverts every document added so far (through the analysis
// goroutine when there is one).
func (w *Writer) invertAdded() error {
	if w.pipe != nil {
		return w.sendRaw(true)
	}
	return w.invertAll()
}
