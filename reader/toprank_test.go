package reader_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/snii-go/snii/internal/testkit/oracle"
	"github.com/snii-go/snii/reader"
)

// rankCorpus is n documents of 16 tokens each (so every document has the
// same norm): "common" once in every one, and 2 + i/2500 times in every
// 997th (from doc 500), so the best of them come last; "alpha beta" once in
// every 3rd document, and three times in those of them that are every 997th
// from doc 300 (7 documents); filler words for the rest.
func rankCorpus(n int) []oracle.Doc {
	r := rand.New(rand.NewPCG(35, 10))
	docs := make([]oracle.Doc, n)
	for i := range docs {
		var toks []string
		tf := 1
		if i%997 == 500 {
			tf = 2 + i/2500
		}
		for range tf {
			toks = append(toks, "common")
		}
		if i%3 == 0 {
			pf := 1
			if i%997 == 300 {
				pf = 3
			}
			for range pf {
				toks = append(toks, "alpha", "beta")
			}
		}
		for len(toks) < 16 {
			toks = append(toks, fmt.Sprintf("w%d", r.IntN(50)))
		}
		docs[i] = oracle.Doc{{Name: "text", Values: []string{strings.Join(toks, " ")}}}
	}
	return docs
}

// TestTopRankGates is the counter gate of ranked search on frequent terms
// and phrases (issue 35): on 20,000 documents,
//   - the top 10 of "common" (in every document: 157 blocks of 128 docs)
//     decodes the block of each of the 10 best documents (their windows are
//     visited first, best bound first), the block that fills the top 10 at
//     the start and at most one more, and scores no other block's documents;
//   - the top 10 of the phrase "alpha beta" (6,667 matches, 7 of them three
//     times) reads the positions of only the documents whose terms'
//     frequencies can beat the 10th score: the 10 that fill the top 10 and
//     the 7 of frequency 3 at most, and decodes fewer than half the doc
//     blocks finding every match decodes (the ranges whose impacts cannot
//     beat the 10th score are passed);
//   - its sloppy variant (slop 1) scores as few, and its scorer decodes
//     only the blocks holding those beyond finding the matches;
//
// and each top k is the oracle's.
func TestTopRankGates(t *testing.T) {
	const n = 20000
	docs := rankCorpus(n)
	c := corpusOf(docs)
	s := open(t, build(t, docs, options(-1, "text")))
	common := oracle.Term{Field: "text", Term: "common"}
	phrase := oracle.Phrase{Field: "text", Terms: []string{"alpha", "beta"}}
	sloppy := oracle.SloppyPhrase{Field: "text", Terms: []string{"alpha", "beta"}, Slop: 1}
	qs := []oracle.Query{common, phrase, sloppy}
	checkTop(t, s, c, qs, []int{10, 1, 50}, reader.BM25{K1: 1.2, B: 0.75}, oracle.BM25Options{})

	var p reader.Profile
	hits, scored, err := reader.TopScored(s, bg, rq(common), 10, &reader.TopOptions{Profile: &p})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 10 {
		t.Fatalf("common: %d hits", len(hits))
	}
	for _, h := range hits {
		if h.Doc%997 != 500 {
			t.Fatalf("common: hit %d is not one of the high-frequency documents", h.Doc)
		}
	}
	// The 10 best are in 10 blocks; one more block fills the top 10 first
	// (its documents score below them), and while the 10th score is that of
	// frequency 1, a block of that bound holding smaller doc ids than the
	// 10th may be read once (equal scores rank by doc id). Of 157 blocks.
	if p.DocBlocksRead > 12 || scored > 12*128 {
		t.Errorf("common: %d blocks decoded, %d documents scored; want at most 12 and %d", p.DocBlocksRead, scored, 12*128)
	}
	t.Logf("common: %d doc blocks, %d docs decoded, %d scored", p.DocBlocksRead, p.DocsDecoded, scored)

	for _, q := range []oracle.Query{phrase, sloppy} {
		all := len(c.TopBM25(q, n, oracle.BM25Options{K1: 1.2, B: 0.75}))
		var p reader.Profile
		hits, scored, err = reader.TopScored(s, bg, rq(q), 10, &reader.TopOptions{Profile: &p})
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) != 10 || all < 6000 {
			t.Fatalf("%s: %d hits of %d matches", q, len(hits), all)
		}
		if scored > 10+7 {
			t.Errorf("%s: %d of %d matches scored from their positions, want at most 17", q, scored, all)
		}
		// The exact phrase is ranked as the leapfrog finds its candidates:
		// the ranges whose impacts cannot beat the 10th score are passed
		// without decoding their blocks, fewer than half the blocks finding
		// every match decodes.
		var pd reader.Profile
		if _, err := s.Docs(bg, rq(q), &reader.SearchOptions{Profile: &pd}); err != nil {
			t.Fatal(err)
		}
		if exactPhrase(q) && 2*p.DocBlocksRead >= pd.DocBlocksRead {
			t.Errorf("%s: %d doc blocks decoded, %d finding every match: want fewer than half", q, p.DocBlocksRead, pd.DocBlocksRead)
		}
		// The sloppy phrase is scored from its list of matches: beyond the
		// blocks finding them decodes, its scorer decodes only the block of
		// each term holding a document it scores.
		if extra := p.DocBlocksRead - pd.DocBlocksRead; !exactPhrase(q) && extra > 2*(1+7) {
			t.Errorf("%s: %d doc blocks decoded, %d finding every match: %d more, want at most 16", q, p.DocBlocksRead, pd.DocBlocksRead, extra)
		}
		t.Logf("%s: %d of %d matches scored; %d doc blocks (%d finding the matches), %d .prx windows", q, scored, all, p.DocBlocksRead, pd.DocBlocksRead, p.WindowsRead)
	}
}

func exactPhrase(q oracle.Query) bool {
	_, ok := q.(oracle.Phrase)
	return ok
}

// orCorpus is n documents of 16 tokens each: "even" once in every 2nd
// document, four times in documents 0, 10, ..., 90 and eight times in
// document n/2 + 2; "tenth" once in every
// 10th, four times in the last three of them; filler words for the rest.
// The top 10 of "even OR tenth" are those last three and the first seven of
// the early ones; every other document of "tenth" holds both terms once and
// scores below them.
func orCorpus(n int) []oracle.Doc {
	r := rand.New(rand.NewPCG(35, 11))
	docs := make([]oracle.Doc, n)
	for i := range docs {
		var toks []string
		if i%2 == 0 {
			toks = append(toks, "even")
			if i < 100 && i%10 == 0 {
				toks = append(toks, "even", "even", "even")
			}
			if i == n/2+2 {
				toks = append(toks, "even", "even", "even", "even", "even", "even", "even")
			}
		}
		if i%10 == 0 {
			toks = append(toks, "tenth")
			if i >= n-30 {
				toks = append(toks, "tenth", "tenth", "tenth")
			}
		}
		for len(toks) < 16 {
			toks = append(toks, fmt.Sprintf("w%d", r.IntN(50)))
		}
		docs[i] = oracle.Doc{{Name: "text", Values: []string{strings.Join(toks, " ")}}}
	}
	return docs
}

// TestTopOrWindowGates is the counter gate of MaxScore's windows (issue
// 35): in "even OR tenth" on 20,000 documents, both terms bound high only
// in a few blocks ("even" in its first and in the middle, "tenth" in its
// last). Once the top 10 holds the early documents, a block range where
// both have frequency 1 cannot beat the 10th score, so the documents of
// "tenth" there are not scored (nor their blocks decoded), though the
// bound of "even" over all documents added to the bound of such a block of
// "tenth" could: of its 2,000 documents, only those filling the top 10,
// those beside the middle document and those in the block ranges of its
// last 128-doc block are scored.
func TestTopOrWindowGates(t *testing.T) {
	const n = 20000
	docs := orCorpus(n)
	c := corpusOf(docs)
	s := open(t, build(t, docs, options(-1, "text")))
	q := oracle.Or{oracle.Term{Field: "text", Term: "even"}, oracle.Term{Field: "text", Term: "tenth"}}
	checkTop(t, s, c, []oracle.Query{q}, []int{10, 1, 50}, reader.BM25{K1: 1.2, B: 0.75}, oracle.BM25Options{})

	var p reader.Profile
	hits, scored, err := reader.TopScored(s, bg, rq(q), 10, &reader.TopOptions{Profile: &p})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 10 {
		t.Fatalf("%d hits", len(hits))
	}
	for _, h := range hits {
		if h.Doc >= 70 && h.Doc < n-30 {
			t.Fatalf("hit %d is not one of the documents holding a term four times", h.Doc)
		}
	}
	if want := int64(10 + 2*128); scored > want {
		t.Errorf("%d documents scored, want at most %d (of 2,000 holding \"tenth\")", scored, want)
	}
	// The blocks decoded: the first and the last of each term's, and those
	// beside the middle document (finding every match decodes 95).
	if p.DocBlocksRead > 12 {
		t.Errorf("%d doc blocks decoded, want at most 12", p.DocBlocksRead)
	}
	t.Logf("%d documents scored; %d doc blocks, %d docs decoded", scored, p.DocBlocksRead, p.DocsDecoded)
}
