package writer

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/snii-go/snii/internal/codec/format"
	"github.com/snii-go/snii/internal/codec/prx"
	"github.com/snii-go/snii/internal/codec/zstdopt"
	"github.com/snii-go/snii/internal/errs"
	"github.com/snii-go/snii/internal/seam"
	"golang.org/x/sync/errgroup"
)

const (
	outBufferSize = 256 << 10
	dictMemory    = 8 << 20 // dict region bytes kept in memory before spooling to a temp file
	docSpanMemory = 4 << 20 // doc windows of one windowed term kept in memory before spooling
)

// IndexInput is one field fed to BuildFromSources.
type IndexInput struct {
	Name          string        // must be one of Options.Fields
	DocsWithField uint64        // documents with at least one token in the field
	SkippedTokens uint64        // tokens the analyzer skipped (recorded in the field metadata)
	Postings      PostingSource // nil: the field has no terms
	// Norms are the field's norm bytes (Norm of each document's field
	// length, or the bytes reader.Segment.FieldLengths returns), docCount of
	// them, for a field that stores norms; nil means every document has
	// length 0. A field without norms takes none.
	Norms []byte
	// SkipDocs are the documents, ascending, in which the analyzer skipped
	// at least one token of the field (recorded in the field metadata, for
	// the regexes of package grep). SkipDocsUnknown says they are not known
	// (a source segment of format 8 or older whose field skipped tokens):
	// the segment then records none.
	SkipDocs        []uint32
	SkipDocsUnknown bool
}

// BuildFromSources writes a segment of docCount documents whose fields
// are fed by PostingSources, through the same window emitter, codec
// budget and atomic publication as Writer.Close. It is the entry point of
// compaction: a merge of segments passes one source per field yielding the
// remapped, concatenated postings of each term. Every field of o.Fields is
// written; fields without an input get an empty index. Same options and
// postings give the same bytes as building the documents with a Writer.
//
// Once ctx is done the build stops as with Create: the error wraps
// ctx's error and nothing is published at path.
//
// records feeds the documents' records: it calls add with each document's
// record in doc id order, docCount of them (add copies it), and returns add's
// first error; nil (or Options.NoStore) builds a segment that keeps no
// records.
func BuildFromSources(ctx context.Context, path string, o Options, docCount uint64, inputs []IndexInput, records func(add func(rec []byte) error) error) (Stats, error) {
	o, err := o.normalize()
	if err != nil {
		return Stats{}, err
	}
	if docCount > maxDocID+1 {
		return Stats{}, errs.Limitf("writer: %s: %d documents (at most 2^32-1)", path, docCount)
	}
	byName := make(map[string]int, len(o.Fields))
	ins := make([]fieldInput, len(o.Fields))
	for i, f := range o.Fields {
		byName[f.Name] = i
		ins[i].field = f
	}
	for _, in := range inputs {
		i, ok := byName[in.Name]
		if !ok {
			return Stats{}, errs.Invalidf("writer: %s: input for unknown field %q", path, in.Name)
		}
		if ins[i].src != nil || ins[i].docsWith != 0 {
			return Stats{}, errs.Invalidf("writer: %s: two inputs for field %q", path, in.Name)
		}
		if in.DocsWithField > docCount {
			return Stats{}, errs.Invalidf("writer: %s: field %q: %d docs with the field of %d", path, in.Name, in.DocsWithField, docCount)
		}
		switch {
		case in.Norms != nil && !ins[i].field.storesNorms():
			return Stats{}, errs.Invalidf("writer: %s: field %q stores no norms but its input has some", path, in.Name)
		case in.Norms != nil && uint64(len(in.Norms)) != docCount:
			return Stats{}, errs.Invalidf("writer: %s: field %q: %d norms for %d documents", path, in.Name, len(in.Norms), docCount)
		}
		if err := checkSkipDocs(&in, docCount); err != nil {
			return Stats{}, errs.Invalidf("writer: %s: field %q: %v", path, in.Name, err)
		}
		ins[i].src, ins[i].docsWith, ins[i].skipped, ins[i].norms = in.Postings, in.DocsWithField, in.SkippedTokens, in.Norms
		ins[i].skipDocs, ins[i].skipDocsKnown = in.SkipDocs, !in.SkipDocsUnknown
	}
	w, err := Create(ctx, path, o)
	if err != nil {
		return Stats{}, err
	}
	w.docs = docCount
	w.stats.Docs = docCount
	if records == nil && w.store != nil {
		w.store.close()
		w.store = nil
	}
	w.records = records
	if err := w.publish(ins); err != nil {
		return Stats{}, w.fail(err)
	}
	w.state = stateClosed
	w.release()
	return w.stats, w.cleanup()
}

// fieldInput is one field to write.
type fieldInput struct {
	field    FieldOptions
	docsWith uint64
	skipped  uint64        // tokens the analyzer skipped
	norms    []byte        // norm bytes (nil: all 0) when field.storesNorms()
	tokens   uint64        // tokens indexed, when known (0: unknown); sizes the pair counting's buffer
	fwd      *pairFwd      // the field's forward index for the pair counting (a build without spills), or nil
	src      PostingSource // nil: no terms
	// emitted, when not nil, is called once src has been read to its end
	// and nothing reads the field's term buffer any more: a pair counting
	// without a forward index then works in the memory the buffer held.
	emitted func()
	// skipDocs are the documents that skipped a token, ascending, when
	// skipDocsKnown.
	skipDocs      []uint32
	skipDocsKnown bool
}

// finish merges each field's runs and in-memory remainder and publishes the
// segment.
func (w *Writer) finish() error {
	if w.runs != nil && w.opts.faults != nil && w.opts.faults.corruptRun && w.runs.size > 0 {
		var b [1]byte
		off := w.runs.size / 2
		if _, err := w.runs.f.ReadAt(b[:], off); err == nil {
			b[0] ^= 0x40
			_, _ = w.runs.f.WriteAt(b[:], off)
		}
	}
	ins := make([]fieldInput, len(w.fields))
	for i, fs := range w.fields {
		ins[i] = fieldInput{field: fs.opt, docsWith: fs.docsWith, skipped: fs.skippedTotal, skipDocs: fs.skipDocs, skipDocsKnown: true, norms: fs.norms, tokens: fs.tokens,
			emitted: func() { fs.buf.release(); w.cache.dropFree() }}
		var srcs []PostingSource
		for k, secs := range w.spills {
			if secs[i].n > 0 {
				srcs = append(srcs, newRunSource(w.runs, secs[i], fmt.Sprintf("run %d of index %q", k, fs.opt.Name)))
			}
		}
		if !fs.buf.empty() {
			ids := fs.buf.sortedIDs(nil)
			srcs = append(srcs, newMemSource(fs.buf, ids))
			if fs.fwd != nil && len(w.spills) == 0 {
				fs.fwd.mapOrds(fs.buf, ids, w.pairsMinDF(fs.tokens))
				ins[i].fwd = fs.fwd
			}
		}
		switch len(srcs) {
		case 0:
		case 1:
			ins[i].src = &ctxSource{ctx: w.ctx, src: srcs[0]}
		default:
			ins[i].src = &ctxSource{ctx: w.ctx, src: newMergeSource(srcs)}
		}
	}
	return w.publish(ins)
}

// publish writes the segment into the temp file and renames it into place.
func (w *Writer) publish(ins []fieldInput) error {
	terms, err := w.assemble(ins)
	if err != nil {
		return err
	}
	fl := w.opts.faults
	if fl != nil && fl.failSync {
		fl.failed = true
		return fmt.Errorf("writer: sync %s: %w", w.out.path, errInjected)
	}
	if err := w.out.f.Sync(); err != nil {
		return fmt.Errorf("writer: sync %s: %w", w.out.path, err)
	}
	if err := w.out.f.Close(); err != nil {
		return fmt.Errorf("writer: close %s: %w", w.out.path, err)
	}
	if err := w.ctx.Err(); err != nil { // the last moment to stop: nothing is published yet
		return fmt.Errorf("writer: %s: %w", w.path, err)
	}
	if fl != nil && fl.failRename {
		fl.failed = true
		return fmt.Errorf("writer: rename %s: %w", w.out.path, errInjected)
	}
	if err := os.Rename(w.out.path, w.path); err != nil {
		return fmt.Errorf("writer: rename %s to %s: %w", filepath.Base(w.out.path), w.path, err)
	}
	w.out.f = nil // published: no longer a temp file to remove
	if err := syncDir(w.dir); err != nil {
		_ = os.Remove(w.path)
		return err
	}
	w.stats.Terms = terms
	w.stats.BytesOut = w.out.size
	return nil
}

// assemble writes the whole segment into the temp file: header, each field
// (posting region, dict region, metadata group), the store (blocks, header),
// directory, tail.
func (w *Writer) assemble(ins []fieldInput) (terms uint64, err error) {
	o := &w.opts
	bw := bufio.NewWriterSize(w.out, outBufferSize)
	cw := &countWriter{w: bw}
	if _, err := cw.Write(format.AppendHeader(nil)); err != nil {
		return 0, err
	}
	zenc, err := zstdopt.NewEncoder(o.ZstdLevel)
	if err != nil {
		return 0, fmt.Errorf("writer: %w", err)
	}
	defer zenc.Close()
	compress := func(dst, src []byte) []byte { return zenc.EncodeAll(src, dst) }
	newSpool := func(limit int) *spool {
		if o.faults != nil && o.faults.spoolLimit > 0 {
			limit = o.faults.spoolLimit
		}
		return &spool{limit: limit, create: func() (*tempFile, error) { return w.createTemp(spoolPrefix) }}
	}
	dict, docSpan := newSpool(dictMemory), newSpool(docSpanMemory)
	dir := format.Directory{DocCount: w.docs}
	var meta []byte
	for i := range ins {
		in := &ins[i]
		m, err := w.writeField(cw, in, dict, docSpan, compress)
		if err != nil {
			return 0, err
		}
		terms += m.TermCount
		metaOff := cw.n
		meta = format.AppendIndexMeta(meta[:0], &m)
		if _, err := cw.Write(meta); err != nil {
			return 0, err
		}
		dir.Indexes = append(dir.Indexes, format.DirEntry{Name: in.field.Name, MetaOff: metaOff, MetaLen: uint64(len(meta)), MetaCRC: format.Checksum(meta)})
		if err := dict.reset(); err != nil {
			return 0, err
		}
		if i < len(w.fields) {
			w.fields[i].buf.release() // the field is written: its buffer is no longer needed
			if f := w.fields[i].fwd; f != nil {
				f.free()
				w.fields[i].fwd = nil
			}
		}
		in.fwd = nil
	}
	if w.store != nil {
		if err := w.writeStore(cw, &dir, w.records); err != nil {
			return 0, err
		}
	}
	dirOff := cw.n
	db := format.AppendDirectory(nil, &dir)
	if _, err := cw.Write(db); err != nil {
		return 0, err
	}
	tail := format.AppendTail(nil, format.Tail{DirOff: dirOff, DirLen: uint64(len(db)), DirCRC: format.Checksum(db)})
	if _, err := cw.Write(tail); err != nil {
		return 0, err
	}
	if err := bw.Flush(); err != nil {
		return 0, err
	}
	return terms, nil
}

// writeField writes one field's posting and dict regions and returns its metadata.
func (w *Writer) writeField(cw *countWriter, in *fieldInput, dict, docSpan *spool, compress func(dst, src []byte) []byte) (format.IndexMeta, error) {
	o := &w.opts
	enc, err := prx.NewEncoder(prx.EncoderOptions{ZstdLevel: o.ZstdLevel, Limits: o.Limits, Policy: o.Policy, Parallel: o.parallel() && o.MemoryLimit >= aheadMinLimit})
	if err != nil {
		return format.IndexMeta{}, err
	}
	defer enc.Close()
	e := &emitter{
		name: in.field.Name, docCount: w.docs, enc: enc, onWindow: seam.OnWindow(&o.captureSeam), out: cw, postOff: cw.n,
		docSpan: docSpan, dict: dict, compress: compress, norms: in.norms, hasNorms: in.field.storesNorms(),
	}
	src := in.src
	var (
		pw    *pairWriter
		cands []pairCand
		g     errgroup.Group // the pair counting off a forward index, beside the emitter
	)
	if in.fwd != nil && src != nil && o.Pairs.effectivePercent() > 0 {
		pw = w.newPairWriter(in.fwd.tap(w.pairsMinDF(in.tokens), w.docs), in.field.Name)
		defer pw.free()
		g.Go(func() (err error) {
			cands, err = pw.countCandidates()
			return err
		})
	} else if tap := w.newPairTap(src, in.field.Name, in.tokens); tap != nil {
		src = tap
		defer tap.close()
	}
	if src != nil {
		err := e.run(src)
		if gerr := g.Wait(); err == nil && gerr != nil {
			err = fmt.Errorf("writer: index %q: pairs: %w", in.field.Name, gerr)
		}
		if err != nil {
			return format.IndexMeta{}, err
		}
	}
	if tap, ok := src.(*pairTap); ok {
		if in.emitted != nil { // the pairs no longer read the buffer: count them in its memory
			in.emitted()
		}
		pw = w.newPairWriter(tap, in.field.Name)
		defer pw.free()
		var err error
		if cands, err = pw.countCandidates(); err != nil {
			return format.IndexMeta{}, fmt.Errorf("writer: index %q: pairs: %w", in.field.Name, err)
		}
	} else if in.emitted != nil && pw == nil {
		in.emitted()
	}
	m := e.meta
	m.Name, m.Analyzer = in.field.Name, in.field.Analyzer
	m.DocCount, m.DocsWithField, m.SkippedTokens = w.docs, in.docsWith, in.skipped
	m.SkipDocs, m.SkipDocsKnown = in.skipDocs, in.skipDocsKnown || in.skipped == 0 // none skipped: none to list
	m.PostingOff, m.PostingLen = e.postOff, cw.n-e.postOff
	m.DictOff = cw.n
	if err := dict.copyTo(cw); err != nil {
		return format.IndexMeta{}, err
	}
	m.DictLen = cw.n - m.DictOff
	if in.field.storesNorms() {
		if err := writeNorms(cw, in.norms, w.docs); err != nil {
			return format.IndexMeta{}, err
		}
		m.HasNorms, m.NormsOff = true, m.DictOff+m.DictLen
		m.NormsCRC = normsCRC(in.norms, w.docs)
	}
	m.Policy, m.ZstdLevel, m.Limits = o.Policy, o.ZstdLevel, o.Limits
	out := enc.Outcome()
	m.Outcome.Windows, m.Outcome.Bytes, m.Outcome.Budget = out.Windows, out.Bytes, out.Budget
	m.Blocks, m.FirstTerms = e.blocks, e.first
	if err := w.writePairs(cw, pw, cands, &m); err != nil {
		return format.IndexMeta{}, err
	}
	return m, nil
}

// ctxSource stops a PostingSource when the build's context is done: the run
// merge and the emitter may go a while without writing (a long term's
// postings), so the source checks every 1024 calls too.
type ctxSource struct {
	ctx context.Context
	src PostingSource
	n   uint32
}

func (c *ctxSource) check() error {
	if c.n++; c.n%1024 == 0 {
		return c.ctx.Err()
	}
	return nil
}

func (c *ctxSource) NextTerm() ([]byte, uint64, bool, error) {
	if err := c.check(); err != nil {
		return nil, 0, false, err
	}
	return c.src.NextTerm()
}

func (c *ctxSource) NextDoc() (uint32, []uint32, bool, error) {
	if err := c.check(); err != nil {
		return 0, nil, false, err
	}
	return c.src.NextDoc()
}

// checkSkipDocs checks an input's skipped documents: ascending, below
// docCount, at most one per skipped token, none when unknown.
func checkSkipDocs(in *IndexInput, docCount uint64) error {
	switch {
	case in.SkipDocsUnknown && len(in.SkipDocs) > 0:
		return fmt.Errorf("%d skipped documents said to be unknown", len(in.SkipDocs))
	case uint64(len(in.SkipDocs)) > in.SkippedTokens:
		return fmt.Errorf("%d skipped documents for %d skipped tokens", len(in.SkipDocs), in.SkippedTokens)
	}
	for i, d := range in.SkipDocs {
		if uint64(d) >= docCount || i > 0 && d <= in.SkipDocs[i-1] {
			return fmt.Errorf("skipped document %d (%d) not ascending or not below %d", i, d, docCount)
		}
	}
	return nil
}
