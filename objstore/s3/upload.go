package s3

import (
	"context"
	"io"

	"github.com/minio/minio-go/v7"
)

// UploadPartSize is the part size of a multipart upload: files larger than
// it are sent in parts of this size (several at once), smaller ones in one PUT.
const UploadPartSize = 16 << 20

// Upload sends the file at path to s3://bucket/key (multipart when larger
// than UploadPartSize). progress, when not nil, is read with the bytes as
// they are sent (as minio-go's PutObjectOptions.Progress). A missing bucket is
// an error of kind snii.ErrNotFound. The object appears whole or not at all.
func (c *Client) Upload(ctx context.Context, bucket, key, path string, progress io.Reader) error {
	if err := checkBucketKey(bucket, key); err != nil {
		return err
	}
	_, err := c.mc.FPutObject(ctx, bucket, key, path, minio.PutObjectOptions{
		ContentType: "application/octet-stream",
		PartSize:    UploadPartSize,
		Progress:    progress,
	})
	if err != nil {
		o := &Object{bucket: bucket, key: key}
		return o.kindOf(err, "upload")
	}
	return nil
}
