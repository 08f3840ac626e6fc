package reader_test

import (
	"testing"

	"github.com/snii-go/snii/internal/testkit/oracle"
	"github.com/snii-go/snii/reader"
)

// TestTopSloppy: Top ranks sloppy phrases (alone, in an Or with a term, in an
// And) as the oracle's BM25 with Lucene's sloppy frequency does, on a mixed
// corpus and on a small-vocabulary one where terms repeat.
func TestTopSloppy(t *testing.T) {
	n := 60
	if raceEnabled {
		n = 12
	}
	for ci, opts := range []oracle.GenOptions{{Docs: 2000}, {Docs: 1500, Vocab: 12, Zipf: 1.3, MaxTokens: 25}} {
		docs := oracle.Generate(uint64(61+ci), opts)
		c := corpusOf(docs)
		s := open(t, build(t, docs, options(-1, "host", "text")))
		g := oracle.NewGen(c, "text", uint64(70+ci))
		var qs []oracle.Query
		for i := 0; i < n; i++ {
			qs = append(qs, g.Sloppy(), oracle.Or{g.Sloppy(), g.Term()}, oracle.And{g.Sloppy(), g.Term()})
		}
		ks := []int{10, 1, 1000}
		for _, p := range []reader.BM25{reader.BM25{K1: 1.2, B: 0.75}, {K1: 2, B: 0.3}} {
			if hits := checkTop(t, s, c, qs, ks, p, oracle.BM25Options{}); hits < len(qs)/3 {
				t.Errorf("corpus %d: only %d of %d queries hit: the test is too weak", ci, hits, len(qs))
			}
		}
	}
}

// TestTopSloppyFreq: hand-worked sloppy frequencies reach the explanation.
func TestTopSloppyFreq(t *testing.T) {
	docs := []oracle.Doc{
		{{Name: "text", Values: []string{"a b x a b"}}}, // two adjacent matches: 2
		{{Name: "text", Values: []string{"a x b"}}},     // one gap: 1/2
		{{Name: "text", Values: []string{"b a"}}},       // reordered: 1/3
		{{Name: "text", Values: []string{"a x x x b"}}}, // too far
	}
	s := open(t, build(t, docs, options(-1, "text")))
	hits, err := s.Top(bg, reader.SloppyPhrase("text", 2, "a", "b"), 10, &reader.TopOptions{Explain: true})
	if err != nil {
		t.Fatal(err)
	}
	want := map[uint32]float32{0: 2, 1: 0.5, 2: float32(1) / 3}
	if len(hits) != len(want) {
		t.Fatalf("hits %+v", hits)
	}
	for _, h := range hits {
		if f, ok := want[h.Doc]; !ok || h.Explanation.Freq != f {
			t.Errorf("doc %d: freq %v, want %v", h.Doc, h.Explanation.Freq, f)
		}
		if h.Explanation.Score != h.Score {
			t.Errorf("doc %d: explained score %v, score %v", h.Doc, h.Explanation.Score, h.Score)
		}
	}
}
