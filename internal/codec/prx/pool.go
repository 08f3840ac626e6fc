package prx

import (
	"runtime"
	"sync"

	"github.com/snii-go/snii/limits"
)

// SourcePool hands out Sources that share limits (typically one pool per segment).
// It keeps up to a bounded number of idle Sources, with their zstd decoders and
// buffers. It is safe for concurrent use.
type SourcePool struct {
	limits limits.Limits
	mu     sync.Mutex
	free   []*Source
	max    int
	closed bool
}

// NewSourcePool returns a pool of Sources with the given limits (normalized as by
// NewSource). It keeps at most 2×GOMAXPROCS (at least 4) idle Sources.
func NewSourcePool(limits limits.Limits) *SourcePool {
	return NewSourcePoolSize(limits, 0)
}

// NewSourcePoolSize is NewSourcePool keeping at most maxIdle idle Sources
// (<= 0: 2×GOMAXPROCS, at least 4): a pool shared by many segments bounds
// their idle zstd decoders together.
func NewSourcePoolSize(limits limits.Limits, maxIdle int) *SourcePool {
	if maxIdle <= 0 {
		maxIdle = max(4, 2*runtime.GOMAXPROCS(0))
	}
	return &SourcePool{limits: clampedLimits(limits), max: maxIdle}
}

// Idle returns the number of idle Sources the pool keeps.
func (p *SourcePool) Idle() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.free)
}

// Get returns an idle Source, or a new one.
func (p *SourcePool) Get() *Source {
	p.mu.Lock()
	if n := len(p.free); n > 0 {
		s := p.free[n-1]
		p.free[n-1] = nil
		p.free = p.free[:n-1]
		p.mu.Unlock()
		return s
	}
	p.mu.Unlock()
	s := NewSource(p.limits)
	s.pool = p
	return s
}

// Put returns s to the pool and clears its stats pointer. A Source from another pool
// (or none), a closed one, or one the pool has no room for is closed instead.
func (p *SourcePool) Put(s *Source) {
	if s == nil || s.closed {
		return
	}
	s.stats, s.mem = nil, nil
	if s.pool != p {
		s.Close()
		return
	}
	if cap(s.buf) > maxPooledBuffer {
		s.buf = nil
	}
	if cap(s.zbuf) > maxPooledBuffer {
		s.zbuf = nil
	}
	if cap(s.tf) > maxPooledBuffer/4 {
		s.tf, s.offs = nil, nil
	}
	p.mu.Lock()
	if p.closed || len(p.free) >= p.max {
		p.mu.Unlock()
		s.Close()
		return
	}
	p.free = append(p.free, s)
	p.mu.Unlock()
}

// Close closes the idle Sources; Sources put back afterwards are closed too. Get keeps
// working (it returns new Sources).
func (p *SourcePool) Close() {
	p.mu.Lock()
	free := p.free
	p.free = nil
	p.closed = true
	p.mu.Unlock()
	for _, s := range free {
		s.Close()
	}
}
