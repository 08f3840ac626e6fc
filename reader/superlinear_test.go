package reader_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/snii-go/snii/internal/testkit/oracle"
	"github.com/snii-go/snii/reader"
)

// work is a deterministic work counter of one query: doc ids stepped over in
// intersections, doc and .prx windows read, and positions read.
func work(t *testing.T, s *reader.Segment, q reader.Query) (uint64, int64) {
	t.Helper()
	var p reader.Profile
	n, err := s.Count(bg, q, &reader.SearchOptions{Profile: &p})
	if err != nil {
		t.Fatal(err)
	}
	return n, p.DocsVisited + p.DocWindowsRead + p.WindowsRead + p.SelectedPositions + p.DecodedPositions
}

// TestNoSuperlinearPrefix: a prefix with many one-document expansions,
// combined with a frequent term or inside a phrase, costs work proportional to
// the documents (it was quadratic: every expansion merged against every
// candidate). Doubling the documents at most a little more than doubles the work.
func TestNoSuperlinearPrefix(t *testing.T) {
	counts := map[int][2]int64{}
	for _, n := range []int{2000, 4000} {
		docs := make([]oracle.Doc, n)
		for i := range docs {
			w := "info"
			if i%2 == 1 {
				w = "error"
			}
			docs[i] = oracle.Doc{{Name: "text", Values: []string{fmt.Sprintf("%s req%d", w, i)}}}
		}
		s := open(t, build(t, docs, options(-1, "text")))
		hits, phraseWork := work(t, s, reader.PhrasePrefix("text", 0, "error", "req"))
		if hits != uint64(n/2) {
			t.Fatalf("n=%d: phrase prefix hits %d, want %d", n, hits, n/2)
		}
		hits, andWork := work(t, s, reader.And(reader.Term("text", "error"), reader.Prefix("text", "req", 0)))
		if hits != uint64(n/2) {
			t.Fatalf("n=%d: and hits %d, want %d", n, hits, n/2)
		}
		counts[n] = [2]int64{phraseWork, andWork}
	}
	for k, name := range []string{"phrase prefix", "and"} {
		a, b := counts[2000][k], counts[4000][k]
		if a == 0 || b > a*5/2 {
			t.Errorf("%s: work %d at 2000 docs, %d at 4000 docs: not linear", name, a, b)
		}
	}
}

// TestNoSuperlinearRepeatedWord: a phrase repeating one word costs work linear
// in its length (it was quadratic: every offset of the word proposed every
// start). The counter is the positions read, which the streaming verifier reads
// once per document however long the phrase.
func TestNoSuperlinearRepeatedWord(t *testing.T) {
	docs := make([]oracle.Doc, 300)
	for i := range docs {
		docs[i] = oracle.Doc{{Name: "text", Values: []string{strings.Repeat("kernel ", 50+i%150) + "panic"}}}
	}
	s := open(t, build(t, docs, options(-1, "text")))
	var prev int64
	for _, l := range []int{100, 200, 400} {
		terms := strings.Fields(strings.Repeat("kernel ", l))
		hits, w := work(t, s, reader.Phrase("text", terms...))
		want := 0
		for i := range docs {
			if 50+i%150 >= l {
				want++
			}
		}
		if hits != uint64(want) {
			t.Fatalf("%d words: %d hits, want %d", l, hits, want)
		}
		if prev > 0 && w > 2*prev+1000 {
			t.Errorf("%d words: work %d, %d at half the length: not linear", l, w, prev)
		}
		prev = w
	}
}

// TestPhrasePrefixStreamsTerms: in a phrase prefix whose slots each stand at
// one offset, a single term is streamed against the merged expansions: a
// frequent term is read only as far as the match needs, not materialized
// whole in every candidate. Each document starts with the phrase and then
// repeats "the" 600 times.
func TestPhrasePrefixStreamsTerms(t *testing.T) {
	const n, reps = 200, 600
	docs := make([]oracle.Doc, n)
	for i := range docs {
		var b strings.Builder
		fmt.Fprintf(&b, "alpha the req%d end", i%7)
		for k := 0; k < reps; k++ {
			b.WriteString(" the x")
		}
		docs[i] = oracle.Doc{{Name: "text", Values: []string{b.String()}}}
	}
	c := corpusOf(docs)
	s := open(t, build(t, docs, options(-1, "text")))
	q := reader.PhrasePrefix("text", 0, "alpha", "the", "req")
	var p reader.Profile
	got, err := s.Count(bg, q, &reader.SearchOptions{Profile: &p})
	if err != nil {
		t.Fatal(err)
	}
	if want := len(c.Eval(oracle.PhrasePrefix{Field: "text", Terms: []string{"alpha", "the", "req"}})); got != uint64(want) || want != n {
		t.Fatalf("%s: %d docs, oracle %d (want %d)", q, got, want, n)
	}
	// Per document: alpha's and the expansion's one position each, and the
	// first positions of "the" (a materialized "the" reads 601).
	if per := p.SelectedPositions / n; per > 20 {
		t.Fatalf("%s: %d positions read per document (%d in all), want a handful", q, per, p.SelectedPositions)
	}
}
