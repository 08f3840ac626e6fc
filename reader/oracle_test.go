package reader_test

import (
	"slices"
	"testing"

	"github.com/snii-go/snii/analysis"
	"github.com/snii-go/snii/internal/codec/format"
	"github.com/snii-go/snii/internal/seam"
	"github.com/snii-go/snii/internal/testkit/oracle"
	"github.com/snii-go/snii/reader"
)

// TestOracleGenerated compares ≥200 queries of each kind with the brute-force
// oracle on generated corpora, for segments built with policy 0 (smallest
// frames), a fixed share of 80 and the budget: the codec never changes an answer.
// Under the race detector the counts are divided by 5 (the race run is for
// concurrency; the full counts run without it).
func TestOracleGenerated(t *testing.T) {
	corpora := []struct {
		name string
		opts oracle.GenOptions
		n    int
	}{
		{"mixed", oracle.GenOptions{Docs: 3000}, 200},
		// small vocabulary: windowed terms with df >= 8192 (1024-doc windows)
		{"dense", oracle.GenOptions{Docs: 10000, Vocab: 300, Zipf: 1.4, MaxValues: 2, MaxTokens: 30}, 40},
	}
	for ci, cc := range corpora {
		if raceEnabled {
			cc.n /= 5
		}
		t.Run(cc.name, func(t *testing.T) {
			docs := oracle.Generate(uint64(11+ci), cc.opts)
			c := corpusOf(docs)
			qs := genQueries(c, "text", uint64(100+ci), cc.n)
			hostQs := genQueries(c, "host", uint64(200+ci), 10)
			var frames [3][3]int64
			for pi, policy := range []int{0, 80, -1} {
				path := build(t, docs, options(policy, "host", "text"))
				s := open(t, path)
				hits := checkQueries(t, s, qs, cc.name)
				checkQueries(t, s, hostQs, cc.name+"/host")
				info, err := seam.IndexMeta(s, "text")
				if err != nil {
					t.Fatal(err)
				}
				frames[pi] = info.Outcome.Windows
				if pi == 0 {
					t.Logf("%s: %d docs, %d terms (%d inline, %d slim, %d windowed), frames raw/zstd/pfor %v; queries with hits per kind: %v",
						cc.name, len(docs), info.TermCount, info.InlineTerms, info.SlimTerms, info.WindowedTerms, info.Outcome.Windows, hits)
					var maxDF uint64
					terms, _ := s.Terms(t.Context(), "text", "", 0)
					for _, df := range terms {
						maxDF = max(maxDF, df)
					}
					if cc.name == "dense" && maxDF < format.LargeDF {
						t.Errorf("dense corpus: largest df %d, want >= %d (1024-doc windows)", maxDF, format.LargeDF)
					}
					for _, k := range []string{"term", "phrase", "repeated", "phraseprefix", "prefix"} {
						if hits[k] < cc.n/4 {
							t.Errorf("only %d of %d %s queries hit: the test is too weak", hits[k], cc.n, k)
						}
					}
				}
				if err := s.Verify(bg); err != nil {
					t.Fatalf("policy %d: Verify: %v", policy, err)
				}
			}
			// The policies must actually differ, or the comparison proves nothing.
			if frames[0][1] == 0 || frames[1][1] >= frames[0][1] {
				t.Errorf("zstd frames: policy 0 %d, share 80 %d: expected fewer zstd frames with the share", frames[0][1], frames[1][1])
			}
		})
	}
}

// TestOracleReaderAt runs the query set through OpenReaderAt (pread path, no
// mapping) and with the dict block cache disabled.
func TestOracleReaderAt(t *testing.T) {
	docs := oracle.Generate(5, oracle.GenOptions{Docs: 1500})
	c := corpusOf(docs)
	qs := genQueries(c, "text", 9, 30)
	path := build(t, docs, options(-1, "host", "text"))
	for _, o := range []reader.Options{{NoMmap: true}, {NoMmap: true, BlockCacheBytes: -1}, {BlockCacheBytes: 1 << 10}} {
		s, err := reader.Open(path, o)
		if err != nil {
			t.Fatal(err)
		}
		checkQueries(t, s, qs, "readerat")
		if err := s.Verify(bg); err != nil {
			t.Fatal(err)
		}
		s.Close()
	}
}

// TestOracleAnalyzers runs the query set on a segment whose "text" field uses
// the whitespace analyzer and "host" the keyword analyzer, against the
// oracle tokenizing the same way.
func TestOracleAnalyzers(t *testing.T) {
	docs := oracle.Generate(17, oracle.GenOptions{Docs: 1500})
	c := oracle.New()
	c.SetAnalyzer("text", analysis.Whitespace)
	c.SetAnalyzer("host", analysis.Keyword)
	for _, d := range docs {
		c.Add(d)
	}
	n := 40
	if raceEnabled {
		n /= 5
	}
	qs := genQueries(c, "text", 23, n)
	hostQs := genQueries(c, "host", 29, 10)
	o := options(-1, "host", "text")
	for i := range o.Fields {
		o.Fields[i].Analyzer = map[string]string{"text": analysis.Whitespace, "host": analysis.Keyword}[o.Fields[i].Name]
	}
	s := open(t, build(t, docs, o))
	hits := checkQueries(t, s, qs, "whitespace")
	checkQueries(t, s, hostQs, "keyword")
	for _, k := range []string{"term", "phrase", "prefix"} {
		if hits[k] < n/4 {
			t.Errorf("only %d of %d whitespace %s queries hit: the test is too weak", hits[k], n, k)
		}
	}
	// The keyword field keeps case and punctuation: one term per host.
	terms, errf := s.Terms(t.Context(), "host", "", 0)
	var hosts []string
	for term := range terms {
		hosts = append(hosts, term)
	}
	if err := errf(); err != nil || !slices.Contains(hosts, "Édge-1") || !slices.Contains(hosts, "db-primary") {
		t.Errorf("keyword terms %q, %v", hosts, err)
	}
	if err := s.Verify(bg); err != nil {
		t.Fatal(err)
	}
}
