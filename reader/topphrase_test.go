package reader_test

import (
	"testing"

	"github.com/snii-go/snii/internal/testkit/oracle"
	"github.com/snii-go/snii/reader"
	"github.com/snii-go/snii/writer"
)

// TestTopPhraseDecodesOnce is the counter gate of the ranked exact phrase
// (issue 35): ranked as the leapfrog verifies it, each candidate is decoded
// once, by the leapfrog; its bound and its frequency come from the
// leapfrog's cursors. With k above the phrase's 6,667 matches in
// rankCorpus (no candidate can be passed by its bounds), the top k of
// "alpha beta" decodes no doc block that finding every match (Docs) does
// not, and reads no position beyond Docs' but those counting the 7 matches
// of frequency 3 (their 6 positions, read again), both when the phrase's
// pair proves the matches (Docs reads no position) and when the leapfrog
// verifies them from positions (no pairs); with k = 10 it decodes fewer
// doc blocks than Docs.
func TestTopPhraseDecodesOnce(t *testing.T) {
	const n = 20000
	docs := rankCorpus(n)
	c := corpusOf(docs)
	q := oracle.Phrase{Field: "text", Terms: []string{"alpha", "beta"}}
	for _, pairs := range []bool{true, false} {
		o := options(-1, "text")
		if !pairs {
			o.Pairs.Percent = writer.PairsOff
		}
		s := open(t, build(t, docs, o))
		checkTop(t, s, c, []oracle.Query{q, q, q}, []int{n, 10, 7}, reader.BM25{K1: 1.2, B: 0.75}, oracle.BM25Options{})

		var pd reader.Profile
		matches, err := s.Docs(bg, rq(q), &reader.SearchOptions{Profile: &pd})
		if err != nil {
			t.Fatal(err)
		}
		if len(matches) < 6000 {
			t.Fatalf("pairs %v: %d matches", pairs, len(matches))
		}
		for _, k := range []int{n, 10} {
			var pt reader.Profile
			hits, err := s.Top(bg, rq(q), k, &reader.TopOptions{Profile: &pt})
			if err != nil {
				t.Fatal(err)
			}
			if len(hits) != min(k, len(matches)) {
				t.Fatalf("pairs %v: top %d: %d hits of %d matches", pairs, k, len(hits), len(matches))
			}
			t.Logf("pairs %v: top %d: %d doc blocks, %d .prx windows, %d positions read; Docs: %d, %d, %d", pairs, k,
				pt.DocBlocksRead, pt.WindowsRead, pt.SelectedPositions, pd.DocBlocksRead, pd.WindowsRead, pd.SelectedPositions)
			if pt.DocBlocksRead > pd.DocBlocksRead || k < n && pt.DocBlocksRead >= pd.DocBlocksRead {
				t.Errorf("pairs %v: top %d: %d doc blocks decoded, finding the matches %d: want no more (below top %d: fewer)", pairs, k, pt.DocBlocksRead, pd.DocBlocksRead, n)
			}
			if extra := pt.SelectedPositions - pd.SelectedPositions; extra > 7*6 {
				t.Errorf("pairs %v: top %d: %d positions read, finding the matches %d: %d more, want at most 42", pairs, k, pt.SelectedPositions, pd.SelectedPositions, extra)
			}
		}
	}
}
