package reader_test

import (
	"slices"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/snii-go/snii"
	"github.com/snii-go/snii/internal/testkit/oracle"
	"github.com/snii-go/snii/reader"
)

// sloppyQueries draws n sloppy phrases and n AndNot queries with the oracle's
// answers.
func sloppyQueries(c *oracle.Corpus, field string, seed uint64, n int) *querySet {
	g := oracle.NewGen(c, field, seed)
	qs := &querySet{}
	for i := 0; i < n; i++ {
		qs.kinds = append(qs.kinds, "sloppy", "not")
		qs.qs = append(qs.qs, g.Sloppy(), g.Not())
	}
	qs.want = make([][]uint32, len(qs.qs))
	parallel(len(qs.qs), func(i int) { qs.want[i] = c.Eval(qs.qs[i]) })
	return qs
}

// TestOracleSloppyNot compares sloppy phrases (slop 0–3, reordered and
// repeated terms) and AndNot queries with the oracle, which places the terms
// by exhaustive search; the small-vocabulary corpus repeats words often.
func TestOracleSloppyNot(t *testing.T) {
	corpora := []struct {
		name string
		opts oracle.GenOptions
		n    int
	}{
		{"mixed", oracle.GenOptions{Docs: 3000}, 300},
		{"small-vocab", oracle.GenOptions{Docs: 2000, Vocab: 12, Zipf: 1.3, MaxTokens: 25}, 300},
	}
	for ci, cc := range corpora {
		if raceEnabled {
			cc.n /= 5
		}
		t.Run(cc.name, func(t *testing.T) {
			docs := oracle.Generate(uint64(41+ci), cc.opts)
			c := corpusOf(docs)
			qs := sloppyQueries(c, "text", uint64(300+ci), cc.n)
			s := open(t, build(t, docs, options(-1, "host", "text")))
			hits := checkQueries(t, s, qs, cc.name)
			for _, k := range []string{"sloppy", "not"} {
				if hits[k] < cc.n/4 {
					t.Errorf("only %d of %d %s queries hit: the test is too weak", hits[k], cc.n, k)
				}
			}
			// Each slop must add hits over the one below it on some queries,
			// or the slop is not exercised.
			grew := 0
			for _, q := range qs.qs {
				sp, ok := q.(oracle.SloppyPhrase)
				if !ok || sp.Slop == 0 {
					continue
				}
				lower := sp
				lower.Slop--
				if len(c.Eval(lower)) < len(c.Eval(sp)) {
					grew++
				}
			}
			if grew < cc.n/20 {
				t.Errorf("a larger slop added hits in only %d queries", grew)
			}
		})
	}
}

func TestSloppyPhraseCases(t *testing.T) {
	docs := []oracle.Doc{
		{{Name: "text", Values: []string{"a b"}}},       // 0
		{{Name: "text", Values: []string{"b a"}}},       // 1
		{{Name: "text", Values: []string{"a x b"}}},     // 2
		{{Name: "text", Values: []string{"a x x b"}}},   // 3
		{{Name: "text", Values: []string{"b x a"}}},     // 4
		{{Name: "text", Values: []string{"a a"}}},       // 5
		{{Name: "text", Values: []string{"a"}}},         // 6
		{{Name: "text", Values: []string{"c b a"}}},     // 7
		{{Name: "text", Values: []string{"a b", "c"}}},  // 8: values are ValueGap apart
		{{Name: "text", Values: []string{"a", "b"}}},    // 9
		{{Name: "text", Values: []string{"x a y a z"}}}, // 10
	}
	s := open(t, build(t, docs, options(-1, "text")))
	cases := []struct {
		slop  int
		terms []string
		want  []uint32
	}{
		{0, []string{"a", "b"}, []uint32{0, 8}},
		{1, []string{"a", "b"}, []uint32{0, 2, 8}},
		{2, []string{"a", "b"}, []uint32{0, 1, 2, 3, 7, 8}}, // 7: "b a" inside "c b a"
		{3, []string{"a", "b"}, []uint32{0, 1, 2, 3, 4, 7, 8}},
		{0, []string{"a", "a"}, []uint32{5}},
		{1, []string{"a", "a"}, []uint32{5, 10}}, // one occurrence cannot fill both
		{4, []string{"a", "b", "c"}, []uint32{7}},
		{3, []string{"a", "b", "c"}, nil},
		{1, []string{"a"}, []uint32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}},
	}
	for _, c := range cases {
		got, err := s.Docs(bg, reader.SloppyPhrase("text", c.slop, c.terms...), nil)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, c.want) && !(len(got) == 0 && len(c.want) == 0) {
			t.Errorf("%q~%d: %v, want %v", c.terms, c.slop, got, c.want)
		}
	}
	if _, err := s.Docs(bg, reader.SloppyPhrase("text", -1, "a", "b"), nil); !isKind(err, snii.ErrInvalidArgument) {
		t.Errorf("negative slop: %v", err)
	}
	if got := reader.SloppyPhrase("text", 2, "a", "b").String(); got != `phrase(text:"a b"~2)` {
		t.Errorf("String %s", got)
	}
	if _, err := s.Docs(bg, reader.AndNot(reader.Term("text", "a"), nil), nil); !isKind(err, snii.ErrInvalidArgument) {
		t.Errorf("nil exclude: %v", err)
	}
}

// TestFilterLimit checks SearchOptions.Filter and Limit against the oracle's
// answer intersected with the filter and cut to the limit, for Docs, Bitmap
// and Count.
func TestFilterLimit(t *testing.T) {
	docs := oracle.Generate(77, oracle.GenOptions{Docs: 2500})
	c := corpusOf(docs)
	g := oracle.NewGen(c, "text", 5)
	s := open(t, build(t, docs, options(-1, "host", "text")))
	filters := []*roaring.Bitmap{roaring.New(), roaring.BitmapOf(0, 1, 2, 3, 1000, 2499, 2500, 1<<30)}
	odd := roaring.New()
	span := roaring.New()
	for d := uint32(0); d < 2500; d++ {
		if d%2 == 1 {
			odd.Add(d)
		}
	}
	span.AddRange(700, 1900)
	full, wide, beyond := roaring.New(), roaring.New(), roaring.New()
	full.AddRange(0, 2500)
	wide.AddRange(0, 1<<20)
	beyond.AddRange(2500, 3000)
	filters = append(filters, odd, span, full, wide, beyond, nil)
	n := 40
	if raceEnabled {
		n = 8
	}
	for i := 0; i < n; i++ {
		var q oracle.Query
		switch i % 4 {
		case 0:
			q = g.Bool()
		case 1:
			q = g.Sloppy()
		case 2:
			q = g.Not()
		default:
			q = g.Phrase()
		}
		all := c.Eval(q)
		for fi, f := range filters {
			for _, limit := range []int{0, 1, 7} {
				var want []uint32
				for _, d := range all {
					if f == nil || f.Contains(d) {
						want = append(want, d)
					}
				}
				if limit > 0 && len(want) > limit {
					want = want[:limit]
				}
				o := &reader.SearchOptions{Filter: f, Limit: limit}
				got, err := s.Docs(bg, rq(q), o)
				if err != nil {
					t.Fatal(err)
				}
				if len(got) != len(want) || (len(want) > 0 && !slices.Equal(got, want)) {
					t.Fatalf("%s filter %d limit %d:\n got %s\nwant %s", q, fi, limit, oracle.Describe(got), oracle.Describe(want))
				}
				cnt, err := s.Count(bg, rq(q), o)
				if err != nil || cnt != uint64(len(want)) {
					t.Fatalf("%s filter %d limit %d: Count %d, %v; want %d", q, fi, limit, cnt, err, len(want))
				}
				bm, err := s.Bitmap(bg, rq(q), o)
				if err != nil || bm.GetCardinality() != uint64(len(want)) {
					t.Fatalf("%s filter %d limit %d: Bitmap %v, %v", q, fi, limit, bm, err)
				}
			}
		}
	}
	if _, err := s.Docs(bg, reader.Term("text", "a"), &reader.SearchOptions{Limit: -1}); !isKind(err, snii.ErrInvalidArgument) {
		t.Errorf("negative limit: %v", err)
	}
}

// TestLimitStopsPhrase: with SearchOptions.Limit a phrase (exact or sloppy, on
// the leapfrog path and, with a filter, on the staged one) stops reading
// positions once it has that many matches: it gives the lowest ids and reads
// the positions of far fewer documents than without a limit.
func TestLimitStopsPhrase(t *testing.T) {
	var docs []oracle.Doc
	for i := range 3000 {
		text := "alpha beta gamma filler"
		if i%2 == 1 {
			text = "gamma alpha beta filler"
		}
		docs = append(docs, oracle.Doc{{Name: "text", Values: []string{text}}})
	}
	c := corpusOf(docs)
	s := open(t, build(t, docs, options(-1, "text")))
	all := roaring.New()
	all.AddRange(0, 3000)
	for _, q := range []oracle.Query{
		oracle.Phrase{Field: "text", Terms: []string{"alpha", "beta", "gamma"}},
		oracle.SloppyPhrase{Field: "text", Terms: []string{"beta", "alpha"}, Slop: 2},
		oracle.SloppyPhrase{Field: "text", Terms: []string{"gamma", "beta"}, Slop: 3},
	} {
		want := c.Eval(q)
		if len(want) < 1000 {
			t.Fatalf("%s: %d hits: the test is too weak", q, len(want))
		}
		for _, f := range []*roaring.Bitmap{nil, all} {
			var full, cut reader.Profile
			if _, err := s.Count(bg, rq(q), &reader.SearchOptions{Filter: f, NoPairs: true, Profile: &full}); err != nil {
				t.Fatal(err)
			}
			got, err := s.Docs(bg, rq(q), &reader.SearchOptions{Filter: f, NoPairs: true, Limit: 5, Profile: &cut})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want[:5]) {
				t.Fatalf("%s: limit 5: %v, want %v", q, got, want[:5])
			}
			if full.SelectedDocs < 1000 || cut.SelectedDocs > full.SelectedDocs/10 {
				t.Errorf("%s (filter %v): positions of %d docs read with limit 5, %d without", q, f != nil, cut.SelectedDocs, full.SelectedDocs)
			}
		}
	}
}

// TestFullFilterIsNoFilter: a filter holding every document (and more) is not
// materialized: the search allocates no more than without a filter.
func TestFullFilterIsNoFilter(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts differ under the race detector")
	}
	docs := oracle.Generate(78, oracle.GenOptions{Docs: 20000})
	s := open(t, build(t, docs, options(-1, "host", "text")))
	full := roaring.New()
	full.AddRange(0, 1<<20)
	g := oracle.NewGen(corpusOf(docs), "text", 9)
	for _, q := range []oracle.Query{g.Term(), g.Phrase()} {
		count := func(f *roaring.Bitmap) float64 {
			return testing.AllocsPerRun(50, func() {
				if _, err := s.Docs(bg, rq(q), &reader.SearchOptions{Filter: f}); err != nil {
					t.Fatal(err)
				}
			})
		}
		if without, with := count(nil), count(full); with > without {
			t.Errorf("%s: %v allocations with a full filter, %v without", q, with, without)
		}
	}
}
