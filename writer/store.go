package writer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/klauspost/compress/zstd"
	"github.com/snii-go/snii/internal/codec/format"
	"github.com/snii-go/snii/internal/codec/zstdopt"
	"github.com/snii-go/snii/internal/errs"
)

// MaxRecordBytes is the longest record a segment stores: the plain bytes of
// a store block (256 MiB) less 16.
const MaxRecordBytes = 1<<28 - 16

// MaxRecordBytes is the store's block bound less 16 (a constant index other
// than 0 does not compile).
var _ = [1]struct{}{}[MaxRecordBytes-(format.MaxStoreBlockPlain-16)]

const (
	// storeZstdLevel is the zstd level of store blocks (zstdopt.Level).
	storeZstdLevel = 3
	// storeMemory is how many compressed store bytes a Writer keeps in
	// memory before spooling them to a temp file.
	storeMemory = 1 << 20
	// storeOverhead is the memory the store takes from the writer's
	// MemoryLimit: its encoder (match tables and history), the blocks
	// being filled and compressed, the spool's buffer, and the Go heap's
	// room for them to be collected.
	storeOverhead = 16 << 20
	// storeKeep bounds the block buffers the store's writer keeps between
	// blocks: those of a block of a large record are dropped.
	storeKeep = 4 * format.StoreBlockTarget
	// storeWindow is the store encoder's window: it bounds the encoder's
	// history buffer to 2 MiB (zstd's default window, 8 MiB, takes 16 MiB).
	// A block of one record over it finds its matches within the window.
	storeWindow = 1 << 20
	// storeRawLitsMax is the most bytes a store block's Huffman-coded
	// literals may save for the block to be stored with its literals raw
	// instead (zstdopt.RawLiterals): a decoder skips their table read and
	// decode, a cost much the same for every block of StoreBlockTarget, so
	// a fixed byte price per block bounds what the faster decode costs
	// (docs/FORMAT.md, Store).
	storeRawLitsMax = 320
)

// recordSource feeds the records of a BuildFromSources build (see there).
type recordSource = func(add func(rec []byte) error) error

// storeWriter cuts records into store blocks and writes them to out as they
// fill. A full block is compressed on a goroutine of its own while the next
// one fills; the block is written (by the caller's goroutine, in order) when
// the next one is full, or at finish. At most one block is in flight.
type storeWriter struct {
	b       format.StoreBlockBuilder
	enc     *zstd.Encoder
	lits    zstdopt.Sharer // for the blocks' raw-literal frames
	frame   []byte         // scratch: a block's frame with Huffman-coded literals
	out     io.Writer
	meta    format.StoreMeta
	plain   []byte           // the block in flight, plain
	comp    []byte           // its stored form
	pending chan storedBlock // the block in flight, or nil
	doc     []byte           // scratch: a Document's JSON record
	docBuf  bytes.Buffer
}

// storedBlock is a compressed block and its index entry.
type storedBlock struct {
	b  []byte
	sb format.StoreBlock
}

func newStoreWriter(o *Options, out io.Writer) (*storeWriter, error) {
	enc, err := zstdopt.NewEncoderWindow(storeZstdLevel, storeWindow)
	if err != nil {
		return nil, fmt.Errorf("writer: %w", err)
	}
	return &storeWriter{enc: enc, out: out, meta: format.StoreMeta{Format: o.RecordFormat, TextField: o.TextField}}, nil
}

// add stores one record.
func (s *storeWriter) add(rec []byte) error {
	if len(rec) > MaxRecordBytes {
		return errs.Limitf("record of %d bytes (at most %d)", len(rec), MaxRecordBytes)
	}
	if !s.b.Fits(len(rec)) {
		if err := s.flush(); err != nil {
			return err
		}
	}
	s.b.Add(rec)
	s.meta.Records++
	s.meta.RawBytes += uint64(len(rec))
	return nil
}

// flush writes the block in flight and starts compressing the block being
// filled.
func (s *storeWriter) flush() error {
	if s.b.Len() == 0 {
		return nil
	}
	if err := s.drain(); err != nil {
		return err
	}
	plain, n := s.b.TakePlain(s.plain)
	s.b.Trim(storeKeep)
	s.plain = plain
	comp, done := s.comp[:0], make(chan storedBlock, 1)
	s.pending = done
	go func() {
		b, sb := format.AppendStoreBlock(comp, plain, n, s.compress)
		done <- storedBlock{b, sb}
	}()
	return nil
}

// compress appends the zstd frame of a store block to dst: its literals raw
// when their Huffman coding saves at most storeRawLitsMax bytes, else
// Huffman-coded as the encoder made them. It runs on the goroutine of the
// block in flight, the only user of s.enc, s.lits and s.frame meanwhile.
func (s *storeWriter) compress(dst, src []byte) []byte {
	s.frame = s.enc.EncodeAll(src, s.frame[:0])
	start := len(dst)
	out, saving, ok := s.lits.RawLiterals(s.frame, dst)
	if ok && saving <= storeRawLitsMax {
		return out
	}
	return append(out[:start], s.frame...)
}

// drain waits for the block in flight and writes it.
func (s *storeWriter) drain() error {
	if s.pending == nil {
		return nil
	}
	r := <-s.pending
	s.pending = nil
	s.comp = r.b
	if cap(s.comp)+cap(s.plain) > storeKeep {
		// the block of a large record: its buffers are not kept
		s.comp, s.plain = nil, nil
	}
	if cap(s.frame) > storeKeep {
		s.frame, s.lits = nil, zstdopt.Sharer{}
	}
	if _, err := s.out.Write(r.b); err != nil {
		return err
	}
	s.meta.Blocks = append(s.meta.Blocks, r.sb)
	return nil
}

// close waits for the block in flight (dropping it) and frees the encoder.
func (s *storeWriter) close() {
	if s == nil {
		return
	}
	if s.pending != nil {
		<-s.pending
		s.pending = nil
	}
	if s.enc != nil {
		_ = s.enc.Close()
		s.enc = nil
	}
}

// docRecord returns the record of doc: doc.Record, or when nil its fields as
// a JSON object, {"name":"value"} or {"name":["v1","v2"]}, names in
// first-seen order (the values of a name given twice joined). The result is
// valid until the next call.
func (s *storeWriter) docRecord(doc *Document) []byte {
	if doc.Record != nil {
		return doc.Record
	}
	b := append(s.doc[:0], '{')
	for i, f := range doc.Fields {
		dup := false
		for _, g := range doc.Fields[:i] {
			if g.Name == f.Name {
				dup = true
				break
			}
		}
		if dup {
			continue
		}
		var vals []string
		for _, g := range doc.Fields[i:] {
			if g.Name == f.Name {
				vals = append(vals, g.Values...)
			}
		}
		if len(b) > 1 {
			b = append(b, ',')
		}
		b = s.appendJSON(b, f.Name)
		b = append(b, ':')
		if len(vals) == 1 {
			b = s.appendJSON(b, vals[0])
			continue
		}
		b = append(b, '[')
		for j, v := range vals {
			if j > 0 {
				b = append(b, ',')
			}
			b = s.appendJSON(b, v)
		}
		b = append(b, ']')
	}
	s.doc = append(b, '}')
	return s.doc
}

// appendJSON appends v as a JSON string (no HTML escaping).
func (s *storeWriter) appendJSON(b []byte, v string) []byte {
	s.docBuf.Reset()
	e := json.NewEncoder(&s.docBuf)
	e.SetEscapeHTML(false)
	_ = e.Encode(v) // a string always encodes
	return append(b, bytes.TrimSuffix(s.docBuf.Bytes(), []byte{'\n'})...)
}

// finishStore flushes the last block and completes the header: the blocks
// were written at blocksOff.
func (s *storeWriter) finish(blocksOff uint64) (*format.StoreMeta, error) {
	if err := s.flush(); err != nil {
		return nil, err
	}
	if err := s.drain(); err != nil {
		return nil, err
	}
	s.meta.BlocksOff = blocksOff
	return &s.meta, nil
}

// writeStore writes the store (blocks, then header) at cw's end and returns
// its directory fields. The blocks are either spooled already (a Writer's
// store, sp) or made now from records (BuildFromSources).
func (w *Writer) writeStore(cw *countWriter, dir *format.Directory, records recordSource) error {
	st := w.store
	blocksOff := cw.n
	if records != nil {
		st.out = cw
		err := records(func(rec []byte) error {
			if st.meta.Records >= w.docs {
				return errs.Invalidf("writer: %s: more records than the %d documents", w.path, w.docs)
			}
			return st.add(rec)
		})
		if err != nil {
			return fmt.Errorf("writer: %s: store: %w", w.path, err)
		}
	}
	m, err := st.finish(blocksOff)
	if err != nil {
		return err
	}
	if m.Records != w.docs {
		return errs.Invalidf("writer: %s: %d records for %d documents", w.path, m.Records, w.docs)
	}
	if records == nil {
		if err := st.flushSpool(cw); err != nil {
			return err
		}
	}
	if cw.n-blocksOff != m.BlocksLen() {
		return fmt.Errorf("writer: %s: store blocks of %d bytes, index says %d", w.path, cw.n-blocksOff, m.BlocksLen())
	}
	hb := format.AppendStoreMeta(nil, m)
	dir.StoreOff, dir.StoreLen, dir.StoreCRC = cw.n, uint64(len(hb)), format.Checksum(hb)
	_, err = cw.Write(hb)
	return err
}

// flushSpool copies a Writer's spooled blocks to cw.
func (s *storeWriter) flushSpool(cw io.Writer) error {
	sp, ok := s.out.(*spool)
	if !ok {
		return nil
	}
	return sp.copyTo(cw)
}
