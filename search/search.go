package search

import (
	"context"
	"fmt"
	"golang.org/x/sync/errgroup"
	"runtime"
	"slices"
	"sync"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/snii-go/snii/internal/errs"
	"github.com/snii-go/snii/reader"
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

// Len returns the number of segments.
func (s *Searcher) Len() int { return len(s.segs) }

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
}

// Count returns the number of documents matching q in all the segments.
func (s *Searcher) Count(ctx context.Context, q reader.Query, o *SearchOptions) (uint64, error) {
	counts := make([]uint64, len(s.segs))
	err := s.each(ctx, o, func(ctx context.Context, i int, so *reader.SearchOptions) error {
		n, err := s.segs[i].Count(ctx, q, so)
		counts[i] = n
		return err
	})
	var n uint64
	for _, c := range counts {
		n += c
	}
	return n, err
}

// Docs returns the ascending global ids of the documents matching q.
func (s *Searcher) Docs(ctx context.Context, q reader.Query, o *SearchOptions) ([]uint64, error) {
	per := make([][]uint32, len(s.segs))
	err := s.each(ctx, o, func(ctx context.Context, i int, so *reader.SearchOptions) error {
		d, err := s.segs[i].Docs(ctx, q, so)
		per[i] = d
		return err
	})
	if err != nil {
		return nil, err
	}
	n := 0
	for _, d := range per {
		n += len(d)
	}
	out := make([]uint64, 0, n)
	for i, d := range per {
		for _, v := range d {
			out = append(out, s.bases[i]+uint64(v))
		}
	}
	return out, nil
}

// Bitmap returns the global ids of the documents matching q.
func (s *Searcher) Bitmap(ctx context.Context, q reader.Query, o *SearchOptions) (*roaring64.Bitmap, error) {
	out := roaring64.New()
	var mu sync.Mutex
	err := s.each(ctx, o, func(ctx context.Context, i int, so *reader.SearchOptions) error {
		d, err := s.segs[i].Docs(ctx, q, so)
		if err != nil {
			return err
		}
		ids := make([]uint64, len(d))
		for k, v := range d {
			ids[k] = s.bases[i] + uint64(v)
		}
		mu.Lock()
		out.AddMany(ids)
		mu.Unlock()
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// each runs fn for every segment, at most s.parallel at once. The first error
// cancels the others' context; each returns when every call has returned.
func (s *Searcher) each(ctx context.Context, o *SearchOptions, fn func(ctx context.Context, i int, so *reader.SearchOptions) error) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	var total *reader.Profile
	if o != nil && o.Profile != nil {
		total = o.Profile
		*total = reader.Profile{}
	}
	var mu sync.Mutex
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(s.parallel)
	for i := range s.segs {
		if gctx.Err() != nil {
			break // a segment failed or the caller's context ended: start no more
		}
		g.Go(func() error {
			var prof reader.Profile
			var so *reader.SearchOptions
			if total != nil {
				so = &reader.SearchOptions{Profile: &prof}
			}
			if err := fn(gctx, i, so); err != nil {
				return fmt.Errorf("segment %d: %w", i, err)
			}
			if total != nil {
				mu.Lock()
				total.Add(&prof)
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
