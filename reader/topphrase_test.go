package reader_test

import (
	"fmt"
	"strings"
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

// TestTopPhraseListDecodesOnce is the counter gate of a ranked exact phrase
// verified from a pair-filtered candidate list (verifyPhrase, not the
// leapfrog): the verifier hands the ranking each candidate's bound and each
// match's frequency from its own cursors, so the scorer decodes nothing
// again. Every document holds "alpha", "beta" and "gamma"; a third of them
// hold "alpha beta gamma" (7 of those three times), so the phrase's kept
// pair lists narrow the candidates (the filter plan, a chain). With k above
// the matches, Top decodes no doc id and reads no .prx window that Docs does
// not, and reads no position beyond Docs' but those counting the 7
// frequency-3 matches (three positions of each of 3 terms); with k = 10 it
// reads fewer windows.
func TestTopPhraseListDecodesOnce(t *testing.T) {
	const n = 20000
	docs := make([]oracle.Doc, n)
	for i := range docs {
		toks := []string{"common"}
		switch {
		case i%3 != 0:
			toks = append(toks, "alpha", "x", "beta", "y", "gamma")
		case i%997 == 300:
			toks = append(toks, "alpha", "beta", "gamma", "alpha", "beta", "gamma", "alpha", "beta", "gamma")
		default:
			toks = append(toks, "alpha", "beta", "gamma")
		}
		for len(toks) < 16 {
			toks = append(toks, fmt.Sprintf("w%d", (i*7+len(toks)*13)%50))
		}
		docs[i] = oracle.Doc{{Name: "text", Values: []string{strings.Join(toks, " ")}}}
	}
	c := corpusOf(docs)
	q := oracle.Phrase{Field: "text", Terms: []string{"alpha", "beta", "gamma"}}
	s := open(t, build(t, docs, options(-1, "text")))
	checkTop(t, s, c, []oracle.Query{q, q, q}, []int{n, 10, 7}, reader.BM25{K1: 1.2, B: 0.75}, oracle.BM25Options{})

	var pd reader.Profile
	matches, err := s.Docs(bg, rq(q), &reader.SearchOptions{Profile: &pd})
	if err != nil {
		t.Fatal(err)
	}
	if len(matches) != 6667 || pd.PairPlans == 0 {
		t.Fatalf("%d matches, %d pair plans: want 6667 matches from a pair plan", len(matches), pd.PairPlans)
	}
	for _, k := range []int{n, 10} {
		var pt reader.Profile
		hits, err := s.Top(bg, rq(q), k, &reader.TopOptions{Profile: &pt})
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) != min(k, len(matches)) {
			t.Fatalf("top %d: %d hits of %d matches", k, len(hits), len(matches))
		}
		t.Logf("top %d: %d doc ids decoded, %d .prx windows, %d positions read; Docs: %d, %d, %d", k,
			pt.DocsDecoded, pt.WindowsRead, pt.SelectedPositions, pd.DocsDecoded, pd.WindowsRead, pd.SelectedPositions)
		if pt.DocsDecoded > pd.DocsDecoded || pt.DocBlocksRead > pd.DocBlocksRead {
			t.Errorf("top %d: %d doc ids decoded (%d blocks), finding the matches %d (%d): want no more", k, pt.DocsDecoded, pt.DocBlocksRead, pd.DocsDecoded, pd.DocBlocksRead)
		}
		if pt.WindowsRead > pd.WindowsRead || k < n && pt.WindowsRead >= pd.WindowsRead {
			t.Errorf("top %d: %d .prx windows read, finding the matches %d: want no more (below top %d: fewer)", k, pt.WindowsRead, pd.WindowsRead, n)
		}
		if extra := pt.SelectedPositions - pd.SelectedPositions; extra > 7*3*3 {
			t.Errorf("top %d: %d positions read, finding the matches %d: %d more, want at most 63", k, pt.SelectedPositions, pd.SelectedPositions, extra)
		}
	}
}
