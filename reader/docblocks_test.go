package reader_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/snii-go/snii/internal/oracle"
	"github.com/snii-go/snii/reader"
)

// largeWindowDocs is a corpus whose term "alpha" is in every one of n docs,
// three times (so its windows hold 1,024 docs, in 128-doc blocks, and their
// positions span several units of 8 position blocks), and "beta" is in the
// docs of cands only: after "alpha" in all but the last, before it in the
// last (a candidate that does not match).
func largeWindowDocs(n int, cands []int) []oracle.Doc {
	r := rand.New(rand.NewPCG(21, 22))
	docs := make([]oracle.Doc, n)
	for i := range docs {
		var b strings.Builder
		for k := range 3 {
			fmt.Fprintf(&b, "w%d ", r.IntN(40))
			if k == 1 {
				switch j := slices.Index(cands, i); {
				case j == len(cands)-1:
					b.WriteString("beta alpha ")
					continue
				case j >= 0:
					b.WriteString("alpha beta ")
					continue
				}
			}
			b.WriteString("alpha ")
		}
		docs[i] = oracle.Doc{{Name: "text", Values: []string{b.String()}}}
	}
	return docs
}

// TestPhraseDecodesOnlyCandidateBlocks is issue 11's counter gate: on a
// segment whose frequent term has 1,024-doc windows, a phrase whose candidates
// are k documents decodes only the doc blocks and the position blocks that hold
// those documents, never a whole window.
func TestPhraseDecodesOnlyCandidateBlocks(t *testing.T) {
	const n = 9000
	cands := []int{130, 3000, 3001, 5555, 8999, 4200}
	docs := largeWindowDocs(n, cands)
	c := corpusOf(docs)
	want := c.Eval(oracle.Phrase{Field: "text", Terms: []string{"alpha", "beta"}})
	if len(want) != len(cands)-1 {
		t.Fatalf("oracle: %d hits, want %d", len(want), len(cands)-1)
	}
	path := build(t, docs, options(100, "text")) // no zstd unit: every unit is read by blocks
	for _, name := range []string{"mapped", "ReaderAt"} {
		s := open(t, path)
		if name == "ReaderAt" {
			s = openReaderAt(t, path)
		}
		q := reader.Phrase("text", "alpha", "beta")
		var p reader.Profile
		got, err := s.Docs(bg, q, &reader.SearchOptions{Profile: &p})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%s: docs %v, want %v", name, got, want)
		}
		k := int64(len(cands))
		// alpha: at most one 128-doc block per candidate; beta: its one window.
		if p.DocBlocksRead == 0 || p.DocBlocksRead > k {
			t.Errorf("%s: %d doc blocks decoded for %d candidates", name, p.DocBlocksRead, k)
		}
		if maxDocs := k*128 + k; p.DocsDecoded > maxDocs {
			t.Errorf("%s: %d doc ids decoded, want <= %d (a 1,024-doc window is never decoded whole)", name, p.DocsDecoded, maxDocs)
		}
		// Positions: each candidate's positions of alpha (3 values) and beta
		// (1) lie in at most two 128-value blocks per term.
		if p.Blocks > 4*k || p.DecodedPositions > 4*k*128 {
			t.Errorf("%s: %d position blocks (%d positions) decoded for %d candidates", name, p.Blocks, p.DecodedPositions, k)
		}
		if p.Blocks == 0 {
			t.Errorf("%s: no position block counted", name)
		}
		t.Logf("%s: %+v", name, p)
	}
}

func openReaderAt(t *testing.T, path string) *reader.Segment {
	t.Helper()
	s, err := reader.Open(path, reader.Options{NoMmap: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}
