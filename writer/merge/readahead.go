package merge

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
)

// Read-ahead of a source opened from a path. A merge reads each source
// front to back in two interleaved streams — the posting region (terms in
// byte order are laid out in byte order) and the dict region — in pieces of
// a few bytes to a few KiB. Serving them from a few aligned chunks turns
// tens of thousands of small preads into a few large ones, without mapping
// the file (whose pages would then count against the process).
const (
	chunkSize = 64 << 10
	chunks    = 4 // per source: 256 KiB, part of sourceMemory
)

// chunkReader is an io.ReaderAt over a file, caching the last few aligned
// chunks read (least recently used goes first). It is safe for concurrent
// use (a mutex; a merge reads each source from one goroutine).
type chunkReader struct {
	f    *os.File
	size int64

	mu   sync.Mutex
	tick uint64
	c    [chunks]chunk
}

type chunk struct {
	off  int64 // file offset of b[0]; -1: empty
	b    []byte
	used uint64
}

// openChunked opens path for a chunked read.
func openChunked(path string) (*chunkReader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	r := &chunkReader{f: f, size: fi.Size()}
	for i := range r.c {
		r.c[i].off = -1
	}
	return r, nil
}

// ReadAt reads len(p) bytes at off; reads of a chunk or more go to the file.
func (r *chunkReader) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, fmt.Errorf("merge: read at negative offset %d", off)
	}
	if len(p) >= chunkSize {
		return r.f.ReadAt(p, off)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for n < len(p) {
		pos := off + int64(n)
		if pos >= r.size {
			return n, io.EOF
		}
		c, err := r.chunkAt(pos &^ (chunkSize - 1))
		if err != nil {
			return n, err
		}
		k := copy(p[n:], c.b[pos-c.off:])
		if k == 0 {
			return n, io.ErrUnexpectedEOF
		}
		n += k
	}
	return n, nil
}

// chunkAt returns the chunk starting at off, reading it into the least
// recently used slot if it is not cached.
func (r *chunkReader) chunkAt(off int64) (*chunk, error) {
	r.tick++
	lru := 0
	for i := range r.c {
		c := &r.c[i]
		if c.off == off {
			c.used = r.tick
			return c, nil
		}
		if c.used < r.c[lru].used {
			lru = i
		}
	}
	c := &r.c[lru]
	if c.b == nil {
		c.b = make([]byte, chunkSize)
	}
	c.off = -1
	n, err := r.f.ReadAt(c.b[:chunkSize], off)
	if err != nil && !(errors.Is(err, io.EOF) && n > 0) {
		return nil, err
	}
	c.b = c.b[:n]
	c.off, c.used = off, r.tick
	return c, nil
}

// Close closes the file.
func (r *chunkReader) Close() error { return r.f.Close() }
