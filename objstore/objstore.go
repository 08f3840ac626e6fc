package objstore

import (
	"context"
	"io"
)

// Range is a byte range of a segment: Len bytes at Off.
type Range struct{ Off, Len int64 }

// Cost is what reading from remote storage cost: Rounds is the number of
// sequential waits (a batch of parallel requests is one round), Requests the
// requests sent (retries included) and Bytes the bytes received.
type Cost struct{ Rounds, Requests, Bytes int64 }

// Add adds o to c.
func (c *Cost) Add(o Cost) {
	c.Rounds += o.Rounds
	c.Requests += o.Requests
	c.Bytes += o.Bytes
}

// ReaderAt is an optional interface of the io.ReaderAt given to
// reader.OpenReaderAt, for storage where every read is a round trip (object
// storage). The reader then plans each stage of a query (dictionary blocks,
// postings heads, doc windows, .prx frames) and hands its byte ranges to
// Prefetch at once, so a stage costs one round whatever its number of ranges;
// the reads that follow are served by what Prefetch kept. Every cost is added
// to the query's reader.Profile (Rounds, Requests, FetchedBytes).
//
// Package objstore/s3 implements it over S3-compatible storage.
type ReaderAt interface {
	io.ReaderAt
	// ReadAtContext fills p with the bytes at off (all of them, or an error),
	// from what was prefetched or else in one round of its own.
	ReadAtContext(ctx context.Context, p []byte, off int64) (Cost, error)
	// Prefetch makes the ranges readable by ReadAtContext without a further
	// round (as far as its memory bound allows), fetching those it does not
	// hold in one round of parallel requests. An error says the ranges could
	// not be fetched; the reads that follow then fetch (or fail) on their own.
	Prefetch(ctx context.Context, rs []Range) (Cost, error)
}
