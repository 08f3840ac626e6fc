package s3

import (
	"context"
	"fmt"
	"io"
	"sync"
	"sync/atomic"

	"github.com/minio/minio-go/v7"
	"github.com/snii-go/snii/internal/errs"
	"github.com/snii-go/snii/objstore"
)

// Client talks to one S3-compatible endpoint. It is safe for concurrent use;
// create one per endpoint and open every object through it, so that they
// share its connections and its Cache.
type Client struct {
	cfg   resolved
	mc    *minio.Client
	core  minio.Core
	cache *Cache
	ids   atomic.Uint64
}

// New returns a client for cfg (the zero Config: everything from the
// environment). cache bounds the bytes the client's objects keep between a
// prefetch and the reads it serves; nil means a new Cache of
// DefaultCacheBytes. Missing credentials and a malformed endpoint are errors
// of kind snii.ErrInvalidArgument; New sends no request.
func New(cfg Config, cache *Cache) (*Client, error) {
	r, err := cfg.resolve()
	if err != nil {
		return nil, err
	}
	mc, err := r.newMinio()
	if err != nil {
		return nil, err
	}
	if cache == nil {
		cache = NewCache(0)
	}
	return &Client{cfg: r, mc: mc, core: minio.Core{Client: mc}, cache: cache}, nil
}

// object is one object opened for ranged reads: an io.ReaderAt and an
// objstore.ReaderAt. Every read asks for the etag seen at open, so an
// object replaced after open fails with ErrChanged (kind snii.ErrCorrupt)
// instead of mixing two versions. It is safe for concurrent use.
type object struct {
	c           *Client
	id          uint64
	bucket, key string
	size        int64
	etag        string
	open        objstore.Cost
	closed      atomic.Bool
	pin         atomic.Pointer[pinned] // what open fetched, until unpin

	rounds, requests, bytes atomic.Int64
}

// open opens s3://bucket/key in one round: two requests in parallel, one for
// the first 16 bytes (the segment header) and one for the last suffix bytes
// (<= 0: DefaultSuffix), which also tell the object's size and etag. Both are
// kept in the client's cache, so reader.OpenReaderAt then finds the
// tail, the directory and (for most segments) every metadata group without
// another round.
//
// A missing bucket or key is an error of kind snii.ErrNotFound.
func (c *Client) open(ctx context.Context, bucket, key string, suffix int64) (*object, error) {
	if err := checkBucketKey(bucket, key); err != nil {
		return nil, err
	}
	if suffix <= 0 {
		suffix = DefaultSuffix
	}
	suffix = max(suffix, 16)
	o := &object{c: c, id: c.ids.Add(1), bucket: bucket, key: key}
	var (
		head   [16]byte
		tail   = make([]byte, suffix)
		sizes  [2]int64
		etags  [2]string
		fs     [2]objstore.Cost
		errsOf [2]error
		wg     sync.WaitGroup
	)
	wg.Go(func() { sizes[0], etags[0], fs[0], errsOf[0] = o.get(ctx, head[:], rng{0, 16}) })
	wg.Go(func() { sizes[1], etags[1], fs[1], errsOf[1] = o.get(ctx, tail, rng{-1, suffix}) })
	wg.Wait()
	o.open = objstore.Cost{Rounds: 1, Requests: fs[0].Requests + fs[1].Requests, Bytes: fs[0].Bytes + fs[1].Bytes}
	o.count(o.open)
	if err := errsOf[1]; err != nil {
		return nil, o.kindOf(err, "open")
	}
	o.size, o.etag = sizes[1], etags[1]
	n := min(suffix, o.size)
	pin := &pinned{tailOff: o.size - n, tail: tail[:n]}
	o.pin.Store(pin)
	if err := errsOf[0]; err != nil {
		// An object under 16 bytes answers the head with a short response: its
		// suffix holds it all, and reading it is the reader's business.
		if o.size >= 16 {
			o.Close()
			return nil, o.kindOf(err, "open")
		}
	} else if sizes[0] != o.size || etags[0] != o.etag {
		o.Close()
		return nil, o.changed("open")
	} else {
		pin.head = head[:]
	}
	return o, nil
}

// pinned is what open fetched: the object's first 16 bytes and its suffix.
type pinned struct {
	head    []byte
	tailOff int64
	tail    []byte
}

// read copies [off, off+len(p)) into p when the pinned bytes hold it all.
func (pn *pinned) read(p []byte, off int64) bool {
	switch end := off + int64(len(p)); {
	case end <= int64(len(pn.head)):
		copy(p, pn.head[off:])
	case off >= pn.tailOff && end <= pn.tailOff+int64(len(pn.tail)):
		copy(p, pn.tail[off-pn.tailOff:])
	default:
		return false
	}
	return true
}

// unpin moves the bytes open fetched into the client's cache, under its
// bound. Until then the object holds them on its own (Suffix bytes outside
// the cache's bound), so that opening a segment never loses them to eviction;
// Client.OpenSegment unpins once the segment is open.
func (o *object) unpin() {
	if pn := o.pin.Swap(nil); pn != nil {
		o.c.cache.add(o.id, 0, pn.head)
		o.c.cache.add(o.id, pn.tailOff, pn.tail)
	}
}

// checkBucketKey rejects an empty bucket or key (snii.ErrInvalidArgument).
func checkBucketKey(bucket, key string) error {
	if bucket == "" || key == "" {
		return errs.Invalidf("s3: bucket %q, key %q: both are needed", bucket, key)
	}
	return nil
}

// Size returns the object's size in bytes.
func (o *object) Size() int64 { return o.size }

// Name returns "s3://bucket/key".
func (o *object) Name() string { return "s3://" + o.bucket + "/" + o.key }

// OpenCost returns what open fetched (one round).
func (o *object) OpenCost() objstore.Cost { return o.open }

// Stats returns everything fetched through the object so far (open included).
func (o *object) Stats() objstore.Cost {
	return objstore.Cost{Rounds: o.rounds.Load(), Requests: o.requests.Load(), Bytes: o.bytes.Load()}
}

func (o *object) count(f objstore.Cost) {
	o.rounds.Add(f.Rounds)
	o.requests.Add(f.Requests)
	o.bytes.Add(f.Bytes)
}

// Close drops the object's bytes from the cache. Reads after Close fail.
func (o *object) Close() error {
	if o.closed.CompareAndSwap(false, true) {
		o.pin.Store(nil)
		o.c.cache.drop(o.id)
	}
	return nil
}

// ReadAt implements io.ReaderAt (with context.Background()).
func (o *object) ReadAt(p []byte, off int64) (int, error) {
	if _, err := o.ReadAtContext(context.Background(), p, off); err != nil {
		return 0, err
	}
	return len(p), nil
}

// ReadAtContext fills p with the bytes at off: from the cache, or else in one
// round fetching what the cache lacks. Reading past the end is io.EOF (with
// nothing read); a truncated response, after the retries, wraps
// io.ErrUnexpectedEOF.
func (o *object) ReadAtContext(ctx context.Context, p []byte, off int64) (objstore.Cost, error) {
	if o.closed.Load() {
		return objstore.Cost{}, fmt.Errorf("%s: %w", o.Name(), errs.Closed)
	}
	if off < 0 || off > o.size {
		return objstore.Cost{}, errs.Invalidf("%s: read at %d, outside the object of %d bytes", o.Name(), off, o.size)
	}
	if int64(len(p)) > o.size-off {
		return objstore.Cost{}, fmt.Errorf("%s: read [%d, +%d) past the end at %d: %w", o.Name(), off, len(p), o.size, io.EOF)
	}
	if pn := o.pin.Load(); pn != nil && pn.read(p, off) {
		return objstore.Cost{}, nil
	}
	n := o.c.cache.read(o.id, p, off)
	if n == len(p) {
		return objstore.Cost{}, nil
	}
	// Fetch the rest straight into p (the cache may hold pieces of it, but
	// one request costs the same round as several, and is simpler).
	rest := p[n:]
	_, _, f, err := o.get(ctx, rest, rng{off + int64(n), int64(len(rest))})
	f.Rounds = 1
	o.count(f)
	if err != nil {
		return f, o.kindOf(err, fmt.Sprintf("read [%d, +%d)", off+int64(n), len(rest)))
	}
	return f, nil
}

// roundWaves bounds the requests of a round to this many times
// Config.Parallel: plan merges gaps past its byte budget to keep to it.
const roundWaves = 4

// Prefetch fetches, in one round of parallel requests, the parts of the
// ranges that the cache does not hold (neighbours closer than Config.Gap are
// one request, see plan) and keeps them in the cache for the reads that
// follow. Nothing to fetch costs nothing.
func (o *object) Prefetch(ctx context.Context, rs []objstore.Range) (objstore.Cost, error) {
	if o.closed.Load() {
		return objstore.Cost{}, fmt.Errorf("%s: %w", o.Name(), errs.Closed)
	}
	var miss []rng
	for _, r := range rs {
		off, end := max(r.Off, 0), min(r.Off+r.Len, o.size)
		if pn := o.pin.Load(); pn != nil && off >= pn.tailOff {
			continue // held by the pinned suffix
		}
		if off < end {
			miss = o.c.cache.missing(miss, o.id, off, end-off)
		}
	}
	sortRngs(miss)
	f, err := o.fetchAll(ctx, plan(miss, o.c.cfg.Gap, roundWaves*o.c.cfg.Parallel))
	o.count(f)
	return f, err
}

var (
	_ io.ReaderAt       = (*object)(nil)
	_ objstore.ReaderAt = (*object)(nil)
)
