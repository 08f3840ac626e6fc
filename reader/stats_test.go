package reader_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/snii-go/snii"
	"github.com/snii-go/snii/internal/seam"
	"github.com/snii-go/snii/internal/testkit/oracle"
	"github.com/snii-go/snii/reader"
)

// TestStatsDocFreq: DocFreq is the number of documents the oracle finds
// holding the term, Info the field's documents, terms and tokens, and Stats of a query holds those of its scored terms and fields
// only (prefixes and excluded terms score nothing), counting a field the
// segment lacks as empty.
func TestStatsDocFreq(t *testing.T) {
	docs := oracle.Generate(51, oracle.GenOptions{Docs: 1500})
	c := corpusOf(docs)
	s := open(t, build(t, docs, options(-1, "host", "text")))
	g := oracle.NewGen(c, "text", 52)
	for range 30 {
		q := g.Term().(oracle.Term)
		df, err := s.DocFreq(bg, "text", q.Term)
		if err != nil || df != uint64(len(c.Eval(q))) {
			t.Fatalf("DocFreq(%q) = %d, %v, want %d", q.Term, df, err, len(c.Eval(q)))
		}
	}
	if df, err := s.DocFreq(bg, "text", "no-such-term"); df != 0 || err != nil {
		t.Fatalf("absent term: %d, %v", df, err)
	}
	if _, err := s.DocFreq(bg, "nope", "a"); !errors.Is(err, snii.ErrNotFound) {
		t.Fatalf("unknown field: %v", err)
	}
	fs, err := s.Info("text")
	if err != nil || fs.Name != "text" || fs.DocsWithField != uint64(c.DocsWithField("text")) || !fs.HasNorms {
		t.Fatalf("Info(text) = %+v, %v, want %d documents", fs, err, c.DocsWithField("text"))
	}
	var tokens, dfs uint64
	for _, ts := range c.Vocabulary("text") {
		tokens += uint64(ts.TTF)
		dfs += uint64(ts.DF)
	}
	if fs.SumTotalTermFreq != tokens || fs.SumDocFreq != dfs || fs.Terms != uint64(len(c.Vocabulary("text"))) {
		t.Fatalf("Info(text) = %+v; the oracle has %d tokens, %d dfs, %d terms", fs, tokens, dfs, len(c.Vocabulary("text")))
	}
	if m, err := seam.IndexMeta(s, "text"); err != nil || m.Analyzer != fs.Analyzer || m.SkippedTokens != fs.SkippedTokens {
		t.Fatalf("Info(text) = %+v, the field metadata %+v, %v", fs, m, err)
	}
	if _, err := s.Info("nope"); !errors.Is(err, snii.ErrNotFound) {
		t.Fatalf("unknown field: %v", err)
	}

	a, b, x := g.Term().(oracle.Term).Term, g.Term().(oracle.Term).Term, g.Term().(oracle.Term).Term
	q := reader.AndNot(reader.Or(reader.Term("text", a), reader.Phrase("text", b, a), reader.Prefix("host", "w", 0),
		reader.Term("nope", "z")), reader.Term("text", x))
	st, err := s.Stats(bg, q)
	if err != nil {
		t.Fatal(err)
	}
	for _, term := range []string{a, b} {
		if want, _ := s.DocFreq(bg, "text", term); st.DocFreq("text", term) != want {
			t.Errorf("Stats df(%q) = %d, want %d", term, st.DocFreq("text", term), want)
		}
	}
	if x != a && x != b && st.DocFreq("text", x) != 0 {
		t.Errorf("the excluded term has df %d in the stats", st.DocFreq("text", x))
	}
	if n, sum := st.Field("text"); n != fs.DocsWithField || sum != fs.SumTotalTermFreq {
		t.Errorf("Stats field text = %d, %d, want %+v", n, sum, fs)
	}
	if n, _ := st.Field("host"); n != 0 {
		t.Errorf("a prefix's field is in the stats (%d documents)", n)
	}
	// Sums: twice the segment is twice every count.
	var sum reader.Stats
	sum.Add(st)
	sum.Add(st)
	if n, tok := sum.Field("text"); n != 2*fs.DocsWithField || tok != 2*fs.SumTotalTermFreq || sum.DocFreq("text", a) != 2*st.DocFreq("text", a) {
		t.Errorf("sum of two: %d, %d, df %d", n, tok, sum.DocFreq("text", a))
	}
}

// TestSkipMissingFields: with SkipMissingFields a query part on a field the
// segment lacks matches nothing (an Or keeps its other clauses, an And
// matches nothing, an AndNot excludes nothing), in Docs, Count and Top;
// without it the field is an ErrNotFound error, and an invalid query stays
// invalid either way.
func TestSkipMissingFields(t *testing.T) {
	docs := oracle.Generate(53, oracle.GenOptions{Docs: 800})
	c := corpusOf(docs)
	s := open(t, build(t, docs, options(-1, "host", "text")))
	g := oracle.NewGen(c, "text", 54)
	skip := &reader.SearchOptions{SkipMissingFields: true}
	for range 20 {
		tq := g.Term()
		term := rq(tq)
		want := c.Eval(tq)
		nope := reader.Phrase("nope", "a", "b")
		for _, tc := range []struct {
			q    reader.Query
			want []uint32
		}{
			{reader.Or(term, nope), want},
			{reader.And(term, nope), []uint32{}},
			{reader.AndNot(term, reader.Prefix("nope", "a", 0)), want},
			{reader.AndNot(reader.Term("nope", "a"), term), []uint32{}},
		} {
			got, err := s.Docs(bg, tc.q, skip)
			if err != nil || !slices.Equal(got, tc.want) {
				t.Fatalf("%s: %d docs, %v, want %d", tc.q, len(got), err, len(tc.want))
			}
			n, err := s.Count(bg, tc.q, skip)
			if err != nil || n != uint64(len(tc.want)) {
				t.Fatalf("%s: count %d, %v", tc.q, n, err)
			}
			hits, err := s.Top(bg, tc.q, 5, &reader.TopOptions{SkipMissingFields: true})
			if err != nil || len(hits) != min(5, len(tc.want)) {
				t.Fatalf("%s: top %d hits, %v", tc.q, len(hits), err)
			}
			if _, err := s.Docs(bg, tc.q, nil); !errors.Is(err, snii.ErrNotFound) {
				t.Fatalf("%s without SkipMissingFields: %v", tc.q, err)
			}
		}
	}
	if _, err := s.Docs(bg, reader.Or(reader.Phrase("nope"), reader.Term("text", "a")), skip); !errors.Is(err, snii.ErrInvalidArgument) {
		t.Fatalf("a phrase without terms: %v", err)
	}
}
