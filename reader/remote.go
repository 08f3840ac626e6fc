package reader

import (
	"context"
	"io"
	"slices"
)

// Range is a byte range of a segment: Len bytes at Off.
type Range struct{ Off, Len int64 }

// Fetch is what reading from remote storage cost: Rounds is the number of
// sequential waits (a batch of parallel requests is one round), Requests the
// requests sent (retries included) and Bytes the bytes received.
type Fetch struct{ Rounds, Requests, Bytes int64 }

// Add adds o to f.
func (f *Fetch) Add(o Fetch) {
	f.Rounds += o.Rounds
	f.Requests += o.Requests
	f.Bytes += o.Bytes
}

// RemoteReaderAt is an optional interface of the io.ReaderAt given to
// OpenReaderAt, for storage where every read is a round trip (object
// storage). The reader then plans each stage of a query (dictionary blocks,
// postings heads, doc windows, .prx frames) and hands its byte ranges to
// Prefetch at once, so a stage costs one round whatever its number of ranges;
// the reads that follow are served by what Prefetch kept. Every cost is added
// to the query's Profile (Rounds, Requests, FetchedBytes).
//
// Package objstore/s3 implements it over S3-compatible storage.
type RemoteReaderAt interface {
	io.ReaderAt
	// ReadAtContext fills p with the bytes at off (all of them, or an error),
	// from what was prefetched or else in one round of its own.
	ReadAtContext(ctx context.Context, p []byte, off int64) (Fetch, error)
	// Prefetch makes the ranges readable by ReadAtContext without a further
	// round (as far as its memory bound allows), fetching those it does not
	// hold in one round of parallel requests. An error says the ranges could
	// not be fetched; the reads that follow then fetch (or fail) on their own.
	Prefetch(ctx context.Context, rs []Range) (Fetch, error)
}

// remote returns the segment's RemoteReaderAt, or nil.
func (s *Segment) remote() RemoteReaderAt {
	if s.data != nil {
		return nil
	}
	r, _ := s.ra.(RemoteReaderAt)
	return r
}

// readRemote is readAt for a remote segment: the read is attributed to the
// query context (its cost in the profile, its context on the wire).
func (x *qctx) readRemote(r RemoteReaderAt, off, n uint64, buf *[]byte) ([]byte, error) {
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
func (x *qctx) prefetch(rs []Range) {
	r := x.s.remote()
	if r == nil || len(rs) == 0 {
		return
	}
	slices.SortFunc(rs, func(a, b Range) int { return int(min(max(a.Off-b.Off, -1), 1)) })
	f, _ := r.Prefetch(x.ctx, rs)
	x.count.fetch.Add(f)
}
