package s3

import (
	"context"
	"io"
	"time"

	"github.com/minio/minio-go/v7"
)

// uploadPartSize is the part size of a multipart upload: files larger than
// it are sent in parts of this size (several at once), smaller ones in one PUT.
const uploadPartSize = 16 << 20

// Upload sends the file at path to s3://bucket/key (multipart when larger
// than 16 MiB). progress, when not nil, is read with the bytes as
// they are sent (as minio-go's PutObjectOptions.Progress). A missing bucket is
// an error of kind snii.ErrNotFound. The object appears whole or not at all;
// a process killed during a multipart upload leaves an incomplete upload
// (see AbortIncomplete).
func (c *Client) Upload(ctx context.Context, bucket, key, path string, progress io.Reader) error {
	if err := checkBucketKey(bucket, key); err != nil {
		return err
	}
	_, err := c.mc.FPutObject(ctx, bucket, key, path, minio.PutObjectOptions{
		ContentType: "application/octet-stream",
		PartSize:    uploadPartSize,
		Progress:    progress,
	})
	if err != nil {
		o := &object{bucket: bucket, key: key}
		return o.kindOf(err, "upload")
	}
	return nil
}

// Incomplete is a multipart upload begun and never completed nor aborted
// (its parts are stored, but are no object).
type Incomplete struct {
	Key, UploadID string
	Initiated     time.Time
	Size          int64 // bytes of the parts uploaded (0 when they cannot be listed)
}

// partBytes returns the bytes of an incomplete upload's parts, or 0 when
// they cannot be listed.
func (c *Client) partBytes(ctx context.Context, bucket, key, uploadID string) int64 {
	var n int64
	marker := 0
	for range 10000 { // at most 10,000 parts per upload
		r, err := c.core.ListObjectParts(ctx, bucket, key, uploadID, marker, 1000)
		if err != nil {
			return 0
		}
		for _, p := range r.ObjectParts {
			n += p.Size
		}
		if !r.IsTruncated || r.NextPartNumberMarker <= marker {
			return n
		}
		marker = r.NextPartNumberMarker
	}
	return n
}

// AbortIncomplete aborts the incomplete multipart uploads of keys under
// prefix in bucket that began more than olderThan ago (a younger one may be
// a live upload), and returns them. A missing bucket is an error of kind
// snii.ErrNotFound.
func (c *Client) AbortIncomplete(ctx context.Context, bucket, prefix string, olderThan time.Duration) ([]Incomplete, error) {
	where := &object{bucket: bucket, key: prefix}
	var stale []Incomplete
	for u := range c.mc.ListIncompleteUploads(ctx, bucket, prefix, true) {
		if u.Err != nil {
			return nil, where.kindOf(u.Err, "list incomplete uploads")
		}
		if time.Since(u.Initiated) >= olderThan {
			stale = append(stale, Incomplete{Key: u.Key, UploadID: u.UploadID, Initiated: u.Initiated, Size: u.Size})
		}
	}
	for i, u := range stale {
		stale[i].Size = c.partBytes(ctx, bucket, u.Key, u.UploadID)
		if err := c.core.AbortMultipartUpload(ctx, bucket, u.Key, u.UploadID); err != nil {
			o := &object{bucket: bucket, key: u.Key}
			return stale[:i], o.kindOf(err, "abort upload "+u.UploadID)
		}
	}
	return stale, nil
}
