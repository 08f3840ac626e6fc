package reader_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/snii-go/snii/internal/testkit/oracle"
	"github.com/snii-go/snii/reader"
)

// rareLeadDocs is a corpus of n documents for the phrase "fa r fb fc": fa
// and fb are in every document, fc in two of three (their windows hold
// 1,024 documents, in 128-doc blocks), r only in the documents of lead. Of
// those, the ones at an even index hold the phrase, the others hold its terms
// out of order ("r fa fb fc"), and every third of them lacks fc.
func rareLeadDocs(n int, lead []int) []oracle.Doc {
	r := rand.New(rand.NewPCG(35, 36))
	docs := make([]oracle.Doc, n)
	for i := range docs {
		var b strings.Builder
		fmt.Fprintf(&b, "w%d ", r.IntN(50))
		fc := " fc"
		if i%3 == 0 {
			fc = ""
		}
		switch j := slices.Index(lead, i); {
		case j >= 0 && j%2 == 0:
			b.WriteString("fa r fb fc")
		case j >= 0 && j%3 == 1:
			b.WriteString("r fa fb")
		case j >= 0:
			b.WriteString("r fa fb fc")
		default:
			b.WriteString("fa fb" + fc)
		}
		fmt.Fprintf(&b, " w%d fa", r.IntN(50))
		docs[i] = oracle.Doc{{Name: "text", Values: []string{b.String()}}}
	}
	return docs
}

// TestRareLeadWorkPerCandidate is issue 35's counter gate for a phrase led by
// a rare term whose other terms are in most documents: its work follows the
// rare term's documents, not the segment's size. At 6,000 and at 24,000
// documents, with the same 12 documents holding the rare term, the leapfrog
// decodes at most one 128-doc block of each other term per document of the
// rare term, parses at most one .prx unit of each term per document holding
// all four, and decodes at most two position blocks of each term per such
// document (a document's positions straddle at most one block boundary
// here). The answers equal the oracle's.
func TestRareLeadWorkPerCandidate(t *testing.T) {
	terms := []string{"fa", "r", "fb", "fc"}
	for _, n := range []int{6000, 24000} {
		var lead []int
		for k := range 12 {
			lead = append(lead, k*(n/12)+(n/12)/2+k%3)
		}
		docs := rareLeadDocs(n, lead)
		c := corpusOf(docs)
		want := c.Eval(oracle.Phrase{Field: "text", Terms: terms})
		common := c.Eval(oracle.And{
			oracle.Term{Field: "text", Term: "fa"}, oracle.Term{Field: "text", Term: "r"},
			oracle.Term{Field: "text", Term: "fb"}, oracle.Term{Field: "text", Term: "fc"},
		})
		if len(want) != 6 || len(common) <= len(want) || len(common) >= len(lead) {
			t.Fatalf("n=%d: oracle: %d hits, %d documents with every term, of %d with r: the corpus is built for 6 hits and a few more with every term",
				n, len(want), len(common), len(lead))
		}
		path := build(t, docs, options(100, "text")) // no zstd unit: every unit is read by blocks
		for _, name := range []string{"mapped", "ReaderAt"} {
			s := open(t, path)
			if name == "ReaderAt" {
				s = openReaderAt(t, path)
			}
			var p reader.Profile
			got, err := s.Docs(bg, reader.Phrase("text", terms...), &reader.SearchOptions{NoPairs: true, Profile: &p})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("n=%d %s: docs %v, want %v", n, name, got, want)
			}
			l, v := int64(len(lead)), int64(len(common))
			others := int64(len(terms) - 1)
			if p.DocBlocksRead == 0 || p.DocBlocksRead > others*l {
				t.Errorf("n=%d %s: %d doc blocks decoded, want 1..%d (one per other term and document of r)", n, name, p.DocBlocksRead, others*l)
			}
			if maxDocs := others*l*128 + l; p.DocsDecoded > maxDocs {
				t.Errorf("n=%d %s: %d doc ids decoded, want <= %d (a window of fa, fb or fc is never decoded whole)", n, name, p.DocsDecoded, maxDocs)
			}
			units := p.Frames[0] + p.Frames[1] + p.Frames[2]
			if units == 0 || units > int64(len(terms))*v {
				t.Errorf("n=%d %s: %d .prx units parsed, want 1..%d (one per term and document with every term)", n, name, units, int64(len(terms))*v)
			}
			if p.Blocks == 0 || p.Blocks > 2*int64(len(terms))*v {
				t.Errorf("n=%d %s: %d position blocks decoded, want 1..%d", n, name, p.Blocks, 2*int64(len(terms))*v)
			}
			t.Logf("n=%d %s: %d docs with r, %d with every term, %d hits: %d doc blocks, %d doc ids, %d units, %d position blocks",
				n, name, l, v, len(want), p.DocBlocksRead, p.DocsDecoded, units, p.Blocks)
		}
	}
}
