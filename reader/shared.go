package reader

import (
	"runtime"
	"sync"

	"github.com/klauspost/compress/zstd"
	"github.com/snii-go/snii/internal/codec/format"
	"github.com/snii-go/snii/internal/codec/prx"
	"github.com/snii-go/snii/internal/codec/zstdopt"
	"github.com/snii-go/snii/internal/errs"
	"github.com/snii-go/snii/limits"
)

// Sharing between segments. A program that keeps many segments open (a
// server over a thousand segments in object storage) creates one BlockCache
// and one Decoders and passes them in the Options of every segment: the
// decoded dictionary blocks of all the segments then stay within the cache's
// bytes, and the idle zstd decoders within the pool's count, instead of
// 8 MiB of blocks and a pool of decoders per segment.

// BlockCache bounds the decoded dictionary blocks of the segments sharing it
// (Options.BlockCache). Lookups stay lock-free (an atomic slot per block of
// each segment); insertion and eviction (clock, over the blocks of every
// segment) take a mutex. Closing a segment drops its blocks. It is safe for
// concurrent use.
type BlockCache struct{ c *blockCache }

// NewBlockCache returns a cache of bytes bytes (<= 0: 8 MiB).
func NewBlockCache(bytes int64) *BlockCache {
	if bytes <= 0 {
		bytes = defaultBlockCacheBytes
	}
	return &BlockCache{c: newBlockCache(bytes)}
}

// Decoders is a bounded pool of decoders shared by segments
// (Options.Decoders): the .prx decode sources of queries (each with its zstd
// decoder and buffers) and the zstd decoders of dictionary blocks. It keeps at
// most its bound of each idle; queries beyond it get new ones, closed when
// given back. Every segment sharing it must use its limits.Limits. It is safe
// for concurrent use.
type Decoders struct {
	sources *prx.SourcePool
	limits  limits.Limits
	max     int
	mu      sync.Mutex
	dict    []*zstd.Decoder
	store   []*zstd.Decoder
}

// NewDecoders returns a pool for segments opened with limits, keeping at most
// maxIdle idle decoders of each kind (<= 0: 2×GOMAXPROCS, at least 4).
func NewDecoders(limits limits.Limits, maxIdle int) (*Decoders, error) {
	if err := limits.Validate(); err != nil {
		return nil, err
	}
	if maxIdle <= 0 {
		maxIdle = max(4, 2*runtime.GOMAXPROCS(0))
	}
	limits = limits.Normalize()
	return &Decoders{sources: prx.NewSourcePoolSize(limits, maxIdle), limits: limits, max: maxIdle}, nil
}

// getDict returns an idle dictionary-block decoder, or a new one.
func (d *Decoders) getDict() (*zstd.Decoder, error) {
	return d.get(&d.dict, format.MaxBlockPlainLen)
}

// putDict gives a dictionary-block decoder back (closing it when the pool is full).
func (d *Decoders) putDict(z *zstd.Decoder) { d.put(&d.dict, z) }

// getStore returns an idle store-block decoder, or a new one.
func (d *Decoders) getStore() (*zstd.Decoder, error) {
	return d.get(&d.store, format.MaxStoreBlockPlain)
}

// putStore gives a store-block decoder back (closing it when the pool is full).
func (d *Decoders) putStore(z *zstd.Decoder) { d.put(&d.store, z) }

// get takes an idle decoder from pool, or makes one capped at maxBytes.
func (d *Decoders) get(pool *[]*zstd.Decoder, maxBytes int) (*zstd.Decoder, error) {
	d.mu.Lock()
	if n := len(*pool); n > 0 {
		z := (*pool)[n-1]
		(*pool)[n-1] = nil
		*pool = (*pool)[:n-1]
		d.mu.Unlock()
		return z, nil
	}
	d.mu.Unlock()
	return zstdopt.NewDecoder(maxBytes)
}

// put gives a decoder back to pool (closing it when the pool is full).
func (d *Decoders) put(pool *[]*zstd.Decoder, z *zstd.Decoder) {
	d.mu.Lock()
	if len(*pool) < d.max {
		*pool = append(*pool, z)
		d.mu.Unlock()
		return
	}
	d.mu.Unlock()
	z.Close()
}

// close closes the idle decoders (a segment's own pool, at its release).
func (d *Decoders) close() {
	d.sources.Close()
	d.mu.Lock()
	dict := append(d.dict, d.store...)
	d.dict, d.store = nil, nil
	d.max = 0
	d.mu.Unlock()
	for _, z := range dict {
		z.Close()
	}
}

// useShared sets the segment's cache and decoders from o (checked), or its own.
func (s *Segment) useShared(o Options) error {
	if o.Decoders != nil {
		if o.Decoders.limits != s.limits {
			return errs.Invalidf("reader: Options.Decoders was made for limits %+v, the segment is opened with %+v", o.Decoders.limits, s.limits)
		}
		s.dec = o.Decoders
	} else {
		s.dec = &Decoders{sources: prx.NewSourcePool(s.limits), limits: s.limits, max: max(4, 2*runtime.GOMAXPROCS(0))}
		s.ownDec = true
	}
	if o.BlockCache != nil {
		s.blocks = o.BlockCache.c
		return nil
	}
	cacheBytes := int64(o.BlockCacheBytes)
	if cacheBytes == 0 {
		cacheBytes = defaultBlockCacheBytes
	}
	s.blocks = newBlockCache(cacheBytes)
	return nil
}

// purge drops the blocks of segment s (closed) from the cache.
func (c *blockCache) purge(s *Segment) {
	c.mu.Lock()
	defer c.mu.Unlock()
	kept := c.ring[:0]
	for _, cb := range c.ring {
		if cb.f.seg == s {
			cb.f.slots[cb.i].Store(nil)
			c.used -= cb.size
			continue
		}
		kept = append(kept, cb)
	}
	clear(c.ring[len(kept):])
	c.ring = kept
	c.hand = 0
}
