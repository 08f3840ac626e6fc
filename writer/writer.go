package writer

import (
	"context"
	"fmt"
	"hash/maphash"
	"math"
	"os"
	"path/filepath"
	"sync"

	"github.com/snii-go/snii/analysis"
	"github.com/snii-go/snii/internal/errs"
	"github.com/snii-go/snii/internal/tmpfile"
)

const (
	// maxDocID is the largest doc id: a window's base (last doc + 1) must fit a uint32.
	maxDocID = math.MaxUint32 - 1
	// maxPosition is the largest position.
	maxPosition = math.MaxUint32
	// spillPoolBytes forces a spill before one field's pool nears its 4 GiB reach.
	spillPoolBytes = 2 << 30
)

// Stats describe a build so far. Terms and BytesOut are known after Close.
type Stats struct {
	Docs          uint64 // documents added
	Positions     uint64 // tokens indexed (over all fields)
	SkippedTokens uint64 // tokens skipped for being over their analyzer's length limit (they take a position)
	BytesIn       int64  // bytes of field values analyzed
	Spills        int    // sorted runs written to the run file
	RunBytes      int64  // bytes of the run file
	Buffered      int64  // memory held by the term buffers now
	PeakBuffered  int64  // the most memory the term buffers held after a document
	Terms         uint64 // distinct terms over all fields (after Close)
	BytesOut      int64  // segment file size (after Close)
}

type writerState uint8

const (
	stateOpen writerState = iota
	stateClosed
	stateFailed
)

// Writer builds one segment file. Documents are added with Add and get doc
// ids 0, 1, 2, … in order; Close writes the segment and publishes it
// atomically at the path given to Create. A Writer is not safe for
// concurrent use.
type Writer struct {
	path, dir string
	opts      Options
	fields    []*fieldState // sorted by name
	byName    map[string]*fieldState
	cache     blockCache

	ctx    context.Context  // the build's context (Create); never nil
	owners []*tmpfile.Owner // claims on the directories holding our temp files
	out    *tempFile        // the segment being written (destination directory)
	runs   *tempFile        // all spilled runs (temp dir); nil before the first spill
	spills [][]section      // per spill, per field
	temps  []*tempFile      // every temp file, for cleanup
	tempMu sync.Mutex       // guards owners and temps (the pair counting creates temp files beside the emitter)

	docs  uint64
	stats Stats
	state writerState
	err   error

	ids    []uint32 // scratch for spills
	runBuf []byte

	store   *storeWriter  // nil with Options.NoStore
	records recordSource  // BuildFromSources: the records, written at assembly
	inv     *inverter     // Add's batches of analyzed documents (invert.go)
	an      docAnalyzer   // Add's analysis (analyze.go)
	pipe    *analyzerPipe // the analysis goroutine's raw batches; nil when Add analyzes every document
}

type fieldState struct {
	opt      FieldOptions
	idx      int // in Writer.fields
	hasNorms bool

	// the inverter's (invert.go)
	buf          *termBuffer
	docsWith     uint64
	norms        []byte   // one norm byte per document added (nil when the field stores none)
	skippedTotal uint64   // tokens skipped in the documents added
	skipDocs     []uint32 // the documents added that skipped a token, ascending
	tokens       uint64   // tokens indexed in the documents added (sizes the pair counting)
	fwd          *pairFwd // the pair counting's forward index (pairs on, no spill yet; pairfwd.go)
}

// Create starts a segment at path (replaced on Close if it exists). The
// segment is written to a temp file in path's directory and renamed into
// place by Close; nothing appears at path before that. Once ctx is done, the
// build stops at its next check (spills, the merge of the runs, the window
// emitter and the assembly all check it within one output buffer), Add and
// Close return an error wrapping ctx's error, nothing is published at path
// and every temp file is removed.
func Create(ctx context.Context, path string, o Options) (*Writer, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	o, err := o.normalize()
	if err != nil {
		return nil, err
	}
	if path == "" {
		return nil, errs.Invalidf("writer: empty path")
	}
	w := &Writer{ctx: ctx, path: path, dir: filepath.Dir(path), opts: o, byName: make(map[string]*fieldState)}
	if err := isDir(w.dir); err != nil {
		return nil, errs.Invalidf("writer: %s: the output directory %s %v", path, w.dir, err)
	}
	if w.opts.TempDir == "" {
		w.opts.TempDir = w.dir
	} else if err := isDir(w.opts.TempDir); err != nil {
		return nil, errs.Invalidf("writer: Options.TempDir %s %v", w.opts.TempDir, err)
	}
	seed := maphash.MakeSeed()
	for i, f := range o.Fields {
		fs := &fieldState{opt: f, idx: i, buf: newTermBuffer(&w.cache, seed), hasNorms: f.storesNorms()}
		if o.Pairs.effectivePercent() > 0 && (o.faults == nil || !o.faults.pairNoFwd) {
			fs.fwd = newPairFwd(o.MemoryLimit/4/int64(len(o.Fields)), func() (*tempFile, error) { return w.createTemp(runPrefix) })
		}
		w.fields = append(w.fields, fs)
		w.byName[f.Name] = fs
	}
	if w.an, err = newDocAnalyzer(w.fields); err != nil {
		return nil, err
	}
	if w.pipe, err = newAnalyzerPipe(w.fields, &w.opts); err != nil {
		return nil, err
	}
	w.inv = newInverter(len(w.fields), &w.opts)
	out, err := w.createIn(w.dir, tmpPrefix, segmentPerm)
	if err != nil {
		_ = w.cleanup()
		return nil, err
	}
	w.out = out
	if !o.NoStore {
		limit := storeMemory
		if o.faults != nil && o.faults.spoolLimit > 0 {
			limit = o.faults.spoolLimit
		}
		sp := &spool{limit: limit, create: func() (*tempFile, error) { return w.createTemp(spoolPrefix) }}
		if w.store, err = newStoreWriter(&w.opts, sp); err != nil {
			_ = w.cleanup()
			return nil, err
		}
	}
	return w, nil
}

// createIn creates a temp file in dir, claiming dir on first use.
func (w *Writer) createIn(dir, prefix string, perm os.FileMode) (*tempFile, error) {
	w.tempMu.Lock()
	defer w.tempMu.Unlock()
	var owner *tmpfile.Owner
	for _, o := range w.owners {
		if o.Dir() == dir {
			owner = o
		}
	}
	if owner == nil {
		o, err := tmpfile.Claim(dir)
		if err != nil {
			return nil, fmt.Errorf("writer: %w", err)
		}
		owner = o
		w.owners = append(w.owners, o)
	}
	f, err := createTemp(owner, prefix, perm, w.opts.faults)
	if err != nil {
		return nil, err
	}
	f.ctx = w.ctx
	w.temps = append(w.temps, f)
	return f, nil
}

func (w *Writer) usable() error {
	switch w.state {
	case stateClosed:
		return fmt.Errorf("writer: %s: %w", w.path, errs.Closed)
	case stateFailed:
		return w.err
	}
	return nil
}

// Add indexes doc and returns its doc id (0, 1, 2, … in order). A field name
// that is not in Options.Fields is an error wrapping ErrInvalidArgument, and
// nothing is added; so is a document over an analysis limit (2^31 tokens or
// 2^32 positions in a field, 4 GiB of a field's terms), an error wrapping
// ErrLimit. Add may keep doc's strings (not its slices) until Close: they
// must not change once Add returns (only unsafe code could change them).
// Any other error fails the build: the Writer cleans up, and Close
// returns the error. The documents are analyzed and the term buffers take
// them a batch behind Add (see the package doc), so an error there (memory
// maps, spills) is returned by a later Add, or by Close, and fails the build
// too.
func (w *Writer) Add(doc Document) (uint32, error) {
	if err := w.usable(); err != nil {
		return 0, err
	}
	if err := w.ctx.Err(); err != nil {
		return 0, w.fail(fmt.Errorf("writer: %s: %w", w.path, err))
	}
	var bytesIn, size int64 // the document's values' bytes; with analysis.ValueGap a value (syncDocBytes)
	for _, f := range doc.Fields {
		if _, ok := w.byName[f.Name]; !ok {
			return 0, errs.Invalidf("writer: document %d: unknown field %q", w.docs, f.Name)
		}
		for _, v := range f.Values {
			bytesIn += int64(len(v))
		}
		size += analysis.ValueGap * int64(len(f.Values))
	}
	size += bytesIn
	if w.docs > maxDocID {
		return 0, errs.Limitf("writer: %s: segment full (%d documents)", w.path, w.docs)
	}
	id := uint32(w.docs)
	var rec []byte
	if w.store != nil {
		rec = w.store.docRecord(&doc)
		if len(rec) > MaxRecordBytes {
			return 0, errs.Limitf("writer: document %d: record of %d bytes (at most %d)", id, len(rec), MaxRecordBytes)
		}
	}
	async := w.pipe != nil && size < w.pipe.syncAt
	if !async {
		if w.pipe != nil { // every document before this one inverted: the analysis goroutine is idle
			if err := w.sendRaw(true); err != nil {
				return 0, w.fail(err)
			}
		}
		b := w.inv.cur
		w.an.begin(b)
		for _, f := range doc.Fields {
			i := w.byName[f.Name].idx
			for _, v := range f.Values {
				w.an.value(i, v)
			}
		}
		if err := w.an.end(id, b); err != nil {
			return 0, err
		}
	}
	if w.store != nil {
		if err := w.store.add(rec); err != nil {
			return 0, w.fail(fmt.Errorf("writer: %s: document %d: store: %w", w.path, id, err))
		}
	}
	w.docs++
	w.stats.Docs = w.docs
	w.stats.BytesIn += bytesIn
	var err error
	switch {
	case async:
		err = w.addRaw(&doc)
	case w.inv.cur.memory() >= w.inv.limit:
		err = w.handOver()
	}
	if err != nil {
		return 0, w.fail(err)
	}
	return id, nil
}

// checkFwd drops the pair counting's forward index of a field whose
// analyzer gave positions out of order or that could not keep within its
// share, and all of them when together they hold more than MemoryLimit/4.
func (w *Writer) checkFwd() {
	var n int64
	for _, fs := range w.fields {
		if fs.fwd != nil && fs.fwd.bad {
			fs.fwd.free()
			fs.fwd = nil
		}
		if fs.fwd != nil {
			n += fs.fwd.memory()
		}
	}
	if n > w.opts.MemoryLimit/4 {
		w.dropFwd()
	}
}

// dropFwd drops the forward indexes: the pairs are counted from the
// postings alone.
func (w *Writer) dropFwd() {
	for _, fs := range w.fields {
		if fs.fwd != nil {
			fs.fwd.free()
			fs.fwd = nil
		}
	}
}

// fullErr describes why a term buffer could not take a document.
func (w *Writer) fullErr(doc uint32, fs *fieldState) error {
	if err := w.cache.err; err != nil {
		return fmt.Errorf("writer: document %d, field %q: map term buffer memory: %w", doc, fs.opt.Name, err)
	}
	return errFull(doc, fs.opt.Name)
}

// errFull is the error of a document a term buffer cannot take.
func errFull(doc uint32, field string) error {
	return errs.Limitf("writer: document %d, field %q: term buffer full (4 GiB, or 2^31 tokens in one document)", doc, field)
}

// buffered returns the memory held by the term buffers.
func (w *Writer) buffered() int64 {
	var n int64
	for _, fs := range w.fields {
		n += fs.buf.memory()
	}
	return n
}

func (w *Writer) maybeSpill() error {
	n := w.buffered()
	w.stats.Buffered = n
	w.stats.PeakBuffered = max(w.stats.PeakBuffered, n)
	force := false
	for _, fs := range w.fields {
		if fs.buf.pool.size() > spillPoolBytes {
			force = true
		}
	}
	if n <= w.opts.MemoryLimit-w.storeReserve()-batchReserve(w.opts.MemoryLimit) && !force {
		return nil
	}
	return w.spill()
}

// storeReserve is the memory the term buffers leave to the store: its
// encoder, blocks and spool (storeOverhead, at most a quarter of
// MemoryLimit; 0 without a store).
func (w *Writer) storeReserve() int64 {
	if w.store == nil {
		return 0
	}
	return min(storeOverhead, w.opts.MemoryLimit/4)
}

// spill writes every non-empty term buffer as one run section and empties them.
func (w *Writer) spill() error {
	if w.runs == nil {
		f, err := w.createTemp(runPrefix)
		if err != nil {
			return err
		}
		w.runs = f
	}
	w.dropFwd() // its ids are the buffers' ids, which a spill resets
	secs := make([]section, len(w.fields))
	for i, fs := range w.fields {
		if fs.buf.empty() {
			continue
		}
		start := w.runs.size
		bw := newBlockWriter(w.runs, w.runBuf)
		ids, err := writeRunSection(bw, fs.buf, w.ids)
		w.ids, w.runBuf = ids[:0], bw.buf[:0]
		if err != nil {
			return fmt.Errorf("writer: spill run %d of index %q: %w", len(w.spills), fs.opt.Name, err)
		}
		secs[i] = section{off: start, n: w.runs.size - start}
		fs.buf.reset()
	}
	w.spills = append(w.spills, secs)
	w.stats.Spills = len(w.spills)
	w.stats.RunBytes = w.runs.size
	w.stats.Buffered = w.buffered()
	return nil
}

func (w *Writer) createTemp(prefix string) (*tempFile, error) {
	return w.createIn(w.opts.TempDir, prefix, scratchPerm)
}

// Stats returns the build's counters so far.
func (w *Writer) Stats() Stats {
	if w.state == stateOpen && w.inv != nil {
		if err := w.invertAdded(); err != nil {
			_ = w.fail(err)
		}
	}
	return w.stats
}

// Close writes the segment and publishes it at the path given to Create
// (temp file, fsync, rename, fsync of the directory). On error nothing is
// left at the path and every temp file is removed. Close after Close is an
// error wrapping snii.ErrClosed.
func (w *Writer) Close() error {
	if err := w.usable(); err != nil {
		return err
	}
	if w.inv != nil {
		if err := w.invertAdded(); err != nil {
			return w.fail(err)
		}
	}
	if err := w.finish(); err != nil {
		return w.fail(err)
	}
	w.state = stateClosed
	w.release()
	return w.cleanup()
}

// Abort discards the build: nothing is written at the path and every temp
// file is removed. Abort after Close or Abort does nothing.
func (w *Writer) Abort() error {
	if w.state != stateOpen {
		return nil
	}
	w.state = stateClosed
	w.err = fmt.Errorf("writer: %s: aborted: %w", w.path, errs.Closed)
	w.release()
	return w.cleanup()
}

// fail records err, removes every temp file and returns err.
func (w *Writer) fail(err error) error {
	if w.state == stateFailed {
		return w.err
	}
	w.state = stateFailed
	w.err = err
	w.release()
	_ = w.cleanup()
	return err
}

// release frees the term buffers and unmaps their memory.
func (w *Writer) release() {
	w.stopAnalyzer()
	w.stopInverter()
	for _, fs := range w.fields {
		fs.buf.release()
	}
	w.dropFwd()
	_ = w.cache.close()
	w.store.close()
}

// cleanup closes and removes every temp file, then releases the claims on
// their directories.
func (w *Writer) cleanup() error {
	var first error
	for _, f := range w.temps {
		if err := f.remove(); err != nil && first == nil {
			first = err
		}
	}
	w.temps = nil
	for _, o := range w.owners {
		if err := o.Release(); err != nil && first == nil {
			first = fmt.Errorf("writer: %w", err)
		}
	}
	w.owners = nil
	return first
}
