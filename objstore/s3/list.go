package s3

import (
	"context"
	"path"
	"slices"

	"github.com/minio/minio-go/v7"
	"github.com/snii-go/snii/internal/errs"
	"github.com/snii-go/snii/internal/s3url"
)

// List returns the keys of bucket that key names, in byte order: key itself
// (checked to exist), every key under a prefix (a key that is empty or ends
// in "/"), or the keys matching a glob (a key holding *, ? or [; path.Match,
// where * does not cross "/"). Nothing under a prefix or glob is an error of
// kind snii.ErrNotFound, as are a missing bucket and a missing key.
func (c *Client) List(ctx context.Context, bucket, key string) ([]string, error) {
	u := s3url.URL{Bucket: bucket, Key: key}
	if !u.IsPrefix() && !u.IsGlob() {
		if _, err := c.mc.StatObject(ctx, u.Bucket, u.Key, minio.StatObjectOptions{}); err != nil {
			o := &object{bucket: u.Bucket, key: u.Key}
			return nil, o.kindOf(c.confirmMissing(ctx, u.Bucket, err), "stat")
		}
		return []string{u.Key}, nil
	}
	if u.IsGlob() {
		if _, err := path.Match(u.Key, ""); err != nil {
			return nil, errs.Invalidf("%s: bad pattern: %v", u, err)
		}
	}
	var keys []string
	for info := range c.mc.ListObjects(ctx, u.Bucket, minio.ListObjectsOptions{Prefix: u.ListPrefix(), Recursive: true}) {
		if info.Err != nil {
			o := &object{bucket: u.Bucket, key: u.Key}
			return nil, o.kindOf(info.Err, "list")
		}
		if u.IsGlob() {
			if ok, _ := path.Match(u.Key, info.Key); !ok {
				continue
			}
		}
		keys = append(keys, info.Key)
	}
	if len(keys) == 0 {
		return nil, errs.NotFoundf("%s: no object matches", u)
	}
	slices.Sort(keys)
	return keys, nil
}
