package s3

import (
	"context"

	"github.com/snii-go/snii/internal/errs"
)

// CheckBucket returns an error of kind snii.ErrNotFound when the bucket does
// not exist (and the request's error when it cannot tell).
func (c *Client) CheckBucket(ctx context.Context, bucket string) error {
	ok, err := c.mc.BucketExists(ctx, bucket)
	if err != nil {
		o := &Object{bucket: bucket}
		return o.kindOf(err, "bucket")
	}
	if !ok {
		return errs.NotFoundf("s3://%s: no such bucket", bucket)
	}
	return nil
}
