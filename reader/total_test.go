package reader_test

import (
	"slices"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/snii-go/snii/internal/testkit/oracle"
	"github.com/snii-go/snii/reader"
	"github.com/snii-go/snii/writer"
)

// TestSearchTotal: with SearchOptions.Total, Docs, AppendDocs, Bitmap and
// Count return what they return without it (the oracle's matches, the lowest
// Limit of them) and Total receives the number of every match, for every
// kind of query, with and without a filter, on a segment with many pairs.
func TestSearchTotal(t *testing.T) {
	docs := oracle.Generate(77, oracle.GenOptions{Docs: 3000})
	c := corpusOf(docs)
	n := 12
	if raceEnabled {
		n = 3
	}
	qs := genQueries(c, "text", 78, n)
	s := open(t, build(t, docs, pairOptions(writer.Pairs{Percent: 100, MinDF: 2}, "host", "text")))
	defer s.Close()
	filter := roaring.New()
	for d := uint32(0); d < 3000; d += 3 {
		filter.Add(d)
	}
	for i, q := range qs.qs {
		for _, fl := range []*roaring.Bitmap{nil, filter} {
			want := qs.want[i]
			if fl != nil {
				want = slices.DeleteFunc(slices.Clone(want), func(d uint32) bool { return !fl.Contains(d) })
			}
			for _, limit := range []int{0, 1, 5} {
				page := want[:min(len(want), limit)]
				if limit == 0 {
					page = want
				}
				var tot uint64
				o := &reader.SearchOptions{Limit: limit, Filter: fl, Total: &tot}
				got, err := s.AppendDocs(bg, rq(q), o, nil)
				if err != nil {
					t.Fatalf("%s: %v", q, err)
				}
				if !slices.Equal(got, page) || tot != uint64(len(want)) {
					t.Fatalf("%s (%s, limit %d, filter %v): %d docs, total %d; want %d, %d", q, qs.kinds[i], limit, fl != nil, len(got), tot, len(page), len(want))
				}
				tot = 0
				bm, err := s.Bitmap(bg, rq(q), o)
				if err != nil || !slices.Equal(bm.ToArray(), page) || tot != uint64(len(want)) {
					t.Fatalf("%s: bitmap of %d, total %d, %v; want %d, %d", q, bm.GetCardinality(), tot, err, len(page), len(want))
				}
				tot = 0
				cnt, err := s.Count(bg, rq(q), o)
				if err != nil || cnt != uint64(len(page)) || tot != uint64(len(want)) {
					t.Fatalf("%s: count %d, total %d, %v; want %d, %d", q, cnt, tot, err, len(page), len(want))
				}
			}
		}
	}
}

// TestSearchTotalPairDF: a two-term phrase with a pair entry is counted from
// the pair's df and its page found apart (two pair plans); a phrase of three
// terms is evaluated once, past the limit (it verifies the same candidates as
// a search without a limit).
func TestSearchTotalPairDF(t *testing.T) {
	var docs []oracle.Doc
	for i := 0; i < 400; i++ {
		v := "peer reset the connection"
		if i%10 == 0 {
			v = "connection reset by peer"
		}
		docs = append(docs, oracle.Doc{{Name: "text", Values: []string{v}}})
	}
	c := corpusOf(docs)
	s := open(t, build(t, docs, pairOptions(writer.Pairs{Percent: 100, MinDF: 2}, "text")))
	defer s.Close()
	for _, terms := range [][]string{{"connection", "reset"}, {"peer", "reset", "the"}} {
		q := reader.Phrase("text", terms...)
		want := c.Eval(oracle.Phrase{Field: "text", Terms: terms})
		var tot uint64
		var pr, whole reader.Profile
		got, err := s.Docs(bg, q, &reader.SearchOptions{Limit: 3, Total: &tot, Profile: &pr})
		if err != nil || !slices.Equal(got, want[:3]) || tot != uint64(len(want)) {
			t.Fatalf("%q: %v, total %d, %v; want %v, %d", terms, got, tot, err, want[:3], len(want))
		}
		if _, err := s.Docs(bg, q, &reader.SearchOptions{Profile: &whole}); err != nil {
			t.Fatal(err)
		}
		if len(terms) == 2 && pr.PairPlans != 2 {
			t.Errorf("%q: %d pair plans, want 2 (the df, then the page)", terms, pr.PairPlans)
		}
		if len(terms) == 3 && (pr.PairPlans != whole.PairPlans || pr.CandidatesAfter != whole.CandidatesAfter || pr.SelectedPositions != whole.SelectedPositions) {
			t.Errorf("%q: profile %+v, want one evaluation as without a limit %+v", terms, pr, whole)
		}
	}
}
