package reader_test

import (
	"cmp"
	"context"
	"errors"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/snii-go/snii"
	"github.com/snii-go/snii/analysis"
	"github.com/snii-go/snii/internal/seam"
	"github.com/snii-go/snii/internal/testkit/oracle"
	"github.com/snii-go/snii/reader"
)

// topQueries returns the ranked query set: terms, 2-3-term disjunctions and
// conjunctions, phrases (repeated terms too) and the generator's boolean
// mixes (which include prefixes, scored 1).
func topQueries(c *oracle.Corpus, field string, seed uint64, n int) []oracle.Query {
	g := oracle.NewGen(c, field, seed)
	var qs []oracle.Query
	for i := 0; i < n; i++ {
		qs = append(qs, g.Term(), g.Phrase(), g.Repeated(), g.Bool(),
			oracle.Or{g.Term(), g.Term()}, oracle.Or{g.Term(), g.Term(), g.Term()},
			oracle.And{g.Term(), g.Term()}, oracle.Or{g.Phrase(), g.Term()},
			oracle.AndNot{Include: oracle.Or{g.Term(), g.Term()}, Exclude: g.Term()})
	}
	return qs
}

// checkTop compares Top with the oracle's brute-force BM25: the same number
// of hits, scores within 1e-5 relative rank by rank, and the same documents
// except where two scores are that close (the oracle computes in float64).
func checkTop(t *testing.T, s *reader.Segment, c *oracle.Corpus, qs []oracle.Query, ks []int, p reader.BM25, o oracle.BM25Options) (hits int) {
	t.Helper()
	o.K1, o.B = float64(p.K1), float64(p.B)
	for i, q := range qs {
		k := ks[i%len(ks)]
		ranked := c.TopBM25(q, math.MaxInt32, o)
		want := ranked[:min(k, len(ranked))]
		got, err := s.Top(bg, rq(q), k, &reader.TopOptions{BM25: &p})
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if len(got) != len(want) {
			t.Fatalf("%s top %d: %d hits, want %d", q, k, len(got), len(want))
		}
		all := map[uint32]float64{}
		for _, w := range ranked {
			all[w.Doc] = w.Score
		}
		for r := range got {
			g, w := got[r], want[r]
			if !near(float64(g.Score), w.Score) {
				t.Fatalf("%s top %d: rank %d: doc %d score %v, want doc %d score %v", q, k, r, g.Doc, g.Score, w.Doc, w.Score)
			}
			if g.Doc != w.Doc {
				if os, ok := all[g.Doc]; !ok || !near(os, w.Score) {
					t.Fatalf("%s top %d: rank %d: doc %d (oracle score %v), want doc %d score %v", q, k, r, g.Doc, os, w.Doc, w.Score)
				}
			}
			if r > 0 && (got[r-1].Score < g.Score || got[r-1].Score == g.Score && got[r-1].Doc > g.Doc) {
				t.Fatalf("%s: hits out of order at rank %d: %+v then %+v", q, r, got[r-1], g)
			}
		}
		if len(got) > 0 {
			hits++
		}
	}
	return hits
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-5*math.Max(math.Abs(a), math.Abs(b)) }

// TestTopOracle: Top agrees with the brute-force BM25 of the oracle on
// generated corpora, for several k and BM25 parameters, and with a
// whitespace text field next to a keyword field (no norms).
func TestTopOracle(t *testing.T) {
	n := 40
	if raceEnabled {
		n = 8
	}
	docs := oracle.Generate(31, oracle.GenOptions{Docs: 3000})
	c := corpusOf(docs)
	s := open(t, build(t, docs, options(-1, "host", "text")))
	qs := topQueries(c, "text", 7, n)
	ks := []int{10, 1, 3, 50, 1000}
	for _, p := range []reader.BM25{reader.BM25{K1: 1.2, B: 0.75}, {K1: 2, B: 0.3}, {K1: 0.5, B: 1}, {K1: 1.2, B: 0}} {
		if hits := checkTop(t, s, c, qs, ks, p, oracle.BM25Options{}); hits < len(qs)/2 {
			t.Errorf("only %d of %d queries hit: the test is too weak", hits, len(qs))
		}
	}
	checkTop(t, s, c, topQueries(c, "host", 8, n/4), ks, reader.BM25{K1: 1.2, B: 0.75}, oracle.BM25Options{})

	// Keyword host (no norms), whitespace text, and a text field without norms.
	kc := oracle.New()
	kc.SetAnalyzer("text", analysis.Whitespace)
	kc.SetAnalyzer("host", analysis.Keyword)
	for _, d := range docs {
		kc.Add(d)
	}
	wo := options(-1, "host", "text")
	for i := range wo.Fields {
		wo.Fields[i].Analyzer = map[string]string{"text": analysis.Whitespace, "host": analysis.Keyword}[wo.Fields[i].Name]
	}
	ks2 := open(t, build(t, docs, wo))
	checkTop(t, ks2, kc, topQueries(kc, "text", 9, n/2), ks, reader.BM25{K1: 1.2, B: 0.75}, oracle.BM25Options{})
	checkTop(t, ks2, kc, topQueries(kc, "host", 10, n/4), ks, reader.BM25{K1: 1.2, B: 0.75}, oracle.BM25Options{})
	nn := options(-1, "host", "text")
	nn.Fields[1].NoNorms = true
	nns := open(t, build(t, docs, nn))
	checkTop(t, nns, c, topQueries(c, "text", 11, n/2), ks, reader.BM25{K1: 1.2, B: 0.75}, oracle.BM25Options{NoNorms: map[string]bool{"text": true}})
}

// TestTopMaxScoreSkips: a disjunction of a rare and a very common term, and
// the common term alone, score far fewer documents than match when k is
// small, and give the oracle's top k.
func TestTopMaxScoreSkips(t *testing.T) {
	var docs []oracle.Doc
	for i := range 5000 {
		text := "common filler words here" // every document has 5 tokens
		if i%3 == 0 {
			text = "common filler common here"
		}
		if i%50 == 7 {
			text = "common filler words rare"
		}
		text += " x"
		docs = append(docs, oracle.Doc{{Name: "text", Values: []string{text}}})
	}
	c := corpusOf(docs)
	s := open(t, build(t, docs, options(-1, "text")))
	q := oracle.Or{oracle.Term{Field: "text", Term: "rare"}, oracle.Term{Field: "text", Term: "common"}}
	checkTop(t, s, c, []oracle.Query{q}, []int{5}, reader.BM25{K1: 1.2, B: 0.75}, oracle.BM25Options{})
	hits, scored, err := reader.TopScored(s, bg, rq(q), 5, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 5 || scored > 500 {
		t.Errorf("%d hits, %d documents scored of 5000 matching: MaxScore did not skip", len(hits), scored)
	}
	// A single term skips the windows whose impact bounds (max tf, min norm)
	// cannot beat the 5th score: every window's best is a tf-2 document of
	// the same length, so once five are in, the rest go unscored.
	tq := oracle.Term{Field: "text", Term: "common"}
	checkTop(t, s, c, []oracle.Query{tq, oracle.Term{Field: "text", Term: "rare"}}, []int{5}, reader.BM25{K1: 1.2, B: 0.75}, oracle.BM25Options{})
	_, scored, err = reader.TopScored(s, bg, rq(tq), 5, nil)
	if err != nil || scored > 300 {
		t.Errorf("term: %d of 5000 scored, %v; want the first window's at most", scored, err)
	}
	_, scored, err = reader.TopScored(s, bg, reader.Term("text", "rare"), 5, nil)
	if err != nil || scored != 5 { // its bound is every document's score: the first 5 end it
		t.Errorf("rare term (one window): %d scored, %v; want 5", scored, err)
	}
}

func TestTopExplain(t *testing.T) {
	docs := []oracle.Doc{
		{{Name: "text", Values: []string{"connection reset by peer"}}},
		{{Name: "text", Values: []string{"connection refused connection reset"}}},
		{{Name: "text", Values: []string{"all good"}}},
	}
	s := open(t, build(t, docs, options(-1, "text")))
	q := reader.Or(reader.Term("text", "reset"), reader.Phrase("text", "connection", "reset"))
	var prof reader.Profile
	hits, err := s.Top(bg, q, 10, &reader.TopOptions{Explain: true, Profile: &prof})
	if err != nil {
		t.Fatal(err)
	}
	if prof.DictBlocksRead == 0 {
		t.Errorf("profile %+v", prof)
	}
	if len(hits) != 2 {
		t.Fatalf("hits %+v", hits)
	}
	for _, h := range hits {
		e := h.Explanation
		if e == nil || e.Score != h.Score || len(e.Children) != 2 {
			t.Fatalf("doc %d: explanation %+v", h.Doc, e)
		}
		var sum float64
		for _, k := range e.Children {
			sum += float64(k.Score)
			if k.IDF <= 0 || k.Freq != 1 || k.DocCount != 3 || k.K1 != 1.2 || k.B != 0.75 {
				t.Errorf("doc %d: %+v", h.Doc, k)
			}
		}
		if float32(sum) != e.Score {
			t.Errorf("doc %d: children add up to %v, score %v", h.Doc, sum, e.Score)
		}
		if want := []uint32{4, 4}[h.Doc]; e.Children[0].FieldLength != want {
			t.Errorf("doc %d: field length %d, want %d", h.Doc, e.Children[0].FieldLength, want)
		}
	}
	if e := hits[0].Explanation.Children[0]; e.DocFreq != 2 || e.AvgFieldLength != float32(10)/3 {
		t.Errorf("term explanation %+v", e)
	}
}

func TestTopErrors(t *testing.T) {
	docs := oracle.Generate(3, oracle.GenOptions{Docs: 50})
	s := open(t, build(t, docs, options(-1, "host", "text")))
	for _, tc := range []struct {
		q    reader.Query
		k    int
		o    *reader.TopOptions
		kind error
	}{
		{nil, 10, nil, snii.ErrInvalidArgument},
		{reader.Term("text", "a"), 0, nil, snii.ErrInvalidArgument},
		{reader.Term("nope", "a"), 10, nil, snii.ErrNotFound},
		{reader.Term("text", "a"), 10, &reader.TopOptions{BM25: &reader.BM25{K1: -1, B: 0.5}}, snii.ErrInvalidArgument},
		{reader.Term("text", "a"), 10, &reader.TopOptions{BM25: &reader.BM25{K1: 1, B: 2}}, snii.ErrInvalidArgument},
		{reader.Phrase("text"), 10, nil, snii.ErrInvalidArgument},
		{reader.Or(reader.Term("text", "a"), nil), 10, nil, snii.ErrInvalidArgument},
	} {
		if _, err := s.Top(bg, tc.q, tc.k, tc.o); !errors.Is(err, tc.kind) {
			t.Errorf("%v k=%d: err = %v, want %v", tc.q, tc.k, err, tc.kind)
		}
	}
	ctx, cancel := context.WithCancel(bg)
	cancel()
	if _, err := s.Top(ctx, reader.Prefix("text", "", 0), 1, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled: %v", err)
	}
	s.Close()
	if _, err := s.Top(bg, reader.Term("text", "a"), 1, nil); !errors.Is(err, snii.ErrClosed) {
		t.Errorf("after Close: %v", err)
	}
}

// TestNormsCorrupt: a damaged norms byte is a corruption error naming the
// norms, from FieldLengths, Top and Verify, while unranked queries (which do
// not read norms) still answer.
func TestNormsCorrupt(t *testing.T) {
	docs := oracle.Generate(41, oracle.GenOptions{Docs: 300})
	path := build(t, docs, options(-1, "host", "text"))
	s := open(t, path)
	info, err := seam.IndexMeta(s, "text")
	if err != nil || !info.HasNorms {
		t.Fatalf("text: norms %v, %v", info.HasNorms, err)
	}
	norms, err := s.FieldLengths(bg, "text")
	if err != nil || len(norms) != 300 {
		t.Fatalf("FieldLengths: %d bytes, %v", len(norms), err)
	}
	c := corpusOf(docs)
	for d := range uint32(300) {
		l := 0
		for _, w := range c.Sequence(d, "text") {
			if w != "" {
				l++
			}
		}
		if got := reader.FieldLength(norms[d]); int(got) != oracle.QuantizeLength(l) {
			t.Fatalf("doc %d: field length %d, want %d (of %d)", d, got, oracle.QuantizeLength(l), l)
		}
	}
	s.Close()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b[info.NormsOff+17] ^= 0x40
	s, err = openBytes(b)
	if err != nil {
		t.Fatalf("open: %v (norms are not read at Open)", err)
	}
	defer s.Close()
	if _, err := s.FieldLengths(bg, "text"); !errors.Is(err, snii.ErrCorrupt) || !strings.Contains(err.Error(), "norms") {
		t.Errorf("FieldLengths: %v", err)
	}
	if _, err := s.Top(bg, reader.Term("text", c.Vocabulary("text")[0].Term), 3, nil); !errors.Is(err, snii.ErrCorrupt) {
		t.Errorf("Top: %v", err)
	}
	if err := s.Verify(bg); !errors.Is(err, snii.ErrCorrupt) {
		t.Errorf("Verify: %v", err)
	}
	if _, err := s.Docs(bg, reader.Term("text", c.Vocabulary("text")[0].Term), nil); err != nil {
		t.Errorf("Docs: %v", err)
	}
	if norms, err := s.FieldLengths(bg, "host"); err != nil || len(norms) != 300 {
		t.Errorf("host: %d norms, %v", len(norms), err)
	}
}

// sumStats is the collection statistics of several segments (the hook a
// multi-segment searcher uses).
type sumStats []*reader.Segment

func (ss sumStats) Field(field string) (docCount, sumTTF uint64) {
	for _, s := range ss {
		if m, err := seam.IndexMeta(s, field); err == nil {
			docCount += m.DocsWithField
			sumTTF += m.SumTTF
		}
	}
	return docCount, sumTTF
}

func (ss sumStats) DocFreq(field, term string) uint64 {
	var df uint64
	for _, s := range ss {
		terms, _ := s.Terms(bg, field, term, 1)
		for t, d := range terms {
			if t == term {
				df += d
			}
		}
	}
	return df
}

// hasExpansions reports whether q holds a prefix (a prefix's max expansions
// apply per segment, so a split segment expands to other terms).
func hasExpansions(q oracle.Query) bool {
	switch q := q.(type) {
	case oracle.Prefix, oracle.PhrasePrefix:
		return true
	case oracle.And:
		return slices.ContainsFunc(q, hasExpansions)
	case oracle.Or:
		return slices.ContainsFunc(q, hasExpansions)
	case oracle.AndNot:
		return hasExpansions(q.Include) || hasExpansions(q.Exclude)
	}
	return false
}

// TestTopCollectionStats: two segments scored with their summed statistics
// and merged by score (ties by global doc id) give exactly the top k of one
// segment holding all the documents, scores included (with per-segment
// statistics they do not).
func TestTopCollectionStats(t *testing.T) {
	docs := oracle.Generate(61, oracle.GenOptions{Docs: 2000})
	c := corpusOf(docs)
	whole := open(t, build(t, docs, options(-1, "host", "text")))
	cut := 777
	a := open(t, build(t, docs[:cut], options(-1, "host", "text")))
	b := open(t, build(t, docs[cut:], options(-1, "host", "text")))
	merged := func(r reader.Query, o *reader.TopOptions) []reader.Hit {
		ha, err1 := a.Top(bg, r, 10, o)
		hb, err2 := b.Top(bg, r, 10, o)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		for i := range hb {
			hb[i].Doc += uint32(cut)
		}
		got := append(ha, hb...)
		slices.SortStableFunc(got, func(x, y reader.Hit) int {
			if x.Score != y.Score {
				return cmp.Compare(y.Score, x.Score)
			}
			return cmp.Compare(x.Doc, y.Doc)
		})
		return got[:min(10, len(got))]
	}
	st := &reader.TopOptions{Stats: sumStats{a, b}}
	differ := 0
	for _, q := range topQueries(c, "text", 5, 10) {
		if hasExpansions(q) {
			continue // max expansions pick each segment's first terms: not the whole's
		}
		r := rq(q)
		want, err := whole.Top(bg, r, 10, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := merged(r, st); !slices.EqualFunc(got, want, sameHit) {
			t.Fatalf("%s: merged per-segment top 10\n%v\nwant\n%v", q, got, want)
		}
		if !slices.EqualFunc(merged(r, nil), want, sameHit) {
			differ++
		}
	}
	if differ == 0 {
		t.Error("per-segment statistics give the same hits: the test proves nothing")
	}
}

// sameHit compares two hits' documents and scores.
func sameHit(a, b reader.Hit) bool { return a.Doc == b.Doc && a.Score == b.Score }
