package writer

import (
	"encoding/binary"
	"fmt"
	"io"

	"github.com/snii-go/snii/analysis"
	"github.com/snii-go/snii/internal/codec/format"
	"github.com/snii-go/snii/internal/errs"
)

// Spilled runs. All runs of a build go to one temp file (".snii-run-*" in the
// temp dir), appended one after the other. A run holds one section per field
// (empty fields have an empty section); a section is a sequence of
// CRC-framed blocks carrying a record stream:
//
//	block:   u32 payloadLen | payload | u32 crc32c(payloadLen bytes, payload)
//	stream:  term record* | uvarint 0
//	record:  uvarint termLen+1 | term | uvarint df | df × posting record
//	posting: uvarint docDelta | uvarint posCount | posCount × uvarint posDelta
//
// (the posting records are the term buffer's stream bytes, copied as they
// are). Within a term, run k holds earlier documents than run k+1, so the
// merge concatenates a term's postings in run order.

const (
	runBlockSize  = 32 << 10 // payload bytes per block
	runBlockFrame = 8        // length + CRC
)

// section is one field's part of one run.
type section struct {
	off, n int64
}

// blockWriter frames a record stream into CRC'd blocks.
type blockWriter struct {
	w   io.Writer
	buf []byte // 4 header bytes + payload
	n   int64  // bytes written to w
}

func newBlockWriter(w io.Writer, buf []byte) *blockWriter {
	return &blockWriter{w: w, buf: append(buf[:0], 0, 0, 0, 0)}
}

func (bw *blockWriter) write(p []byte) error {
	for len(p) > 0 {
		room := 4 + runBlockSize - len(bw.buf)
		if room == 0 {
			if err := bw.flush(); err != nil {
				return err
			}
			continue
		}
		k := min(room, len(p))
		bw.buf = append(bw.buf, p[:k]...)
		p = p[k:]
	}
	return nil
}

func (bw *blockWriter) flush() error {
	if len(bw.buf) == 4 {
		return nil
	}
	binary.LittleEndian.PutUint32(bw.buf, uint32(len(bw.buf)-4))
	bw.buf = binary.LittleEndian.AppendUint32(bw.buf, format.Checksum(bw.buf))
	n, err := bw.w.Write(bw.buf)
	bw.n += int64(n)
	bw.buf = bw.buf[:4]
	return err
}

// blockReader reads a framed stream back from a section of the run file,
// checking each block's CRC before serving its bytes.
type blockReader struct {
	r        io.ReaderAt
	off, end int64
	scratch  []byte
	what     string // "run 3 of index \"text\"" for errors
}

// next reads the next block and returns its payload.
func (br *blockReader) next() ([]byte, error) {
	if br.end-br.off < runBlockFrame+1 {
		return nil, errs.Corruptf("writer: %s: truncated at offset %d", br.what, br.off)
	}
	var hdr [4]byte
	if _, err := br.r.ReadAt(hdr[:], br.off); err != nil {
		return nil, fmt.Errorf("writer: %s: read block header at %d: %w", br.what, br.off, err)
	}
	n := int64(binary.LittleEndian.Uint32(hdr[:]))
	if n == 0 || n > runBlockSize || n > br.end-br.off-runBlockFrame {
		return nil, errs.Corruptf("writer: %s: block at %d claims %d bytes", br.what, br.off, n)
	}
	if int64(cap(br.scratch)) < 4+n+4 {
		br.scratch = make([]byte, 4+n+4)
	}
	b := br.scratch[:4+n+4]
	copy(b, hdr[:])
	if _, err := br.r.ReadAt(b[4:], br.off+4); err != nil {
		return nil, fmt.Errorf("writer: %s: read block at %d: %w", br.what, br.off, err)
	}
	if got, want := format.Checksum(b[:4+n]), binary.LittleEndian.Uint32(b[4+n:]); got != want {
		return nil, errs.Corruptf("writer: %s: block at %d: crc %08x, want %08x", br.what, br.off, got, want)
	}
	br.off += runBlockFrame + n
	return b[4 : 4+n], nil
}

// runSource streams one field's section of one run as a PostingSource.
type runSource struct {
	br   blockReader
	cr   chunkReader
	term []byte
	d    postingDecoder
	done bool
}

func newRunSource(r io.ReaderAt, s section, what string) *runSource {
	rs := &runSource{br: blockReader{r: r, off: s.off, end: s.off + s.n, what: what}}
	rs.cr.more = rs.br.next
	return rs
}

func (s *runSource) NextTerm() ([]byte, uint64, bool, error) {
	if s.done {
		return nil, 0, false, nil
	}
	if err := s.d.skip(&s.cr); err != nil {
		return nil, 0, false, s.wrap(err)
	}
	tl, err := s.cr.uvarint()
	if err != nil {
		return nil, 0, false, s.wrap(err)
	}
	if tl == 0 {
		if len(s.cr.buf) != 0 || s.br.off != s.br.end {
			return nil, 0, false, errs.Corruptf("writer: %s: bytes after the end marker", s.br.what)
		}
		s.done = true
		return nil, 0, false, nil
	}
	if tl-1 > analysis.MaxMaxTokenBytes {
		return nil, 0, false, errs.Corruptf("writer: %s: term of %d bytes", s.br.what, tl-1)
	}
	if cap(s.term) < int(tl-1) {
		s.term = make([]byte, 0, max(tl-1, analysis.DefaultMaxTokenBytes))
	}
	s.term = s.term[:tl-1]
	if err := s.cr.read(s.term); err != nil {
		return nil, 0, false, s.wrap(err)
	}
	df, err := s.cr.uvarint()
	if err != nil {
		return nil, 0, false, s.wrap(err)
	}
	if df == 0 || df > maxDocID+1 {
		return nil, 0, false, errs.Corruptf("writer: %s: term %q: df %d", s.br.what, s.term, df)
	}
	s.d.start(df)
	return s.term, df, true, nil
}

func (s *runSource) NextDoc() (uint32, []uint32, bool, error) {
	doc, pos, ok, err := s.d.next(&s.cr)
	if err != nil {
		return 0, nil, false, s.wrapTerm(err)
	}
	return doc, pos, ok, nil
}

func (s *runSource) wrap(err error) error {
	return fmt.Errorf("writer: %s: %w", s.br.what, err)
}

func (s *runSource) wrapTerm(err error) error {
	return fmt.Errorf("writer: %s: term %q: %w", s.br.what, s.term, err)
}

// writeRun writes the sorted contents of b as one section and returns the
// bytes written. ids is scratch.
func writeRunSection(bw *blockWriter, b *termBuffer, ids []uint32) ([]uint32, error) {
	ids = b.sortedIDs(ids)
	var hdr []byte
	for _, id := range ids {
		st := b.state(id)
		term := b.termBytes(id)
		hdr = binary.AppendUvarint(hdr[:0], uint64(len(term))+1)
		hdr = append(hdr, term...)
		hdr = binary.AppendUvarint(hdr, uint64(st.df))
		if err := bw.write(hdr); err != nil {
			return ids, err
		}
		r := b.pool.reader(&st.s)
		for c := r.chunk(); c != nil; c = r.chunk() {
			if err := bw.write(c); err != nil {
				return ids, err
			}
		}
	}
	if err := bw.write([]byte{0}); err != nil {
		return ids, err
	}
	return ids, bw.flush()
}
