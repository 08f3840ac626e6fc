package s3

import (
	"context"
	"errors"

	"github.com/snii-go/snii/objstore"
	"github.com/snii-go/snii/reader"
)

// Segment is a segment opened from an object: the reader's Segment over the
// object it reads. Close closes both.
type Segment struct {
	*reader.Segment
	obj *object
}

// OpenSegment opens s3://bucket/key as a segment in one round (two parallel
// requests: the first 16 bytes and the last Config.Suffix bytes, which also
// tell the object's size and etag), then reader.OpenReaderAt over the
// object (a second round only when the suffix missed metadata groups).
// o.Name defaults to "s3://bucket/key". A missing bucket or key is an error
// of kind snii.ErrNotFound.
//
// An object replaced on the server while it opens (ErrChanged) is opened
// again, up to Config.Retries times: the segment is then the new version.
func (c *Client) OpenSegment(ctx context.Context, bucket, key string, o reader.Options) (*Segment, error) {
	for n := 0; ; n++ {
		s, err := c.openSegment(ctx, bucket, key, o)
		if err == nil || !errors.Is(err, ErrChanged) || n >= c.cfg.Retries || ctx.Err() != nil {
			return s, err
		}
	}
}

func (c *Client) openSegment(ctx context.Context, bucket, key string, o reader.Options) (*Segment, error) {
	obj, err := c.open(ctx, bucket, key, c.cfg.Suffix)
	if err != nil {
		return nil, err
	}
	if o.Name == "" {
		o.Name = obj.Name()
	}
	seg, err := reader.OpenReaderAt(ctx, obj, obj.Size(), o)
	obj.unpin()
	if err != nil {
		obj.Close()
		return nil, err
	}
	return &Segment{Segment: seg, obj: obj}, nil
}

// OpenCost returns what opening cost: the object's round and the reader's.
func (s *Segment) OpenCost() objstore.Cost {
	f := s.obj.OpenCost()
	f.Add(s.Segment.OpenCost())
	return f
}

// Size returns the object's size in bytes.
func (s *Segment) Size() int64 { return s.obj.Size() }

// Prefetch fetches the ranges of the object that the client's Cache does not
// hold in one round of parallel requests and keeps them there for the reads
// that follow (objstore.ReaderAt.Prefetch); a whole segment that fits in the
// cache is then read without a further round.
func (s *Segment) Prefetch(ctx context.Context, rs []objstore.Range) (objstore.Cost, error) {
	return s.obj.Prefetch(ctx, rs)
}

// Close closes the segment, then the object.
func (s *Segment) Close() error {
	return errors.Join(s.Segment.Close(), s.obj.Close())
}
