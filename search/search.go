package search

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/snii-go/snii/internal/errs"
	"github.com/snii-go/snii/reader"
	"golang.org/x/sync/errgroup"
)

// Options configure a Searcher. The zero value gives the defaults.
type Options struct {
	// Parallel bounds the segments queried at once: 0 means GOMAXPROCS (local
	// segments are CPU-bound); remote segments, bound by round trips, want more
	// (snii query uses 16 for s3://).
	Parallel int
}

// Searcher queries a fixed list of open segments. It does not own them (Close
// them yourself); it is safe for concurrent use.
type Searcher struct {
	segs     []*reader.Segment
	bases    []uint64 // bases[i]: the global id of segment i's doc 0; bases[len] the total
	parallel int
}

// New returns a searcher over segs, numbered in that order.
func New(segs []*reader.Segment, o Options) (*Searcher, error) {
	if o.Parallel < 0 {
		return nil, errs.Invalidf("search: Parallel = %d (want 0 for GOMAXPROCS, or more)", o.Parallel)
	}
	p := o.Parallel
	if p == 0 {
		p = runtime.GOMAXPROCS(0)
	}
	s := &Searcher{segs: slices.Clone(segs), bases: make([]uint64, len(segs)+1), parallel: p}
	for i, seg := range segs {
		if seg == nil {
			return nil, errs.Invalidf("search: segment %d is nil", i)
		}
		s.bases[i+1] = s.bases[i] + uint64(seg.DocCount())
	}
	return s, nil
}

// DocCount returns the documents of all the segments.
func (s *Searcher) DocCount() uint64 { return s.bases[len(s.segs)] }

// Base returns the global id of segment i's first document.
func (s *Searcher) Base(i int) uint64 { return s.bases[i] }

// Locate returns the segment and local id of a global doc id (ok false when
// out of range).
func (s *Searcher) Locate(doc uint64) (seg int, local uint32, ok bool) {
	if doc >= s.DocCount() {
		return 0, 0, false
	}
	i, found := slices.BinarySearch(s.bases, doc)
	if !found {
		i--
	}
	for i+1 < len(s.bases) && s.bases[i+1] == doc { // skip empty segments
		i++
	}
	return i, uint32(doc - s.bases[i]), true
}

// SearchOptions tune one search. A nil *SearchOptions is valid.
type SearchOptions struct {
	// Profile, when set, receives the sum of the segments' profiles.
	Profile *reader.Profile
	// Filter, when set, restricts the search to these global ids (as
	// reader.SearchOptions.Filter does in one segment): each segment gets the
	// part of it that falls in its range, and a segment holding none is not
	// searched. Ids past DocCount are ignored.
	Filter *roaring64.Bitmap
	// Limit, when > 0, is the most documents a search returns: Docs,
	// AppendDocs and Bitmap keep the lowest Limit global ids, Count counts at
	// most Limit. Negative is an invalid-argument error.
	Limit int
}

// Count returns the number of documents matching q in all the segments.
func (s *Searcher) Count(ctx context.Context, q reader.Query, o *SearchOptions) (uint64, error) {
	counts := make([]uint64, len(s.segs))
	err := s.search(ctx, o, func(ctx context.Context, i int, so *reader.SearchOptions) error {
		n, err := s.segs[i].Count(ctx, q, so)
		counts[i] = n
		return err
	})
	if err != nil {
		return 0, err
	}
	var n uint64
	for _, c := range counts {
		n += c
	}
	if o != nil && o.Limit > 0 {
		n = min(n, uint64(o.Limit))
	}
	return n, nil
}

// Docs returns the ascending global ids of the documents matching q.
func (s *Searcher) Docs(ctx context.Context, q reader.Query, o *SearchOptions) ([]uint64, error) {
	return s.AppendDocs(ctx, q, o, []uint64{})
}

// AppendDocs appends the ascending global ids of the documents matching q to
// dst and returns the extended slice, as Docs does but into the caller's
// buffer. On error dst is returned as it was given.
func (s *Searcher) AppendDocs(ctx context.Context, q reader.Query, o *SearchOptions, dst []uint64) ([]uint64, error) {
	per := make([][]uint32, len(s.segs))
	err := s.search(ctx, o, func(ctx context.Context, i int, so *reader.SearchOptions) error {
		d, err := s.segs[i].Docs(ctx, q, so)
		per[i] = d
		return err
	})
	if err != nil {
		return dst, err
	}
	n := 0
	for _, d := range per {
		n += len(d)
	}
	if o != nil && o.Limit > 0 {
		n = min(n, o.Limit)
	}
	out := slices.Grow(dst, n)
	for i, d := range per {
		for _, v := range d[:min(len(d), len(dst)+n-len(out))] {
			out = append(out, s.bases[i]+uint64(v))
		}
	}
	return out, nil
}

// Bitmap returns the global ids of the documents matching q.
func (s *Searcher) Bitmap(ctx context.Context, q reader.Query, o *SearchOptions) (*roaring64.Bitmap, error) {
	d, err := s.Docs(ctx, q, o)
	if err != nil {
		return nil, err
	}
	out := roaring64.New()
	out.AddMany(d)
	return out, nil
}

// search runs fn for every segment with its part of the options (the
// segments the filter leaves no document are not run).
func (s *Searcher) search(ctx context.Context, o *SearchOptions, fn func(ctx context.Context, i int, so *reader.SearchOptions) error) error {
	var opts SearchOptions
	if o != nil {
		opts = *o
	}
	if opts.Limit < 0 {
		return errs.Invalidf("search: negative limit %d", opts.Limit)
	}
	filters := s.split(opts.Filter)
	return s.each(ctx, opts.Profile, func(i int) bool { return filters == nil || filters[i] != nil },
		func(ctx context.Context, i int, prof *reader.Profile) error {
			so := &reader.SearchOptions{Profile: prof, Limit: opts.Limit, SkipMissingFields: true}
			if filters != nil {
				so.Filter = filters[i]
			}
			return fn(ctx, i, so)
		})
}

// split returns the part of the global filter f in each segment, in its
// local ids (nil for a segment holding none of f's ids), or nil when f is.
func (s *Searcher) split(f *roaring64.Bitmap) []*roaring.Bitmap {
	if f == nil {
		return nil
	}
	out := make([]*roaring.Bitmap, len(s.segs))
	it := f.Iterator()
	buf := make([]uint32, 0, 4096)
	for i := range s.segs {
		lo, hi := s.bases[i], s.bases[i+1]
		it.AdvanceIfNeeded(lo)
		var bm *roaring.Bitmap
		for it.HasNext() && it.PeekNext() < hi {
			buf = append(buf, uint32(it.Next()-lo))
			if len(buf) == cap(buf) || !it.HasNext() || it.PeekNext() >= hi {
				if bm == nil {
					bm = roaring.New()
				}
				bm.AddMany(buf)
				buf = buf[:0]
			}
		}
		out[i] = bm
	}
	return out
}

// each runs fn for every segment run selects, at most s.parallel at once,
// giving each a profile to fill when total is set (total receives their sum).
// The first error cancels the others' context; each returns when every call
// has returned.
func (s *Searcher) each(ctx context.Context, total *reader.Profile, run func(i int) bool, fn func(ctx context.Context, i int, prof *reader.Profile) error) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if total != nil {
		*total = reader.Profile{}
	}
	var mu sync.Mutex
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(s.parallel)
	for i := range s.segs {
		if gctx.Err() != nil {
			break // a segment failed or the caller's context ended: start no more
		}
		if !run(i) {
			continue
		}
		g.Go(func() error {
			var prof *reader.Profile
			if total != nil {
				prof = new(reader.Profile)
			}
			if err := fn(gctx, i, prof); err != nil {
				return fmt.Errorf("segment %d: %w", i, err)
			}
			if total != nil {
				mu.Lock()
				total.Add(prof)
				mu.Unlock()
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	return ctx.Err() // the caller's context ended
}
