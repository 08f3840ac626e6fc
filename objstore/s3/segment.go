package s3

import (
	"context"
	"errors"

	"github.com/snii-go/snii/objstore"
	"github.com/snii-go/snii/reader"
)

// Segment is a segment opened from an object: the reader's Segment and the
// Object it reads. Close closes both.
type Segment struct {
	*reader.Segment
	Object *Object
}

// OpenSegment opens s3://bucket/key as a segment: Client.Open (one round,
// with Config.Suffix) then reader.OpenReaderAtContext (a second round only
// when the suffix missed metadata groups). o.Name defaults to
// "s3://bucket/key".
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
	obj, err := c.Open(ctx, bucket, key, c.cfg.Suffix)
	if err != nil {
		return nil, err
	}
	if o.Name == "" {
		o.Name = obj.Name()
	}
	seg, err := reader.OpenReaderAtContext(ctx, obj, obj.Size(), o)
	obj.Unpin()
	if err != nil {
		obj.Close()
		return nil, err
	}
	return &Segment{Segment: seg, Object: obj}, nil
}

// OpenCost returns what opening cost: the object's round and the reader's.
func (s *Segment) OpenCost() objstore.Cost {
	f := s.Object.OpenCost()
	f.Add(s.Segment.OpenCost())
	return f
}

// Close closes the segment, then the object.
func (s *Segment) Close() error {
	return errors.Join(s.Segment.Close(), s.Object.Close())
}
