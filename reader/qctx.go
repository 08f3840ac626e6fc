package reader

import (
	"context"
	"time"

	"github.com/snii-go/snii/internal/codec/format"
	"github.com/snii-go/snii/internal/codec/prx"
)

// counters are the reader's own profile counters (prx.Stats holds the codec's).
type counters struct {
	bytesRead   int64
	ranges      int64
	dictBlocks  int64
	dictTerms   int64 // dict entries a prefix or pattern expansion stepped over
	docWindows  int64
	prxWindows  int64
	docsVisited int64
	docBlocks   int64 // 128-doc blocks decoded from blocked doc windows
	docsDecoded int64 // doc ids decoded (whole windows and blocks)
	// docCheckedBytes is the doc-window bytes whose CRC32C was computed
	docCheckedBytes int64
	verify          time.Duration
	fetch           Fetch // remote storage: rounds, requests, bytes received
	// pairs (see Profile)
	pairLookups, pairDocs, pairPlans, pairBefore, pairAfter, pairProved int64
}

// qctx is the state of one query on one segment: its decode source (taken from
// the segment's pool at the first frame), its scratch buffers and counters. It
// is pooled by the segment and used by one goroutine at a time.
type qctx struct {
	s       *Segment
	ctx     context.Context
	src     *prx.Source
	stats   prx.Stats
	profile bool
	noPairs bool // SearchOptions.NoPairs
	// fullCheck: Verify's walk, which re-verifies every prelude (a query
	// trusts one verified before with the same CRC).
	fullCheck bool
	limit     int // > 0: the query is a phrase that may stop at this many matches (SearchOptions.Limit)
	count     counters
	ticks     int
	leapTicks int   // nextCommon's turns, for its context checks
	held      int64 // bytes of decode memory charged to the segment's budget

	win      prx.Window
	blockBuf []byte // stored zstd dict blocks read through ReaderAt
	arena    []byte // frames read through ReaderAt, reset per query
	docSrc   []byte // the doc window being decoded, read through ReaderAt
	docBuf   []uint32
	docAll   []uint32 // every doc of one term of a prefix (appendDocs)
	mergeAt  []int32  // mergeTermDocs' scratch
	mergeCI  []int32
	blks     []format.DocBlock // the directory of a blocked doc window (collect)
	free     [][]uint32        // reusable uint32 buffers
	terms    []*termRef        // resolved terms of this query (pooled objects)
	nterms   int
	plans    []*phrasePlan
	nplans   int
	jobs     []frameJob
	order    []int
	ranges   []span
	lists    [][]uint32
	posBufs  [][]uint32    // per slot: positions of the document being verified
	leaps    []leap        // the leapfrog walk of a simple phrase
	scorers  []*termScorer // term scorers of top-k searches, [:nscorers] in use
	nscorers int
	cur      []int
	union    docSet // unions of many doc lists (prefix expansions)
	entry    format.Entry
	// storeFree holds store-block decode buffers for the next blocks and
	// queries (a few small ones are kept when the context is pooled).
	storeFree [][]byte
}

// Buffers larger than these are dropped when a query context is pooled.
const (
	maxPooledBytes = 8 << 20
	maxPooledDocs  = 1 << 20
)

// getCtx takes a query context from the segment's pool.
func (s *Segment) getCtx(ctx context.Context, profile bool) *qctx {
	x, _ := s.ctxs.Get().(*qctx)
	if x == nil {
		x = &qctx{s: s}
	}
	if ctx == nil {
		ctx = context.Background()
	}
	x.ctx = ctx
	x.profile = profile
	x.noPairs = false
	x.limit = 0
	return x
}

// putCtx returns the decode source to the segment pool and the context to its
// pool.
func (s *Segment) putCtx(x *qctx) {
	if x.src != nil {
		s.dec.sources.Put(x.src)
		x.src = nil
	}
	x.stats = prx.Stats{}
	x.count = counters{}
	x.ctx = nil
	x.arena = x.arena[:0]
	// Do not let one huge query pin its buffers in the pool.
	if cap(x.arena) > maxPooledBytes {
		x.arena = nil
	}
	if cap(x.blockBuf) > maxPooledBytes {
		x.blockBuf = nil
	}
	if cap(x.docSrc) > maxPooledBytes {
		x.docSrc = nil
	}
	if cap(x.docAll) > maxPooledDocs {
		x.docAll = nil
	}
	if cap(x.mergeAt) > maxPooledDocs || cap(x.mergeCI) > maxPooledDocs {
		x.mergeAt, x.mergeCI = nil, nil
	}
	if cap(x.union.bits) > maxPooledDocs/8 || cap(x.union.buf) > maxPooledDocs {
		x.union = docSet{}
	}
	kept := x.free[:0]
	for _, b := range x.free {
		if cap(b) <= maxPooledDocs {
			kept = append(kept, b)
		}
	}
	clear(x.free[len(kept):])
	x.free = kept
	for i := 0; i < x.nterms; i++ {
		x.terms[i].reset()
	}
	x.nterms = 0
	for i := 0; i < x.nplans; i++ {
		x.plans[i].reset()
	}
	x.nplans = 0
	for _, ts := range x.scorers[:x.nscorers] {
		c, buf := ts.c, ts.prxBuf
		c.Release() // drops a large inflation buffer
		if cap(buf) > maxPooledBytes {
			buf = nil
		}
		*ts = termScorer{c: c, prxBuf: buf[:0]}
	}
	x.nscorers = 0
	x.keepStoreBuffers()
	x.releaseMemory() // the source and the cursors dropped their large buffers
	x.jobs = x.jobs[:0]
	x.ranges = x.ranges[:0]
	for i := range x.lists {
		x.lists[i] = nil
	}
	s.ctxs.Put(x)
}

// check returns the context's error, looking at it every few calls.
func (x *qctx) check() error {
	x.ticks++
	if x.ticks&15 != 0 {
		return nil
	}
	return x.ctx.Err()
}

// source returns the query's decode source, taking one from the pool first.
func (x *qctx) source() *prx.Source {
	if x.src == nil {
		x.src = x.s.dec.sources.Get()
		x.src.SetMemory(x)
		if x.profile {
			x.src.SetStats(&x.stats)
		} else {
			x.src.SetStats(nil)
		}
	}
	return x.src
}

// buf returns an empty reusable uint32 buffer; give it back with put.
func (x *qctx) buf() []uint32 {
	if n := len(x.free); n > 0 {
		b := x.free[n-1]
		x.free = x.free[:n-1]
		return b[:0]
	}
	return nil
}

// put gives a buffer back for reuse within this context.
func (x *qctx) put(b []uint32) {
	if cap(b) > 0 {
		x.free = append(x.free, b[:0])
	}
}

// readInto returns the n bytes at off: sliced from the mapping, or read into
// *buf (reused, grown as needed) through the ReaderAt; it counts them.
func (x *qctx) readInto(off, n uint64, buf *[]byte) ([]byte, error) {
	x.count.bytesRead += int64(n)
	x.count.ranges++
	if r := x.s.remote(); r != nil {
		return x.readRemote(r, off, n, buf)
	}
	return x.s.readAt(off, n, buf)
}

// read returns the n bytes at off, sliced from the mapping or read into the
// query's arena (grow-only; earlier slices stay valid), and counts them.
func (x *qctx) read(off, n uint64) ([]byte, error) {
	x.count.bytesRead += int64(n)
	x.count.ranges++
	s := x.s
	if s.data != nil || n == 0 {
		return s.readAt(off, n, nil)
	}
	if n > uint64(s.size) {
		return s.readAt(off, n, nil) // fails: beyond the file
	}
	b := x.alloc(n)
	var err error
	if r := s.remote(); r != nil {
		b, err = x.readRemote(r, off, n, &b)
	} else {
		b, err = s.readAt(off, n, &b)
	}
	if err != nil {
		x.arena = x.arena[:len(x.arena)-int(n)]
		return nil, err
	}
	return b, nil
}

// alloc returns n bytes of the query's arena (n at most the segment's size).
func (x *qctx) alloc(n uint64) []byte {
	if uint64(cap(x.arena)-len(x.arena)) < n {
		x.arena = make([]byte, 0, max(2*cap(x.arena), int(n), 4096))
	}
	start := len(x.arena)
	x.arena = x.arena[:start+int(n)]
	return x.arena[start : start+int(n) : start+int(n)]
}
