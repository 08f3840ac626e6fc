package s3

import (
	"context"
	"net/http"

	"github.com/minio/minio-go/v7"

	"github.com/snii-go/snii/internal/errs"
)

// CheckBucket returns an error of kind snii.ErrNotFound when the bucket does
// not exist, one wrapping ErrAccessDenied when the credentials are refused
// (and the request's error when it cannot tell).
func (c *Client) CheckBucket(ctx context.Context, bucket string) error {
	ok, err := c.mc.BucketExists(ctx, bucket)
	if err != nil {
		o := &object{bucket: bucket}
		return o.kindOf(err, "bucket")
	}
	if !ok {
		nf := minio.ErrorResponse{StatusCode: http.StatusNotFound, Code: minio.NoSuchBucket, Message: "no such bucket"}
		if err := c.confirmMissing(ctx, bucket, nf); err != nf {
			o := &object{bucket: bucket}
			return o.kindOf(err, "bucket")
		}
		return errs.NotFoundf("s3://%s: no such bucket", bucket)
	}
	return nil
}
