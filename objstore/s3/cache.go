package s3

import (
	"container/list"
	"sort"
	"sync"
)

// DefaultCacheBytes is the bound of a Cache created with NewCache(0).
const DefaultCacheBytes = 64 << 20

// Cache holds byte spans fetched from objects, for the reads that follow a
// prefetch (and for the suffix fetched at open), within a bound on their total bytes:
// inserting past it evicts the least recently used spans, of any object. One
// Cache is meant to be shared by every object a program opens (Client.OpenSegment
// takes it from the Client), so that a thousand open segments stay within one
// bound. It is safe for concurrent use.
//
// Spans of one object never overlap: a span inserted over ranges already
// held keeps only its new bytes. A span larger than the whole bound is not
// kept (the read that needs it fetches it again).
type Cache struct {
	max int64

	mu   sync.Mutex
	used int64
	lru  list.List // of *span, most recent at the front
	objs map[uint64]*spanSet
}

// span is one cached byte range of one object.
type span struct {
	obj  uint64
	off  int64
	data []byte
	elem *list.Element
}

func (s *span) end() int64 { return s.off + int64(len(s.data)) }

// spanSet is an object's spans, sorted by offset, disjoint.
type spanSet struct{ spans []*span }

// NewCache returns a cache of at most bytes bytes (<= 0: DefaultCacheBytes).
func NewCache(bytes int64) *Cache {
	if bytes <= 0 {
		bytes = DefaultCacheBytes
	}
	return &Cache{max: bytes, objs: map[uint64]*spanSet{}}
}

// first returns the index of the first span of ss ending after off.
func (ss *spanSet) first(off int64) int {
	return sort.Search(len(ss.spans), func(i int) bool { return ss.spans[i].end() > off })
}

// read copies the bytes of obj at off into p as far as held spans cover them
// contiguously from off, and returns how many it copied.
func (c *Cache) read(obj uint64, p []byte, off int64) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	ss := c.objs[obj]
	if ss == nil {
		return 0
	}
	n := 0
	for i := ss.first(off); i < len(ss.spans) && n < len(p); i++ {
		s := ss.spans[i]
		at := off + int64(n)
		if s.off > at {
			break
		}
		n += copy(p[n:], s.data[at-s.off:])
		c.lru.MoveToFront(s.elem)
	}
	return n
}

// missing appends to dst the parts of [off, off+n) of obj not held.
func (c *Cache) missing(dst []rng, obj uint64, off, n int64) []rng {
	c.mu.Lock()
	defer c.mu.Unlock()
	end := off + n
	if ss := c.objs[obj]; ss != nil {
		for i := ss.first(off); i < len(ss.spans) && off < end; i++ {
			s := ss.spans[i]
			if s.off >= end {
				break
			}
			if s.off > off {
				dst = append(dst, rng{off, s.off - off})
			}
			off = s.end()
		}
	}
	if off < end {
		dst = append(dst, rng{off, end - off})
	}
	return dst
}

// add keeps data as the bytes of obj at off (their parts not already held).
func (c *Cache) add(obj uint64, off int64, data []byte) {
	if int64(len(data)) > c.max || len(data) == 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	ss := c.objs[obj]
	if ss == nil {
		ss = &spanSet{}
		c.objs[obj] = ss
	}
	end := off + int64(len(data))
	// Cut the new bytes around the spans held in [off, end).
	var pieces []*span
	i := ss.first(off)
	at := off
	for j := i; j < len(ss.spans) && at < end; j++ {
		s := ss.spans[j]
		if s.off >= end {
			break
		}
		if s.off > at {
			pieces = append(pieces, &span{obj: obj, off: at, data: data[at-off : s.off-off]})
		}
		at = s.end()
	}
	if at < end {
		pieces = append(pieces, &span{obj: obj, off: at, data: data[at-off:]})
	}
	for _, p := range pieces {
		if len(p.data) < len(data) {
			p.data = append([]byte(nil), p.data...) // do not pin the rest
		}
		p.elem = c.lru.PushFront(p)
		c.used += int64(len(p.data))
		k := ss.first(p.off)
		ss.spans = append(ss.spans, nil)
		copy(ss.spans[k+1:], ss.spans[k:])
		ss.spans[k] = p
	}
	for c.used > c.max {
		c.remove(c.lru.Back().Value.(*span))
	}
}

// remove drops one span (locked).
func (c *Cache) remove(s *span) {
	c.lru.Remove(s.elem)
	c.used -= int64(len(s.data))
	ss := c.objs[s.obj]
	k := ss.first(s.off)
	ss.spans = append(ss.spans[:k], ss.spans[k+1:]...)
	if len(ss.spans) == 0 {
		delete(c.objs, s.obj)
	}
}

// drop forgets every span of obj (its object was closed).
func (c *Cache) drop(obj uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	ss := c.objs[obj]
	if ss == nil {
		return
	}
	for _, s := range append([]*span(nil), ss.spans...) {
		c.remove(s)
	}
}
