package search

import (
	"cmp"
	"context"
	"slices"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/snii-go/snii/internal/errs"
	"github.com/snii-go/snii/reader"
)

// TopOptions tune a Top search. A nil *TopOptions is valid: BM25 with k1 =
// 1.2, b = 0.75.
type TopOptions struct {
	// BM25 overrides the similarity's parameters (nil: k1 = 1.2, b = 0.75).
	BM25 *reader.BM25
	// Filter, when set, ranks only these global ids (as
	// reader.TopOptions.Filter does in one segment); the statistics stay
	// those of every document.
	Filter *roaring64.Bitmap
	// Explain fills each hit's Explanation.
	Explain bool
	// Profile, when set, receives the sum of the segments' Top profiles.
	Profile *reader.Profile
}

// Hit is one document of a ranked result, by global id.
type Hit struct {
	Doc         uint64
	Score       float32
	Explanation *reader.Explanation // with TopOptions.Explain
}

// Top returns the k best-scoring documents matching q over all the segments,
// best first, ties by ascending global id, scored as reader.Segment.Top
// scores with the statistics of the whole collection: the documents holding
// each field, its tokens and each term's document frequency, summed over the
// segments (reader.Segment.Stats). The ids, scores and explanations are those
// Top gives on one segment merged from these (in this order), bit for bit.
// k <= 0 is an invalid-argument error.
//
// It runs in two passes over the segments, at most Options.Parallel at a
// time: their statistics of q, then each segment's top k with the sums,
// merged by score.
func (s *Searcher) Top(ctx context.Context, q reader.Query, k int, o *TopOptions) ([]Hit, error) {
	if q == nil {
		return nil, errs.Invalidf("search: nil query")
	}
	if k <= 0 {
		return nil, errs.Invalidf("search: top %d (want k >= 1)", k)
	}
	var opts TopOptions
	if o != nil {
		opts = *o
	}
	filters := s.split(opts.Filter)
	runs := func(i int) bool { return filters == nil || filters[i] != nil }
	per := make([]*reader.Stats, len(s.segs))
	err := s.each(ctx, nil, func(int) bool { return true }, func(ctx context.Context, i int, _ *reader.Profile) error {
		st, err := s.segs[i].Stats(ctx, q)
		per[i] = st
		return err
	})
	if err != nil {
		return nil, err
	}
	sum := new(reader.Stats)
	for _, st := range per {
		sum.Add(st)
	}
	hits := make([][]reader.Hit, len(s.segs))
	err = s.each(ctx, opts.Profile, runs, func(ctx context.Context, i int, prof *reader.Profile) error {
		to := &reader.TopOptions{BM25: opts.BM25, Stats: sum, Explain: opts.Explain, Profile: prof, SkipMissingFields: true}
		if filters != nil {
			to.Filter = filters[i]
		}
		h, err := s.segs[i].Top(ctx, q, k, to)
		hits[i] = h
		return err
	})
	if err != nil {
		return nil, err
	}
	var out []Hit
	for i, hs := range hits {
		for _, h := range hs {
			out = append(out, Hit{Doc: s.bases[i] + uint64(h.Doc), Score: h.Score, Explanation: h.Explanation})
		}
	}
	slices.SortFunc(out, func(a, b Hit) int { // best first: higher score, then lower id
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.Doc, b.Doc)
	})
	if len(out) > k {
		out = out[:k]
	}
	if out == nil {
		out = []Hit{}
	}
	return out, nil
}
