package reader

import "github.com/snii-go/snii/internal/codec/format"

// readScratch is the scratch space of segment access: the bytes read through
// a ReaderAt and a dict lookup's entry.
type readScratch struct {
	blockBuf []byte // stored zstd dict blocks read through ReaderAt
	arena    []byte // frames read through ReaderAt, reset per query
	docSrc   []byte // the doc window being decoded, read through ReaderAt
	entry    format.Entry
}

// release empties the scratch for the pool, dropping large buffers.
func (r *readScratch) release() {
	r.arena = r.arena[:0]
	// Do not let one huge query pin its buffers in the pool.
	if cap(r.arena) > maxPooledBytes {
		r.arena = nil
	}
	if cap(r.blockBuf) > maxPooledBytes {
		r.blockBuf = nil
	}
	if cap(r.docSrc) > maxPooledBytes {
		r.docSrc = nil
	}
}

// lookupEntry returns a copy of a term's dict entry, or nil when absent.
func (x *qctx) lookupEntry(f *field, term string) (*format.Entry, error) {
	e := &x.entry
	found, err := f.lookup(x, bytesOf(term), e)
	if err != nil || !found {
		return nil, err
	}
	return e, nil
}

// termDF returns the df of a term (0 when absent).
func (x *qctx) termDF(field, term string) (uint64, error) {
	f, err := x.s.field(field)
	if err != nil {
		return 0, err
	}
	e, err := x.lookupEntry(f, term)
	if err != nil || e == nil {
		return 0, err
	}
	return e.DF, nil
}

// readInto returns the n bytes at off: sliced from the mapping, or read into
// *buf (reused, grown as needed) through the ReaderAt; it counts them.
func (x *qctx) readInto(off, n uint64, buf *[]byte) ([]byte, error) {
	x.count.bytesRead += int64(n)
	x.count.ranges++
	if r := x.s.remote(); r != nil {
		return x.readRemote(r, off, n, buf)
	}
	return x.s.readAt(off, n, buf)
}

// read returns the n bytes at off, sliced from the mapping or read into the
// query's arena (grow-only; earlier slices stay valid), and counts them.
func (x *qctx) read(off, n uint64) ([]byte, error) {
	x.count.bytesRead += int64(n)
	x.count.ranges++
	s := x.s
	if s.data != nil || n == 0 {
		return s.readAt(off, n, nil)
	}
	if n > uint64(s.size) {
		return s.readAt(off, n, nil) // fails: beyond the file
	}
	b := x.alloc(n)
	var err error
	if r := s.remote(); r != nil {
		b, err = x.readRemote(r, off, n, &b)
	} else {
		b, err = s.readAt(off, n, &b)
	}
	if err != nil {
		x.arena = x.arena[:len(x.arena)-int(n)]
		return nil, err
	}
	return b, nil
}

// alloc returns n bytes of the query's arena (n at most the segment's size).
func (x *qctx) alloc(n uint64) []byte {
	if uint64(cap(x.arena)-len(x.arena)) < n {
		x.arena = make([]byte, 0, max(2*cap(x.arena), int(n), 4096))
	}
	start := len(x.arena)
	x.arena = x.arena[:start+int(n)]
	return x.arena[start : start+int(n) : start+int(n)]
}
