package reader

import (
	"context"
	"time"

	"github.com/snii-go/snii/internal/codec/prx"
	"github.com/snii-go/snii/objstore"
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
	fetch           objstore.Cost // remote storage: rounds, requests, bytes received
	// pairs (see Profile)
	pairLookups, pairDocs, pairPlans, pairBefore, pairAfter, pairProved int64
	// leapAdvances counts the leapfrog's advance calls (its moves that step
	// and stepOn leave to it); a test reads it.
	leapAdvances int64
	leapVerifies int64 // leapVerify calls (verifyTwo's candidates are not among them)
	// tfReads counts the slots' term frequencies lazyTFs and lazyReplay
	// read in the candidates (a slot implied is not read); a test reads it.
	tfReads int64
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
	// rank, when set, takes the candidates and matches of the phrase
	// evaluated (by leapfrog) for a ranked search, instead of a list
	rank      phraseRank
	count     counters
	ticks     int
	leapTicks int   // nextCommon's turns, for its context checks
	held      int64 // bytes of decode memory charged to the segment's budget

	free [][]uint32 // reusable uint32 buffers

	readScratch    // segment access
	postingScratch // term postings
	phraseScratch  // phrase plans and verification
	topScratch     // top-k scoring
	// storeFree holds store-block decode buffers for the next blocks and
	// queries (a few, of up to maxStoreBufferBytes, are kept when the
	// context is pooled).
	storeFree [][]byte
	storeEnds []int // record offsets of the store block a Records call holds
	// storeOwn holds the store-block buffers this call allocated and charged
	// to the budget (in x.held), in use or in storeFree.
	storeOwn [][]byte
	storePar *parWalk // a parallel Records call's state (storepar.go)
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
	x.readScratch.release()
	x.postingScratch.release()
	x.phraseScratch.release()
	x.topScratch.release()
	kept := x.free[:0]
	for _, b := range x.free {
		if cap(b) <= maxPooledDocs {
			kept = append(kept, b)
		}
	}
	clear(x.free[len(kept):])
	x.free = kept
	x.keepStoreBuffers()
	x.releaseMemory() // the source and the cursors dropped their large buffers
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
