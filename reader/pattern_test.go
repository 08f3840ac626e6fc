package reader_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/snii-go/snii"
	"github.com/snii-go/snii/internal/testkit/oracle"
	"github.com/snii-go/snii/reader"
	"github.com/snii-go/snii/writer"
)

// patternQueries draws n queries of each pattern kind over field.
func patternQueries(c *oracle.Corpus, field string, seed uint64, n int) *querySet {
	g := oracle.NewGen(c, field, seed)
	kinds := []struct {
		name string
		fn   func() oracle.Query
	}{
		{"regexp", g.Regexp},
		{"wildcard", g.Wildcard},
		{"patternphrase", g.PatternPhrase},
		{"patternbool", g.PatternBool},
	}
	qs := &querySet{}
	for _, k := range kinds {
		for i := 0; i < n; i++ {
			qs.kinds = append(qs.kinds, k.name)
			qs.qs = append(qs.qs, k.fn())
		}
	}
	qs.want = make([][]uint32, len(qs.qs))
	parallel(len(qs.qs), func(i int) { qs.want[i] = c.Eval(qs.qs[i]) })
	return qs
}

// TestOraclePatterns compares regexp, wildcard, pattern-phrase and boolean
// pattern queries with the brute-force oracle (which tests every term of the
// field with regexp or its own wildcard matcher), on segments read through
// the mapping and through a ReaderAt without the block cache.
func TestOraclePatterns(t *testing.T) {
	n := 150
	if raceEnabled {
		n /= 5
	}
	docs := oracle.Generate(41, oracle.GenOptions{Docs: 3000})
	c := corpusOf(docs)
	qs := patternQueries(c, "text", 77, n)
	path := build(t, docs, options(0, "host", "text"))
	hits := checkQueries(t, open(t, path), qs, "mapped")
	for _, k := range []string{"regexp", "wildcard", "patternphrase", "patternbool"} {
		if hits[k] < n/4 {
			t.Errorf("only %d of %d %s queries hit: the test is too weak", hits[k], n, k)
		}
	}
	t.Logf("queries with hits per kind: %v", hits)
	s, err := reader.Open(path, reader.Options{BlockCacheBytes: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	checkQueries(t, s, qs, "uncached")
}

// TestPatternErrors: an invalid expression, a lone trailing backslash, a
// negative bound, no slots or an unknown slot kind are invalid arguments.
func TestPatternErrors(t *testing.T) {
	docs := oracle.Generate(5, oracle.GenOptions{Docs: 50})
	s := open(t, build(t, docs, options(0, "host", "text")))
	for _, q := range []reader.Query{
		reader.Regexp("text", "a(", 0),
		reader.Regexp("text", "a", -1),
		reader.Wildcard("text", `ab\`, 0),
		reader.PatternPhrase("text", nil, 0),
		reader.PatternPhrase("text", []reader.Slot{{Kind: 9, Text: "a"}, {Text: "b"}}, 0),
		reader.PatternPhrase("text", []reader.Slot{{Kind: reader.SlotRegexp, Text: "[a"}, {Text: "b"}}, 0),
		reader.Or(reader.Term("text", "a"), reader.Regexp("text", "*", 0)),
	} {
		if _, err := s.Docs(bg, q, nil); !errors.Is(err, snii.ErrInvalidArgument) {
			t.Errorf("%s: err %v, want invalid argument", q, err)
		}
	}
}

// TestPatternWork is the work gate: a pattern's expansion visits each dict
// entry at most once (DictTermsVisited <= the field's terms, whatever the
// pattern; exactly once each for ".*" at two dictionary sizes), so its work
// is linear in the dictionary; a pattern whose literal alternatives exclude most
// blocks decodes few of them and visits only the terms that start with them;
// and a pattern that rules out every term under a prefix seeks past them.
func TestPatternWork(t *testing.T) {
	build2 := func(n int) (*reader.Segment, int) {
		var docs []oracle.Doc
		pad := strings.Repeat("p", 40) // long terms: many dict blocks
		for i := 0; i < n; i++ {
			docs = append(docs, oracle.Doc{{Name: "text", Values: []string{
				fmt.Sprintf("k%06d%s v%06d%sx alpha%d zeta%d", i, pad, i*7, pad, i%97, i%89),
			}}})
		}
		s, err := reader.Open(build(t, docs, options(0, "text")), reader.Options{BlockCacheBytes: -1})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		terms, errf := s.Terms(bg, "text", "", 0)
		nt := 0
		for range terms {
			nt++
		}
		if err := errf(); err != nil {
			t.Fatal(err)
		}
		return s, nt
	}
	small, nSmall := build2(10000)
	big, nBig := build2(20000)
	pats := []string{`.*x`, `.*0.*`, `(k|v)00[0-9]+`, `[a-z]+1`, `.*`, `k.*7`, `(alpha|zeta)1[0-9]`}
	for _, p := range pats {
		var visited [2]int64
		for i, s := range []*reader.Segment{small, big} {
			var prof reader.Profile
			if _, err := s.Docs(bg, reader.Regexp("text", p, 0), &reader.SearchOptions{Profile: &prof}); err != nil {
				t.Fatal(err)
			}
			visited[i] = prof.DictTermsVisited
			nt := []int{nSmall, nBig}[i]
			if prof.DictTermsVisited > int64(nt) {
				t.Errorf("%s: visited %d dict entries of %d", p, prof.DictTermsVisited, nt)
			}
		}
		if p == `.*` && (visited[0] != int64(nSmall) || visited[1] != int64(nBig)) {
			t.Errorf("%s: visited %d entries with %d terms, %d with %d: want each once", p, visited[0], nSmall, visited[1], nBig)
		}
	}
	// Seeking past dead prefixes: "." matches no term (all are longer); after
	// the first term under each first character ("alpha0", "k000000...",
	// "v000000...", "zeta0") nothing can follow that character, so the walk
	// reads the next term under it and seeks past: the same few entries at
	// both sizes.
	for i, s := range []*reader.Segment{small, big} {
		var prof reader.Profile
		if _, err := s.Docs(bg, reader.Regexp("text", `.`, 0), &reader.SearchOptions{Profile: &prof}); err != nil {
			t.Fatal(err)
		}
		if prof.DictTermsVisited != 8 {
			t.Errorf("segment %d: . visited %d dict entries, want 8 (two under each first character)", i, prof.DictTermsVisited)
		}
	}
	// Pruning: the alternatives' literals leave only the blocks of terms
	// starting with "alpha1" or "zeta1"; an unpruned scan decodes them all.
	var pruned, all reader.Profile
	if _, err := big.Docs(bg, reader.Regexp("text", `(alpha|zeta)1[0-9]`, 0), &reader.SearchOptions{Profile: &pruned}); err != nil {
		t.Fatal(err)
	}
	if _, err := big.Docs(bg, reader.Regexp("text", `.*`, 0), &reader.SearchOptions{Profile: &all}); err != nil {
		t.Fatal(err)
	}
	if all.DictBlocksRead < 20 || pruned.DictBlocksRead*5 > all.DictBlocksRead {
		t.Errorf("(alpha|zeta)1[0-9] decoded %d dict blocks of %d: not pruned", pruned.DictBlocksRead, all.DictBlocksRead)
	}
	if pruned.DictTermsVisited*5 > all.DictTermsVisited {
		t.Errorf("(alpha|zeta)1[0-9] visited %d entries of %d: not pruned", pruned.DictTermsVisited, all.DictTermsVisited)
	}
	// Seeking: the literal prefixes "alpha1" and "zeta1" are sought in turn,
	// and each range ends at its first term past it: the entries visited are
	// the 11 terms starting with each (alpha1, alpha10..alpha19; zeta1, ...).
	if pruned.DictTermsVisited != 22 {
		t.Errorf("(alpha|zeta)1[0-9] visited %d entries, want the 22 that start with its literal prefixes", pruned.DictTermsVisited)
	}
	t.Logf("dict blocks decoded: pruned %d, all %d; entries visited %d, %d", pruned.DictBlocksRead, all.DictBlocksRead, pruned.DictTermsVisited, all.DictTermsVisited)
}

// FuzzPatternQuery: a Regexp or Wildcard query of any pattern gives the
// oracle's documents (or, for a pattern that does not compile, an invalid
// argument) on a segment of several dict blocks, so that seeking and block
// pruning are exercised.
func FuzzPatternQuery(f *testing.F) {
	var docs []oracle.Doc
	pad := strings.Repeat("q", 80) // long terms: three dict blocks and more
	for i := 0; i < 1500; i++ {
		docs = append(docs, oracle.Doc{{Name: "text", Values: []string{
			fmt.Sprintf("a%04d%s b%d%s c%d é%d", i, pad, i%53, pad, i%7, i%11),
		}}})
	}
	c := corpusOf(docs)
	s := open(f, build(f, docs, options(0, "text")))
	var prof reader.Profile
	if _, err := s.Docs(bg, reader.Regexp("text", ".*", 0), &reader.SearchOptions{Profile: &prof}); err != nil || prof.DictBlocksRead < 3 {
		f.Fatalf("%d dict blocks (%v): want 3 or more", prof.DictBlocksRead, err)
	}
	for _, seed := range []string{`a00[0-9]+q*`, `(b1|c)[0-9].*`, `*3`, `é1?`, `b4?*`, `.*9q+`, `a(`, `\`} {
		f.Add(seed, false, uint8(0))
		f.Add(seed, true, uint8(3))
	}
	f.Fuzz(func(t *testing.T, pat string, wildcard bool, max uint8) {
		var q reader.Query
		var oq oracle.Query
		if wildcard {
			q, oq = reader.Wildcard("text", pat, int(max)), oracle.Wildcard{Field: "text", Pattern: pat, MaxExpansions: int(max)}
		} else {
			q, oq = reader.Regexp("text", pat, int(max)), oracle.Regexp{Field: "text", Expr: pat, MaxExpansions: int(max)}
		}
		got, err := s.Docs(bg, q, nil)
		if err != nil {
			if !errors.Is(err, snii.ErrInvalidArgument) {
				t.Fatalf("%s: %v", q, err)
			}
			return
		}
		if want := c.Eval(oq); !slices.Equal(got, want) {
			t.Fatalf("%s:\n got %s\nwant %s", q, oracle.Describe(got), oracle.Describe(want))
		}
	})
}

// TestPatternTopAndHighlights: a ranked search of a pattern query gives its
// documents (each scored as a constant), and Highlights marks the tokens a
// pattern matches and a pattern phrase's span, and fuzzy terms the terms
// within their edits.
func TestPatternTopAndHighlights(t *testing.T) {
	o := writer.DefaultOptions("text")
	o.RecordFormat, o.TextField = snii.RecordText, "text"
	recs := []string{"java.lang.NullPointerException at Foo", "connection refused by host", "conn refused", "IllegalStateException thrown", "nothing"}
	var docs []writer.Document
	for _, r := range recs {
		docs = append(docs, writer.Document{Fields: []writer.Field{{Name: "text", Values: []string{r}}}, Record: []byte(r)})
	}
	s := buildDocs(t, o, docs)
	for _, q := range []reader.Query{
		reader.Wildcard("text", "*exception", 0),
		reader.Regexp("text", "conn(ection)?", 0),
		reader.PatternPhrase("text", []reader.Slot{{Kind: reader.SlotRegexp, Text: "conn(ection)?"}, {Text: "refused"}}, 0),
	} {
		want, err := s.Docs(bg, q, nil)
		if err != nil || len(want) != 2 {
			t.Fatalf("%s: %v (%v)", q, want, err)
		}
		hits, err := s.Top(bg, q, 10, nil)
		if err != nil || len(hits) != len(want) {
			t.Fatalf("%s: Top %v (%v), want docs %v", q, hits, err, want)
		}
		for i, h := range hits {
			if h.Doc != want[i] || h.Score != hits[0].Score {
				t.Errorf("%s: hit %d = %+v, want doc %d with the same score", q, i, h, want[i])
			}
		}
	}
	for _, c := range []struct {
		q    reader.Query
		rec  int
		want string
	}{
		{reader.Wildcard("text", "*exception", 0), 0, "[NullPointerException]"},
		{reader.Regexp("text", "conn.*", 0), 1, "[connection]"},
		{reader.PatternPhrase("text", []reader.Slot{{Kind: reader.SlotWildcard, Text: "con*"}, {Text: "refused"}}, 0), 2, "[conn refused]"},
		{reader.Fuzzy("text", "refsued", 2, 0), 1, "[refused]"},
		{reader.Fuzzy("text", "conn", 1, 0), 2, "[conn]"},
		{reader.And(reader.Fuzzy("text", "thrwn", 1, 0), reader.Term("text", "illegalstateexception")), 3, "[IllegalStateException thrown]"},
	} {
		spans, err := s.Highlights(c.q, []byte(recs[c.rec]))
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(cut([]byte(recs[c.rec]), spans)); got != c.want {
			t.Errorf("%s on %q: %s, want %s", c.q, recs[c.rec], got, c.want)
		}
	}
}
