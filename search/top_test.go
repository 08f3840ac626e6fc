package search_test

import (
	"context"
	"errors"
	"math"
	"path/filepath"
	"slices"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/google/go-cmp/cmp"
	"github.com/snii-go/snii"
	"github.com/snii-go/snii/internal/testkit"
	"github.com/snii-go/snii/internal/testkit/oracle"
	"github.com/snii-go/snii/internal/testkit/segtest"
	"github.com/snii-go/snii/reader"
	"github.com/snii-go/snii/search"
	"github.com/snii-go/snii/writer"
	"github.com/snii-go/snii/writer/merge"
)

// sixAndMerged builds one segment per chunk of docs (each chunk with its own
// options) and the segment merged from them, and opens them all.
func sixAndMerged(t testing.TB, chunks [][]writer.Document, opts []writer.Options) ([]*reader.Segment, *reader.Segment) {
	t.Helper()
	dir := t.TempDir()
	var srcs []merge.Source
	for i, docs := range chunks {
		p := filepath.Join(dir, "seg"+string(rune('a'+i))+".snii")
		segtest.Build(t, p, opts[i], docs)
		srcs = append(srcs, merge.Source{Path: p})
	}
	mp := filepath.Join(dir, "merged.snii")
	if _, err := merge.Merge(context.Background(), mp, srcs, merge.Options{}); err != nil {
		t.Fatal(err)
	}
	var segs []*reader.Segment
	for _, src := range srcs {
		segs = append(segs, openPath(t, src.Path))
	}
	return segs, openPath(t, mp)
}

func openPath(t testing.TB, p string) *reader.Segment {
	t.Helper()
	s, err := reader.Open(p, reader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// sameTop checks that the searcher's Top equals the merged segment's: the
// same ids, the same float32 scores bit for bit and the same explanations,
// with and without a filter (global ids for the searcher, the merged
// segment's own for it: the same numbers). It returns the hits found.
func sameTop(t *testing.T, sr *search.Searcher, merged *reader.Segment, q reader.Query, k int, p *reader.BM25, filter *roaring.Bitmap) int {
	t.Helper()
	mo := &reader.TopOptions{BM25: p, Explain: true, Filter: filter}
	so := &search.TopOptions{BM25: p, Explain: true}
	if filter != nil {
		so.Filter = roaring64.New()
		so.Filter.AddMany(toU64(filter.ToArray()))
	}
	want, err := merged.Top(t.Context(), q, k, mo)
	if err != nil {
		t.Fatalf("merged %s: %v", q, err)
	}
	got, err := sr.Top(t.Context(), q, k, so)
	if err != nil {
		t.Fatalf("searcher %s: %v", q, err)
	}
	if len(got) != len(want) {
		t.Fatalf("%s top %d: %d hits over the segments, %d merged", q, k, len(got), len(want))
	}
	for r := range got {
		g, w := got[r], want[r]
		if g.Doc != uint64(w.Doc) || math.Float32bits(g.Score) != math.Float32bits(w.Score) {
			t.Fatalf("%s top %d: rank %d: doc %d score %v over the segments, doc %d score %v merged", q, k, r, g.Doc, g.Score, w.Doc, w.Score)
		}
		if d := cmp.Diff(w.Explanation, g.Explanation); d != "" {
			t.Fatalf("%s: rank %d: explanations differ (-merged +segments):\n%s", q, r, d)
		}
	}
	return len(got)
}

// chunksWithoutHost splits docs into chunks of the given sizes, chunk noHost
// without its host fields (and built without a host index), and returns the
// oracle of all of them, in order.
func chunksWithoutHost(docs []oracle.Doc, sizes []int, noHost int) (*oracle.Corpus, [][]writer.Document, []writer.Options) {
	c := oracle.New()
	var chunks [][]writer.Document
	var opts []writer.Options
	for i, n := range sizes {
		var ch []writer.Document
		for _, d := range docs[:n] {
			if i == noHost {
				d = slices.DeleteFunc(slices.Clone(d), func(f oracle.Field) bool { return f.Name == "host" })
			}
			c.Add(d)
			ch = append(ch, segtest.Document(d))
		}
		docs = docs[n:]
		chunks = append(chunks, ch)
		o := writer.DefaultOptions("host", "text")
		if i == noHost {
			o = writer.DefaultOptions("text")
		}
		opts = append(opts, o)
	}
	return c, chunks, opts
}

func toU64(a []uint32) []uint64 {
	out := make([]uint64, len(a))
	for i, v := range a {
		out[i] = uint64(v)
	}
	return out
}

// topQueries returns ranked queries of the field: terms, disjunctions,
// conjunctions, exact and sloppy phrases, boolean mixes and negations.
func topQueries(c *oracle.Corpus, field string, seed uint64, n int) []reader.Query {
	g := oracle.NewGen(c, field, seed)
	var qs []reader.Query
	for range n {
		for _, q := range []oracle.Query{g.Term(), g.Phrase(), g.Repeated(), g.Sloppy(), g.Bool(),
			oracle.Or{g.Term(), g.Term()}, oracle.Or{g.Term(), g.Term(), g.Term()},
			oracle.And{g.Term(), g.Term()}, oracle.Or{g.Phrase(), g.Sloppy(), g.Term()},
			oracle.And{g.Sloppy(), g.Term()},
			oracle.AndNot{Include: oracle.Or{g.Term(), g.Term()}, Exclude: g.Term()}} {
			qs = append(qs, segtest.Query(unlimited(q)))
		}
	}
	return qs
}

// TestTopEqualsMerged is issue 36's gate on generated logs: a ranked search
// over 6 segments (one of them without the host field, one of one document)
// returns the ids, scores and explanations of the same search on their
// merge, for every query kind, several k and BM25 parameters, within filters.
func TestTopEqualsMerged(t *testing.T) {
	docs := oracle.Generate(93, oracle.GenOptions{Docs: 6000})
	noHost := 3 // this segment's documents have no host field
	c, chunks, opts := chunksWithoutHost(docs, []int{1500, 1, 2300, 700, 1, 1498}, noHost)
	segs, merged := sixAndMerged(t, chunks, opts)
	if slices.Contains(segs[noHost].Fields(), "host") {
		t.Fatal("the segment without hosts has a host field")
	}
	sr, err := search.New(segs, search.Options{})
	if err != nil {
		t.Fatal(err)
	}
	n := 6
	if raceEnabled {
		n = 2
	}
	qs := topQueries(c, "text", 3, n)
	hg := oracle.NewGen(c, "host", 4)
	tg := oracle.NewGen(c, "text", 5)
	for range n {
		qs = append(qs, segtest.Query(hg.Term()),
			segtest.Query(oracle.Or{hg.Term(), tg.Term()}),
			segtest.Query(oracle.And{hg.Term(), tg.Term()}),
			segtest.Query(oracle.AndNot{Include: tg.Term(), Exclude: hg.Term()}))
	}
	filters := []*roaring.Bitmap{nil, roaring.New()}
	for _, f := range [][2]uint64{{0, 40}, {1400, 1600}, {3000, 6000}} {
		bm := roaring.New()
		bm.AddRange(f[0], f[1])
		filters = append(filters, bm)
	}
	sparse := roaring.New()
	for d := uint32(0); d < 6000; d += 37 {
		sparse.Add(d)
	}
	filters = append(filters, sparse)
	params := []*reader.BM25{nil, {K1: 2, B: 0.3}, {K1: 0.5, B: 1}}
	ks := []int{10, 1, 100, 3}
	hits := 0
	for i, q := range qs {
		hits += sameTop(t, sr, merged, q, ks[i%len(ks)], params[i%len(params)], filters[i%len(filters)])
	}
	if hits < len(qs) {
		t.Fatalf("%d hits for %d queries: too few to compare", hits, len(qs))
	}
}

// TestTopEqualsMergedAgentLogs is the same gate on the agent logs (6
// segments of the file, in order), when the corpus is present.
func TestTopEqualsMergedAgentLogs(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 7 segments of the agent logs")
	}
	path := testkit.CorpusPath(t, testkit.AgentLogs)
	var all []writer.Document
	testkit.EachLine(t, []string{path}, func(line []byte) {
		s, err := testkit.AgentContent(line)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, writer.Doc("content", s))
	})
	var chunks [][]writer.Document
	var opts []writer.Options
	for i := range 6 {
		chunks = append(chunks, all[i*len(all)/6:(i+1)*len(all)/6])
		opts = append(opts, writer.DefaultOptions("content"))
	}
	segs, merged := sixAndMerged(t, chunks, opts)
	sr, err := search.New(segs, search.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ph := func(s string) reader.Query {
		terms, err := merged.Analyze("content", s)
		if err != nil {
			t.Fatal(err)
		}
		return reader.Phrase("content", terms...)
	}
	qs := []reader.Query{
		reader.Term("content", "traceback"), reader.Term("content", "error"),
		reader.Or(reader.Term("content", "timeout"), reader.Term("content", "refused"), reader.Term("content", "denied")),
		reader.And(reader.Term("content", "assert"), reader.Term("content", "none")),
		ph("no such file or directory"), ph("traceback most recent call last"), ph("import numpy as np"),
		reader.SloppyPhrase("content", 2, "file", "found"),
		reader.Or(ph("timed out"), reader.Term("content", "retry")),
		reader.AndNot(reader.Term("content", "test"), reader.Term("content", "passed")),
	}
	filter := roaring.New()
	filter.AddRange(uint64(len(all)/4), uint64(len(all)/2))
	hits := 0
	for _, q := range qs {
		for _, k := range []int{10, 100} {
			hits += sameTop(t, sr, merged, q, k, nil, nil)
		}
		hits += sameTop(t, sr, merged, q, 10, nil, filter)
	}
	t.Logf("%d documents, %d hits compared", len(all), hits)
	if hits < 2*len(qs) {
		t.Fatalf("%d hits for %d queries: too few to compare", hits, len(qs))
	}
}

// TestTopConjunctionOrder: an And walks its clauses rarest first, and which
// is rarer differs between the segments and their merge; the explanations
// list the clauses in the query's order all the same.
func TestTopConjunctionOrder(t *testing.T) {
	docs := func(n int, text string) []writer.Document {
		out := make([]writer.Document, n)
		for i := range out {
			out[i] = writer.Doc("text", text)
		}
		return out
	}
	chunks := [][]writer.Document{
		append(docs(10, "alpha beta"), docs(20, "alpha")...),      // beta rarer
		append(docs(10, "alpha beta gamma"), docs(30, "beta")...), // alpha rarer
	}
	o := writer.DefaultOptions("text")
	segs, merged := sixAndMerged(t, chunks, []writer.Options{o, o})
	sr, err := search.New(segs, search.Options{})
	if err != nil {
		t.Fatal(err)
	}
	q := reader.And(reader.Term("text", "alpha"), reader.Term("text", "beta"))
	if n := sameTop(t, sr, merged, q, 20, nil, nil); n != 20 {
		t.Fatalf("%d hits, want 20", n)
	}
	// The profile sums the segments': each decodes both terms' doc ids.
	var prof reader.Profile
	if _, err := sr.Top(t.Context(), q, 20, &search.TopOptions{Profile: &prof}); err != nil {
		t.Fatal(err)
	}
	if want := int64(30 + 10 + 10 + 40); prof.DocsDecoded != want {
		t.Errorf("profile: %d doc ids decoded, want %d", prof.DocsDecoded, want)
	}
}

// TestSearcherFilterLimit: Docs, AppendDocs, Bitmap and Count within a
// global filter and up to a limit give the oracle's answer cut the same way,
// over segments one of which lacks the host field (its documents then match
// no host query: no error, no partial count).
func TestSearcherFilterLimit(t *testing.T) {
	docs := oracle.Generate(94, oracle.GenOptions{Docs: 3000})
	c, chunks, opts := chunksWithoutHost(docs, []int{900, 1, 800, 1299}, 2)
	segs, _ := sixAndMerged(t, chunks, opts)
	sr, err := search.New(segs, search.Options{Parallel: 2})
	if err != nil {
		t.Fatal(err)
	}
	tg, hg := oracle.NewGen(c, "text", 6), oracle.NewGen(c, "host", 7)
	var qs []oracle.Query
	for range 10 {
		qs = append(qs, tg.Term(), tg.Phrase(), unlimited(tg.Bool()), hg.Term(), oracle.Or{hg.Term(), tg.Term()},
			oracle.And{hg.Term(), tg.Term()}, oracle.AndNot{Include: tg.Term(), Exclude: hg.Term()})
	}
	f := roaring64.New()
	f.AddRange(850, 2000) // across segments 0..2
	f.Add(5000)           // past the documents
	filters := []*roaring64.Bitmap{nil, f, roaring64.New(), roaring64.BitmapOf(900)}
	limits := []int{0, 1, 7, 100000}
	hits := 0
	for i, q := range qs {
		for fi, fl := range filters {
			lim := limits[(i+fi)%len(limits)]
			var want []uint64
			for _, d := range c.Eval(q) {
				if (fl == nil || fl.Contains(uint64(d))) && (lim == 0 || len(want) < lim) {
					want = append(want, uint64(d))
				}
			}
			o := &search.SearchOptions{Filter: fl, Limit: lim}
			got, err := sr.Docs(t.Context(), segtest.Query(q), o)
			if err != nil {
				t.Fatalf("%s: %v", q, err)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("%s filter %d limit %d: %v, want %v", q, fi, lim, got, want)
			}
			dst := []uint64{42}
			app, err := sr.AppendDocs(t.Context(), segtest.Query(q), o, dst)
			if err != nil || app[0] != 42 || !slices.Equal(app[1:], want) {
				t.Fatalf("%s: AppendDocs %v, %v", q, app, err)
			}
			n, err := sr.Count(t.Context(), segtest.Query(q), o)
			if err != nil || n != uint64(len(want)) {
				t.Fatalf("%s filter %d limit %d: count %d, %v, want %d", q, fi, lim, n, err, len(want))
			}
			bm, err := sr.Bitmap(t.Context(), segtest.Query(q), o)
			if err != nil || !slices.Equal(bm.ToArray(), want) {
				t.Fatalf("%s: bitmap %v", q, err)
			}
			hits += len(want)
		}
	}
	if hits == 0 {
		t.Fatal("no query matched")
	}
	if _, err := sr.Docs(t.Context(), reader.Term("text", "a"), &search.SearchOptions{Limit: -1}); !errors.Is(err, snii.ErrInvalidArgument) {
		t.Errorf("negative limit: %v", err)
	}
	if _, err := sr.Top(t.Context(), reader.Term("text", "a"), 0, nil); !errors.Is(err, snii.ErrInvalidArgument) {
		t.Errorf("top 0: %v", err)
	}
	// A field no segment has matches nothing, as in Lucene.
	if n, err := sr.Count(t.Context(), reader.Term("nope", "a"), nil); n != 0 || err != nil {
		t.Errorf("a field of no segment: %d, %v", n, err)
	}
}
