package writer

import (
	"encoding/binary"
	"math"
	"runtime"
	"slices"
	"unsafe"

	"github.com/snii-go/snii/internal/codec/format"
)

// A document is analyzed into a docBatch (by Add, or by the analysis
// goroutine; analyze.go): per field, its tokens' bytes, positions and
// hashes. A full batch goes to the inverter, which adds its documents to the term buffers and the forward
// indexes (and spills) on a goroutine of its own while the next batch is
// analyzed; at most one batch is in flight, and the term buffers see the
// documents in order, as if Add had inverted each itself. With GOMAXPROCS 1
// the inverter runs on Add's goroutine when the batch is full.

// batchMemory bounds the memory of a batch: it is handed over once it holds
// min(batchMemory, MemoryLimit/128) bytes (a single document may pass it).
// The term buffers leave batchReserve to the batches.
const batchMemory = 160 << 10

// batchLimit is the memory a batch is handed over at.
func batchLimit(memoryLimit int64) int { return int(min(batchMemory, memoryLimit/128)) }

// batchReserve is the memory the term buffers leave to the batches: two
// analyzed batches (the one being filled and the one being inverted) and two
// raw ones (the one Add fills and the one being analyzed; analyze.go).
func batchReserve(memoryLimit int64) int64 { return 4 * int64(batchLimit(memoryLimit)) }

// Per token, the bytes of a batch besides the token's own: its batchToken;
// per document and field, its batchDoc.
const (
	batchTokenBytes = int(unsafe.Sizeof(batchToken{}))
	batchDocBytes   = int(unsafe.Sizeof(batchDoc{}))
)

// docBatch is a run of analyzed documents.
type docBatch struct {
	first  uint32       // doc id of the batch's first document
	docs   int          // documents in the batch
	fields []tokenBatch // per field, in Writer.fields order
}

// tokenBatch holds one field's tokens of a batch's documents.
type tokenBatch struct {
	terms []byte       // the tokens' bytes, concatenated
	toks  []batchToken // per token
	docs  []batchDoc   // per document of the batch
}

// batchToken is one token of a tokenBatch.
type batchToken struct {
	end  uint32 // the end of its bytes in terms
	pos  uint32 // its position in its document
	hash uint32 // its termHash
}

// batchDoc is one document's part of a tokenBatch.
type batchDoc struct {
	end     int    // the field's tokens of the batch up to this document's last
	seen    bool   // the field had a value in the document
	skipped uint64 // tokens skipped in the document
}

// truncate drops the tokens from token n on (a failed document's).
func (tb *tokenBatch) truncate(n int) {
	end := uint32(0)
	if n > 0 {
		end = tb.toks[n-1].end
	}
	tb.terms, tb.toks = tb.terms[:end], tb.toks[:n]
}

// reset empties b for the documents from first on, dropping the buffers a
// large document grew.
func (b *docBatch) reset(first uint32) {
	b.first, b.docs = first, 0
	for i := range b.fields {
		tb := &b.fields[i]
		if cap(tb.terms)+batchTokenBytes*cap(tb.toks) > 2*batchMemory {
			*tb = tokenBatch{}
			continue
		}
		tb.truncate(0)
		tb.docs = tb.docs[:0]
	}
}

// memory returns the bytes b's tokens and documents take.
func (b *docBatch) memory() int {
	n := 0
	for i := range b.fields {
		tb := &b.fields[i]
		n += len(tb.terms) + batchTokenBytes*len(tb.toks) + batchDocBytes*len(tb.docs)
	}
	return n
}

// inverter passes batches from Add to the goroutine that inverts them.
type inverter struct {
	limit int            // batchLimit
	async bool           // invert on a goroutine of its own (GOMAXPROCS > 1)
	cur   *docBatch      // the batch Add fills
	spare *docBatch      // the other batch, when not in flight
	work  chan *docBatch // to the goroutine (nil before it starts)
	done  chan error     // from the goroutine: the batch in flight is inverted
	busy  bool           // a batch is in flight
}

func newInverter(fields int, o *Options) *inverter {
	newBatch := func() *docBatch { return &docBatch{fields: make([]tokenBatch, fields)} }
	return &inverter{limit: batchLimit(o.MemoryLimit), async: o.parallel(), cur: newBatch(), spare: newBatch()}
}

// aheadMinLimit is the smallest MemoryLimit at which a field's prx encoder
// compresses units on a second goroutine: that goroutine's zstd encoder and
// buffers (and the Go heap's room for them) take about 12 MiB beside the
// limit, which smaller limits leave no room for.
const aheadMinLimit = 128 << 20

// parallel reports whether the build takes a second goroutine for Add's
// batches and for each field's prx encoder (GOMAXPROCS > 1).
func (o *Options) parallel() bool {
	return runtime.GOMAXPROCS(0) > 1 && (o.faults == nil || !o.faults.serial)
}

// handOver starts the inversion of the current batch (after waiting for the
// one in flight) and returns the first error of the inversion so far.
func (w *Writer) handOver() error {
	inv := w.inv
	if err := w.waitInverted(); err != nil {
		return err
	}
	b := inv.cur
	if b.docs == 0 {
		return nil
	}
	if !inv.async {
		err := w.invertBatch(b)
		b.reset(b.first + uint32(b.docs))
		return err
	}
	if inv.work == nil {
		inv.work, inv.done = make(chan *docBatch), make(chan error)
		go func(work <-chan *docBatch, done chan<- error) {
			for b := range work {
				done <- w.invertBatch(b)
			}
		}(inv.work, inv.done)
	}
	inv.work <- b
	inv.busy = true
	inv.cur, inv.spare = inv.spare, b
	inv.cur.reset(b.first + uint32(b.docs))
	return nil
}

// waitInverted waits for the batch in flight and returns its error.
func (w *Writer) waitInverted() error {
	inv := w.inv
	if !inv.busy {
		return nil
	}
	err := <-inv.done
	inv.busy = false
	return err
}

// invertAll inverts every document added so far.
func (w *Writer) invertAll() error {
	if err := w.handOver(); err != nil {
		return err
	}
	return w.waitInverted()
}

// stopInverter waits for the batch in flight and ends the goroutine.
func (w *Writer) stopInverter() {
	inv := w.inv
	if inv == nil {
		return
	}
	_ = w.waitInverted()
	if inv.work != nil {
		close(inv.work)
		inv.work = nil
	}
}

// invertBatch adds b's documents to the term buffers, one document at a
// time, with the checks Add made after each (forward indexes, spill).
func (w *Writer) invertBatch(b *docBatch) error {
	for d := 0; d < b.docs; d++ {
		id := b.first + uint32(d)
		for i, fs := range w.fields {
			tb := &b.fields[i]
			t := 0
			if d > 0 {
				t = tb.docs[d-1].end
			}
			start := uint32(0)
			if t > 0 {
				start = tb.toks[t-1].end
			}
			buf, fwd := fs.buf, fs.fwd
			for _, tk := range tb.toks[t:tb.docs[d].end] {
				tid, ok := buf.add(tb.terms[start:tk.end], tk.hash, tk.pos)
				if !ok {
					return w.fullErr(id, fs)
				}
				if fwd != nil {
					fwd.token(tk.pos, tid)
				}
				start = tk.end
			}
		}
		for i, fs := range w.fields {
			bd := &b.fields[i].docs[d]
			if fs.fwd != nil {
				fs.fwd.endDoc()
			}
			if !bd.seen {
				if fs.hasNorms {
					fs.norms = append(fs.norms, 0)
				}
				continue
			}
			tokens, ok := fs.buf.finishDoc(id)
			if fs.hasNorms {
				fs.norms = append(fs.norms, format.EncodeNorm(uint64(tokens)))
			}
			if bd.skipped > 0 {
				fs.skippedTotal += bd.skipped
				fs.skipDocs = append(fs.skipDocs, id)
				w.stats.SkippedTokens += bd.skipped
			}
			if !ok {
				return w.fullErr(id, fs)
			}
			if tokens > 0 {
				fs.docsWith++
				w.stats.Positions += uint64(tokens)
				fs.tokens += uint64(tokens)
			}
		}
		w.checkFwd()
		if err := w.maybeSpill(); err != nil {
			return err
		}
	}
	return nil
}

// add is the analyzer callback of the field (bound once, so the analysis
// allocates nothing): it appends the token to the field's part of the
// current batch.
func (fs *fieldAnalysis) add(term []byte, pos uint32) {
	p := fs.next + uint64(pos)
	if p > maxPosition {
		fs.overflow = true
		return
	}
	tb := fs.batch
	if len(tb.toks)-fs.docStart >= math.MaxInt32 || uint64(len(tb.terms))+uint64(len(term)) > math.MaxUint32 {
		fs.full = true
		return
	}
	n, room := len(tb.terms), max(len(term), inlineTerm)
	if cap(tb.terms)-n < room {
		tb.terms = slices.Grow(tb.terms, room)
	}
	var h uint32 // termHash, its common case inlined
	if len(term) <= inlineTerm {
		// The term's bytes by its termKey: one store of inlineTerm bytes
		// (the zeros past the term stay past the batch's length).
		k := termKey(term)
		binary.LittleEndian.PutUint64(tb.terms[n:n+inlineTerm], k)
		h = keyHash(fs.seed, k, len(term))
	} else {
		copy(tb.terms[n:n+len(term)], term)
		h = longTermHash(fs.seed, term)
	}
	tb.terms = tb.terms[:n+len(term)] // (a length store alone: no write barrier while the GC marks)
	tb.toks = append(tb.toks, batchToken{end: uint32(len(tb.terms)), pos: uint32(p), hash: h})
}
