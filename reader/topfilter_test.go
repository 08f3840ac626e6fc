package reader_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/snii-go/snii"
	"github.com/snii-go/snii/internal/testkit/oracle"
	"github.com/snii-go/snii/reader"
)

// randomFilters returns filters of n documents: empty, one document, sparse
// and dense random sets, a range, every document, and one reaching past n.
func randomFilters(n uint32, seed uint64) []*roaring.Bitmap {
	r := rand.New(rand.NewPCG(seed, 7))
	some := func(p float64) *roaring.Bitmap {
		bm := roaring.New()
		for d := range n {
			if r.Float64() < p {
				bm.Add(d)
			}
		}
		return bm
	}
	rng := roaring.New()
	rng.AddRange(uint64(n/3), uint64(n/3+n/5))
	all := roaring.New()
	all.AddRange(0, uint64(n))
	past := some(0.05)
	past.AddRange(uint64(n), uint64(n)+100)
	return []*roaring.Bitmap{roaring.New(), roaring.BitmapOf(n / 2), some(0.002), some(0.05), some(0.6), rng, all, past}
}

// TestTopFilterOracle: Top within a filter gives the filtered oracle ranking
// (the oracle's ranking of every match, the documents outside the filter
// removed; statistics are the whole segment's), for every query kind and k.
func TestTopFilterOracle(t *testing.T) {
	n := 12
	if raceEnabled {
		n = 3
	}
	docs := oracle.Generate(41, oracle.GenOptions{Docs: 3000})
	c := corpusOf(docs)
	s := open(t, build(t, docs, options(-1, "host", "text")))
	qs := topQueries(c, "text", 17, n)
	g := oracle.NewGen(c, "text", 18)
	for range n {
		qs = append(qs, g.Sloppy(), g.Prefix(), g.PhrasePrefix())
	}
	filters := randomFilters(s.DocCount(), 5)
	ks := []int{10, 1, 3, 50, 1000}
	hits := 0
	for i, q := range qs {
		k := ks[i%len(ks)]
		ranked := c.TopBM25(q, math.MaxInt32, oracle.BM25Options{K1: 1.2, B: 0.75})
		for fi, f := range filters {
			var want []oracle.Scored
			for _, w := range ranked {
				if f.Contains(w.Doc) && len(want) < k {
					want = append(want, w)
				}
			}
			got, err := s.Top(bg, rq(q), k, &reader.TopOptions{Filter: f})
			if err != nil {
				t.Fatalf("%s filter %d: %v", q, fi, err)
			}
			if len(got) != len(want) {
				t.Fatalf("%s top %d, filter %d: %d hits, want %d", q, k, fi, len(got), len(want))
			}
			for r := range got {
				g, w := got[r], want[r]
				if !f.Contains(g.Doc) {
					t.Fatalf("%s filter %d: hit %d outside the filter", q, fi, g.Doc)
				}
				if !near(float64(g.Score), w.Score) {
					t.Fatalf("%s top %d, filter %d: rank %d: doc %d score %v, want doc %d score %v", q, k, fi, r, g.Doc, g.Score, w.Doc, w.Score)
				}
				if g.Doc != w.Doc && !near(float64(g.Score), w.Score) {
					t.Fatalf("%s filter %d: rank %d: doc %d, want doc %d", q, fi, r, g.Doc, w.Doc)
				}
			}
			hits += len(got)
			// Unfiltered is the filter holding every document.
			if fi == 6 {
				all, err := s.Top(bg, rq(q), k, nil)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.EqualFunc(all, got, func(a, b reader.Hit) bool { return a.Doc == b.Doc && a.Score == b.Score }) {
					t.Fatalf("%s: the filter of every document ranks %v, no filter %v", q, got, all)
				}
			}
		}
	}
	if hits == 0 {
		t.Fatal("no query had a hit")
	}
	// An invalid query is an error whatever the filter.
	if _, err := s.Top(bg, reader.Phrase("text"), 5, &reader.TopOptions{Filter: roaring.New()}); !errors.Is(err, snii.ErrInvalidArgument) {
		t.Fatalf("a phrase without terms within an empty filter: %v", err)
	}
}

// TestTopFilterSkipsBlocks: on a term in every one of 9,000 documents (1,024-
// doc windows of 128-doc blocks), ranking within a filter of 4 documents
// decodes at most the block holding each of them, alone, in an And and in an
// Or, of the many blocks that scoring every match decodes.
func TestTopFilterSkipsBlocks(t *testing.T) {
	docs := largeWindowDocs(9000, nil)
	s := open(t, build(t, docs, options(100, "text")))
	allow := []uint32{130, 3000, 5555, 8999}
	f := roaring.BitmapOf(allow...)
	for _, q := range []reader.Query{
		reader.Term("text", "alpha"),
		reader.And(reader.Term("text", "alpha"), reader.Term("text", "alpha")),
		reader.Or(reader.Term("text", "alpha"), reader.Term("text", "w3")),
	} {
		var pf, pa reader.Profile
		got, err := s.Top(bg, q, 10, &reader.TopOptions{Filter: f, Profile: &pf})
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range got {
			if !slices.Contains(allow, h.Doc) {
				t.Fatalf("%s: hit %d outside the filter", q, h.Doc)
			}
		}
		if len(got) == 0 {
			t.Fatalf("%s: no hit", q)
		}
		// Every match scored: each block of the terms decoded.
		if _, err := s.Top(bg, q, int(s.DocCount()), &reader.TopOptions{Profile: &pa}); err != nil {
			t.Fatal(err)
		}
		// Each term's scorer (two in And and Or) decodes at most the block
		// of each allowed document.
		maxBlocks := int64(2 * len(allow))
		if pf.DocBlocksRead == 0 || pf.DocBlocksRead > maxBlocks {
			t.Errorf("%s: %d doc blocks decoded within the filter, want 1..%d", q, pf.DocBlocksRead, maxBlocks)
		}
		if pa.DocBlocksRead <= 4*maxBlocks {
			t.Errorf("%s: %d doc blocks in all (want many more than %d)", q, pa.DocBlocksRead, maxBlocks)
		}
		t.Logf("%s: filtered blocks %d docs %d; unfiltered blocks %d docs %d", q, pf.DocBlocksRead, pf.DocsDecoded, pa.DocBlocksRead, pa.DocsDecoded)
	}
}

// TestTopFilterAgentLogs: on the agent logs, the top 10 within a filter (a
// range of 1% of the documents, and every 97th document) are the first 10
// allowed documents of the full ranking, scores bit for bit; within the
// range, the search decodes a small part of the doc ids that ranking every
// match decodes.
func TestTopFilterAgentLogs(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the agent logs")
	}
	s := agentSegment(t, -1)
	n := s.DocCount()
	rng := roaring.New()
	rng.AddRange(uint64(n/2), uint64(n/2+n/100))
	every := roaring.New()
	for d := uint32(0); d < n; d += 97 {
		every.Add(d)
	}
	terms := func(text string) []string {
		ts, err := s.Analyze("content", text)
		if err != nil {
			t.Fatal(err)
		}
		return ts
	}
	for _, q := range []reader.Query{
		reader.Term("content", "error"),
		reader.Or(reader.Term("content", "error"), reader.Term("content", "traceback"), reader.Term("content", "warning")),
		reader.And(reader.Term("content", "import"), reader.Term("content", "numpy")),
		reader.Phrase("content", terms("no such file or directory")...),
		reader.AndNot(reader.Term("content", "test"), reader.Term("content", "passed")),
	} {
		var pa reader.Profile
		all, err := s.Top(bg, q, int(n), &reader.TopOptions{Profile: &pa})
		if err != nil {
			t.Fatal(err)
		}
		for fi, f := range []*roaring.Bitmap{rng, every} {
			var want []reader.Hit
			for _, h := range all {
				if f.Contains(h.Doc) && len(want) < 10 {
					want = append(want, h)
				}
			}
			var pf reader.Profile
			got, err := s.Top(bg, q, 10, &reader.TopOptions{Filter: f, Profile: &pf})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.EqualFunc(got, want, func(a, b reader.Hit) bool {
				return a.Doc == b.Doc && math.Float32bits(a.Score) == math.Float32bits(b.Score)
			}) {
				t.Fatalf("%s filter %d: %v, want %v", q, fi, got, want)
			}
			if fi == 0 && pf.DocsDecoded*5 > pa.DocsDecoded {
				t.Errorf("%s: %d doc ids decoded within 1%% of the documents, %d ranking every match", q, pf.DocsDecoded, pa.DocsDecoded)
			}
			t.Logf("%s filter %d: %d hits; doc ids decoded %d (blocks %d, windows %d), every match ranked: %d (blocks %d, windows %d)",
				q, fi, len(got), pf.DocsDecoded, pf.DocBlocksRead, pf.DocWindowsRead, pa.DocsDecoded, pa.DocBlocksRead, pa.DocWindowsRead)
		}
	}
}
