package reader

import (
	"slices"

	"github.com/snii-go/snii/objstore"
)

// remote returns the segment's objstore.ReaderAt, or nil.
func (s *Segment) remote() objstore.ReaderAt {
	if s.data != nil {
		return nil
	}
	r, _ := s.ra.(objstore.ReaderAt)
	return r
}

// readRemote is readAt for a remote segment: the read is attributed to the
// query context (its cost in the profile, its context on the wire).
func (x *qctx) readRemote(r objstore.ReaderAt, off, n uint64, buf *[]byte) ([]byte, error) {
	s := x.s
	if off > uint64(s.size) || n > uint64(s.size)-off {
		return s.readAt(off, n, buf) // the bounds error
	}
	b := grow(buf, n)
	f, err := r.ReadAtContext(x.ctx, b, int64(off))
	x.count.fetch.Add(f)
	if err != nil {
		return nil, err
	}
	return b, nil
}

// prefetch hands a stage's ranges to a remote segment (a no-op otherwise).
// A failed prefetch is not an error: the reads that follow fetch on their own
// and report what fails.
func (x *qctx) prefetch(rs []objstore.Range) {
	r := x.s.remote()
	if r == nil || len(rs) == 0 {
		return
	}
	slices.SortFunc(rs, func(a, b objstore.Range) int { return int(min(max(a.Off-b.Off, -1), 1)) })
	f, _ := r.Prefetch(x.ctx, rs)
	x.count.fetch.Add(f)
}
