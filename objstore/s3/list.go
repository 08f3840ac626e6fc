package s3

import (
	"context"
	"path"
	"slices"

	"github.com/minio/minio-go/v7"
	"github.com/snii-go/snii/internal/errs"
)

// List returns the keys of u, in byte order: the one key of a plain URL
// (checked to exist), every key under a prefix URL, or the keys matching a
// glob (path.Match). Nothing under a prefix or glob is an error of kind
// snii.ErrNotFound, as are a missing bucket and a missing key.
func (c *Client) List(ctx context.Context, u URL) ([]string, error) {
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
	for info := range c.mc.ListObjects(ctx, u.Bucket, minio.ListObjectsOptions{Prefix: u.listPrefix(), Recursive: true}) {
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
