package writer

import (
	"encoding/binary"

	"github.com/snii-go/snii/internal/codec/bitpack"
	"github.com/snii-go/snii/internal/errs"
)

// PostingSource streams the postings of one field to the window
// emitter: terms in strictly ascending byte order and, for each term, exactly
// df postings in strictly ascending doc order. It is how every build path
// feeds the emitter: the in-memory term buffer, the k-way merge of spilled
// runs, and compaction (a merge of segments remaps doc ids and feeds the
// concatenated postings of each term through the same interface).
//
// The emitter calls NextTerm, then NextDoc until it reports ok=false (after
// exactly df postings), then NextTerm again. A source must yield every term
// with df >= 1 and report df exactly before the first NextDoc: the emitter
// chooses the term's class (inline, slim or windowed) and its window size
// from df without looking ahead.
type PostingSource interface {
	// NextTerm advances to the next term. term is valid until the next call to
	// NextTerm; ok=false at the end of the field.
	NextTerm() (term []byte, df uint64, ok bool, err error)
	// NextDoc returns the next posting of the current term: its doc id and its
	// positions (ascending; valid until the next call). ok=false after the
	// term's df postings.
	NextDoc() (doc uint32, positions []uint32, ok bool, err error)
}

// chunkReader reads a byte stream that arrives in chunks (pool slices,
// run blocks), with a fast path for varints inside a chunk.
type chunkReader struct {
	buf  []byte
	more func() ([]byte, error) // the next non-empty chunk, or an error at the end
}

func (r *chunkReader) readByte() (byte, error) {
	if len(r.buf) == 0 {
		b, err := r.more()
		if err != nil {
			return 0, err
		}
		r.buf = b
	}
	c := r.buf[0]
	r.buf = r.buf[1:]
	return c, nil
}

// read fills dst.
func (r *chunkReader) read(dst []byte) error {
	for len(dst) > 0 {
		if len(r.buf) == 0 {
			b, err := r.more()
			if err != nil {
				return err
			}
			r.buf = b
		}
		n := copy(dst, r.buf)
		r.buf = r.buf[n:]
		dst = dst[n:]
	}
	return nil
}

// uvarint reads one uvarint under bitpack.ReadUvarint's rule (the minimal
// encoding of at most 64 bits): from the buffer when it holds the whole
// encoding, else byte by byte across refills.
func (r *chunkReader) uvarint() (uint64, error) {
	if len(r.buf) > 0 && r.buf[0] < 0x80 {
		v := r.buf[0]
		r.buf = r.buf[1:]
		return uint64(v), nil
	}
	if len(r.buf) >= binary.MaxVarintLen64 {
		v, n, ok := bitpack.ReadUvarint(r.buf, 0)
		if !ok {
			return 0, errs.Corruptf("varint overlong or past 64 bits")
		}
		r.buf = r.buf[n:]
		return v, nil
	}
	var x uint64
	var s uint
	for i := 0; i < binary.MaxVarintLen64; i++ {
		c, err := r.readByte()
		if err != nil {
			return 0, err
		}
		if c < 0x80 {
			if (i == binary.MaxVarintLen64-1 && c > 1) || (i > 0 && c == 0) {
				break
			}
			return x | uint64(c)<<s, nil
		}
		x |= uint64(c&0x7f) << s
		s += 7
	}
	return 0, errs.Corruptf("varint overlong or past 64 bits")
}

// postingDecoder turns the records of one term into absolute doc ids and
// positions.
type postingDecoder struct {
	left    uint64 // records left
	started bool
	lastDoc uint32
	pos     []uint32
}

func (d *postingDecoder) start(df uint64) {
	d.left, d.started, d.lastDoc = df, false, 0
}

func (d *postingDecoder) next(src *chunkReader) (doc uint32, pos []uint32, ok bool, err error) {
	if d.left == 0 {
		return 0, nil, false, nil
	}
	n, count, err := d.head(src)
	if err != nil {
		return 0, nil, false, err
	}
	out := d.pos[:0]
	var p uint64
	b := src.buf // (stored back after the loop, and around a refill)
	for i := uint64(0); i < count; i++ {
		var v uint64
		if len(b) > 0 && b[0] < 0x80 { // one- and two-byte deltas, inline
			v, b = uint64(b[0]), b[1:]
		} else if len(b) > 1 && b[1] < 0x80 && b[1] != 0 {
			v, b = uint64(b[0]&0x7f)|uint64(b[1])<<7, b[2:]
		} else {
			src.buf = b
			if v, err = src.uvarint(); err != nil {
				return 0, nil, false, err
			}
			b = src.buf
		}
		p += v
		if p > maxPosition {
			return 0, nil, false, errs.Corruptf("doc %d: position %d out of range", n, p)
		}
		out = append(out, uint32(p))
	}
	src.buf, d.pos = b, out
	if cap(d.pos) > scratchLimit/4 && count < scratchLimit/16 {
		d.pos = append([]uint32(nil), d.pos...) // drop a huge buffer left by an earlier document
	}
	d.left--
	d.started = true
	d.lastDoc = uint32(n)
	return uint32(n), d.pos, true, nil
}

// head reads the doc delta and the position count of the next record and
// returns the record's doc id and count.
func (d *postingDecoder) head(src *chunkReader) (doc, count uint64, err error) {
	var delta uint64
	both := false // the count was read with the delta: both one byte, inline
	if b := src.buf; len(b) > 1 && b[0] < 0x80 && b[1] < 0x80 {
		delta, count, src.buf, both = uint64(b[0]), uint64(b[1]), b[2:], true
	} else if delta, err = src.uvarint(); err != nil {
		return 0, 0, err
	}
	n := delta
	if d.started {
		if delta == 0 {
			return 0, 0, errs.Corruptf("doc delta 0")
		}
		n += uint64(d.lastDoc)
	}
	if n > maxDocID {
		return 0, 0, errs.Corruptf("doc id %d out of range", n)
	}
	if !both {
		if count, err = src.uvarint(); err != nil {
			return 0, 0, err
		}
	}
	if count == 0 {
		return 0, 0, errs.Corruptf("doc %d has no positions", n)
	}
	return n, count, nil
}

// nextDoc is next for a reader of doc ids alone: the positions are
// skipped, not decoded.
func (d *postingDecoder) nextDoc(src *chunkReader) (doc uint32, ok bool, err error) {
	if d.left == 0 {
		return 0, false, nil
	}
	n, count, err := d.head(src)
	if err != nil {
		return 0, false, err
	}
	if err := src.skipUvarints(count); err != nil {
		return 0, false, err
	}
	d.left--
	d.started = true
	d.lastDoc = uint32(n)
	return uint32(n), true, nil
}

// skipUvarints skips n varints: every byte below 0x80 ends one.
func (r *chunkReader) skipUvarints(n uint64) error {
	for n > 0 {
		if len(r.buf) == 0 {
			b, err := r.more()
			if err != nil {
				return err
			}
			r.buf = b
		}
		i := 0
		for i < len(r.buf) {
			c := r.buf[i]
			i++
			if c < 0x80 {
				if n--; n == 0 {
					break
				}
			}
		}
		r.buf = r.buf[i:]
	}
	return nil
}

// skip discards the records left in the current term.
func (d *postingDecoder) skip(src *chunkReader) error {
	for d.left > 0 {
		if _, _, _, err := d.next(src); err != nil {
			return err
		}
	}
	return nil
}

// memSource streams a term buffer's postings in term order.
type memSource struct {
	b   *termBuffer
	ids []uint32
	i   int // index in ids of the next term
	r   streamReader
	cr  chunkReader
	d   postingDecoder
}

func newMemSource(b *termBuffer, ids []uint32) *memSource {
	s := &memSource{b: b, ids: ids}
	s.cr.more = s.more
	return s
}

func (s *memSource) more() ([]byte, error) {
	if c := s.r.chunk(); c != nil {
		return c, nil
	}
	return nil, errs.Corruptf("writer: term buffer stream truncated")
}

func (s *memSource) NextTerm() ([]byte, uint64, bool, error) {
	if s.i == len(s.ids) {
		return nil, 0, false, nil
	}
	id := s.ids[s.i]
	s.i++
	st := s.b.state(id)
	s.r = s.b.pool.reader(&st.s)
	s.cr.buf = nil
	s.d.start(uint64(st.df))
	return s.b.termBytes(id), uint64(st.df), true, nil
}

func (s *memSource) NextDoc() (uint32, []uint32, bool, error) {
	return s.d.next(&s.cr)
}
