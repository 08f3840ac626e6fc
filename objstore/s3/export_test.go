package s3

import "context"

// Object is the object type, for the tests of ranged reads.
type Object = object

// Open opens s3://bucket/key as an Object (Client.open).
func (c *Client) Open(ctx context.Context, bucket, key string, suffix int64) (*Object, error) {
	return c.open(ctx, bucket, key, suffix)
}

// Cache returns the client's cache.
func (c *Client) Cache() *Cache { return c.cache }

// ObjectOf returns the object a segment reads.
func ObjectOf(s *Segment) *Object { return s.obj }

// Limit returns the cache's bound in bytes.
func (c *Cache) Limit() int64 { return c.max }

// Used returns the bytes the cache holds.
func (c *Cache) Used() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.used
}

// UploadPartSize is the part size of a multipart upload.
const UploadPartSize = uploadPartSize
