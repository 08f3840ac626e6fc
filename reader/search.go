package reader

import (
	"context"
	"slices"
	"time"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/snii-go/snii/internal/errs"
)

// SearchOptions tune one search. A nil *SearchOptions is valid.
type SearchOptions struct {
	// Profile, when set, receives what the query did (overwritten).
	Profile *Profile
	// Filter, when set, restricts the search to these documents (a caller's
	// set such as a time range): only they are considered, so a term decodes
	// only the doc windows holding one of them and a phrase verifies positions
	// only there. Ids past the segment's documents are ignored.
	Filter *roaring.Bitmap
	// Limit, when > 0, is the most documents a search returns: Docs and Bitmap
	// keep the lowest Limit ids, Count counts at most Limit. A phrase (exact,
	// sloppy or prefix) stops verifying candidates once it has Limit matches;
	// other queries are evaluated whole and cut. Negative is an
	// invalid-argument error.
	Limit int
	// Total, when set, receives the number of documents matching q, however
	// many Limit keeps: a search given Total evaluates every match (a phrase
	// does not stop at Limit, but for an exact phrase of two terms counted
	// from its pair's df), so that one call answers both a page of hits and
	// their count.
	Total *uint64
	// NoPairs plans phrases without the field's pair section (the answers are
	// the same; for comparisons).
	NoPairs bool
	// SkipMissingFields makes a term, phrase or prefix of a field the segment
	// does not have match nothing, where it is otherwise an snii.ErrNotFound
	// error (package search sets it: a field of one segment may be absent
	// from another).
	SkipMissingFields bool
}

// Docs returns the ascending ids of the documents matching q.
func (s *Segment) Docs(ctx context.Context, q Query, o *SearchOptions) ([]uint32, error) {
	var docs []uint32
	_, err := s.search(ctx, q, o, false, func(r []uint32) { docs = slices.Clone(r) })
	if docs == nil && err == nil {
		docs = []uint32{}
	}
	return docs, err
}

// AppendDocs appends the ascending ids of the documents matching q to dst and
// returns the extended slice, as Docs does but into the caller's buffer: a
// caller that walks many results reuses one buffer (dst[:0]) and allocates
// nothing per query once it is large enough. On error dst is returned as it
// was given.
func (s *Segment) AppendDocs(ctx context.Context, q Query, o *SearchOptions, dst []uint32) ([]uint32, error) {
	out := dst
	_, err := s.search(ctx, q, o, false, func(r []uint32) { out = append(dst, r...) })
	if err != nil {
		return dst, err
	}
	return out, nil
}

// Bitmap returns the documents matching q as a roaring bitmap.
func (s *Segment) Bitmap(ctx context.Context, q Query, o *SearchOptions) (*roaring.Bitmap, error) {
	bm := roaring.New()
	_, err := s.search(ctx, q, o, false, func(r []uint32) { bm.AddMany(r) })
	if err != nil {
		return nil, err
	}
	return bm, nil
}

// Count returns the number of documents matching q without building a doc list
// for the caller (a term query is answered from its df).
func (s *Segment) Count(ctx context.Context, q Query, o *SearchOptions) (uint64, error) {
	return s.search(ctx, q, o, true, nil)
}

// search runs q with a pooled query context and hands the result to emit.
func (s *Segment) search(ctx context.Context, q Query, o *SearchOptions, countOnly bool, emit func([]uint32)) (_ uint64, err error) {
	if q == nil {
		return 0, errs.Invalidf("reader: nil query")
	}
	if ctx == nil {
		ctx = context.Background()
	}
	if err := s.acquire(); err != nil {
		return 0, err
	}
	defer s.release()
	if o != nil && o.SkipMissingFields {
		q = s.withoutMissing(q)
	}
	var prof *Profile
	if o != nil {
		prof = o.Profile
	}
	var t0 time.Time
	if prof != nil {
		t0 = time.Now()
	}
	x := s.getCtx(ctx, prof != nil)
	defer s.putCtx(x)
	x.noPairs = o != nil && o.NoPairs
	total := o != nil && o.Total != nil
	if s.guarding() {
		defer s.faultGuard(&err, x, enableFaults())
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	filter, err := s.searchFilter(o)
	if err != nil {
		return 0, err
	}
	x.planQuery(q, countOnly) // remote segments: stages 1 and 2 in two rounds
	countFirst := total && !countOnly && x.countFirst(q, filter)
	if o != nil && o.Limit > 0 && q.stopsAtLimit() && (!total || countFirst) {
		x.limit = o.Limit // a phrase stops verifying at the limit (the lowest ids come first)
	}
	var n uint64
	if countOnly && !filter.on {
		n, err = q.count(x)
		if err == nil && total {
			*o.Total = n
		}
		n = limitCount(n, o)
	} else {
		var r []uint32
		if countFirst {
			var all uint64
			if all, err = q.count(x); err == nil {
				*o.Total = all
			}
		}
		if err == nil {
			r, err = x.eval(q, filter)
		}
		if err == nil {
			if total && !countFirst {
				*o.Total = uint64(len(r))
			}
			r = r[:limitCount(uint64(len(r)), o)]
			n = uint64(len(r))
			if !countOnly {
				emit(r)
			}
		}
		x.put(r)
	}
	if err != nil {
		return 0, err
	}
	if prof != nil {
		prof.fill(x, time.Since(t0))
	}
	return n, nil
}
