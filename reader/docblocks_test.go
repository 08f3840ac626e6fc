package reader_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/snii-go/snii"
	"github.com/snii-go/snii/internal/codec/format"
	"github.com/snii-go/snii/internal/testkit"
	"github.com/snii-go/snii/internal/testkit/oracle"
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
		// The leapfrog (a phrase of terms) and the candidate conjunction (a
		// phrase prefix: its expansions are collected against the candidates).
		for _, q := range []reader.Query{reader.Phrase("text", "alpha", "beta"), reader.PhrasePrefix("text", 0, "alpha", "bet")} {
			checkCandidateBlocks(t, s, q, name, want, int64(len(cands)))
		}
	}
}

func checkCandidateBlocks(t *testing.T, s *reader.Segment, q reader.Query, name string, want []uint32, k int64) {
	t.Helper()
	{
		var p reader.Profile
		got, err := s.Docs(bg, q, &reader.SearchOptions{Profile: &p})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%s %s: docs %v, want %v", name, q, got, want)
		}
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
		t.Logf("%s %s: %+v", name, q, p)
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

// TestTopSkipsBlocksInFirstWindow: a term's top k skips the 128-doc blocks
// of a window whose bound (max tf, min norm) cannot beat the k-th score, the
// first window included: only the documents of the first block (until k are
// in) and of the one block holding better documents are scored.
func TestTopSkipsBlocksInFirstWindow(t *testing.T) {
	var docs []oracle.Doc
	for i := range 5000 {
		text := "common filler words here" // every document has 4 tokens
		if i >= 128 && i < 138 {
			text = "common filler common here" // tf 2, in block 1 of window 0
		}
		docs = append(docs, oracle.Doc{{Name: "text", Values: []string{text}}})
	}
	c := corpusOf(docs)
	s := open(t, build(t, docs, options(-1, "text")))
	q := oracle.Term{Field: "text", Term: "common"}
	checkTop(t, s, c, []oracle.Query{q}, []int{5}, reader.BM25{K1: 1.2, B: 0.75}, oracle.BM25Options{})
	var p reader.Profile
	hits, scored, err := reader.TopScored(s, bg, rq(q), 5, &reader.TopOptions{Profile: &p})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 5 || hits[0].Doc != 128 {
		t.Fatalf("hits %+v", hits)
	}
	// 5 of block 0 until k are in, then 128..132 of block 1; 133 onwards
	// cannot beat the 5th (equal scores, later docs).
	if scored > 10 {
		t.Errorf("%d documents scored, want <= 10 (blocks skipped by their bounds)", scored)
	}
	if p.DocBlocksRead > 2 || p.DocsDecoded > 2*128 {
		t.Errorf("%d doc blocks, %d doc ids decoded; want the first two blocks only", p.DocBlocksRead, p.DocsDecoded)
	}
}

// TestVerifyBlockImpacts: Verify recomputes each block's impact bounds; a
// looser (still valid) bound in a block directory, with the window's CRC
// fixed, leaves queries right but fails Verify naming the block.
func TestVerifyBlockImpacts(t *testing.T) {
	docs := make([]oracle.Doc, 600)
	for i := range docs {
		docs[i] = oracle.Doc{{Name: "text", Values: []string{fmt.Sprintf("alpha x%d", i%7)}}}
	}
	path := build(t, docs, options(-1, "text"))
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]uint32, 256)
	tf := make([]uint32, 256)
	norms := make([]byte, 600)
	for i := range ids {
		ids[i], tf[i] = uint32(i), 1
	}
	for i := range norms {
		norms[i] = 2
	}
	win, _ := format.AppendBlocked(nil, ids, 0, tf, norms, true, nil)
	at := bytes.Index(b, win)
	if at < 0 { // (windows 0 and 1 have the same bytes: gaps from their bases)
		t.Fatal("alpha's first window not found")
	}
	s := open(t, path)
	if err := s.Verify(bg); err != nil {
		t.Fatalf("intact: %v", err)
	}
	// enc | block 0: span 0, 1 impact: tf-1 0, norm 2 | block 1: ... | blocks
	if win[2] != 0 || win[3] != 0 || win[4] != 2 {
		t.Fatalf("directory % x", win[:8])
	}
	bad := slices.Clone(b)
	bad[at+3] = 1 // block 0's impact: tf 2
	binary.LittleEndian.PutUint32(bad[at+len(win)-4:], format.Checksum(bad[at:at+len(win)-4]))
	bs, err := openBytes(bad)
	if err != nil {
		t.Fatal(err)
	}
	defer bs.Close()
	if n, err := bs.Count(bg, reader.Term("text", "alpha"), nil); err != nil || n != 600 {
		t.Fatalf("count %d, %v", n, err)
	}
	err = bs.Verify(bg)
	if !errors.Is(err, snii.ErrCorrupt) || !strings.Contains(err.Error(), "block 0: impact bounds") {
		t.Fatalf("Verify: %v, want a corruption naming block 0's impact bounds", err)
	}
}

// TestOpenFormat3: a segment of format 3 (before blocked doc windows) fails to
// open with a version error that names its version and says to rebuild it.
func TestOpenFormat3(t *testing.T) {
	docs := []oracle.Doc{{{Name: "text", Values: []string{"a b"}}}}
	b, err := os.ReadFile(build(t, docs, options(-1, "text")))
	if err != nil {
		t.Fatal(err)
	}
	testkit.SetVersions(b, 3, 3)
	_, err = openBytes(b)
	if !errors.Is(err, snii.ErrVersion) || !strings.Contains(err.Error(), "format version 3") || !strings.Contains(err.Error(), "rebuild") {
		t.Fatalf("Open: %v, want a version error naming format version 3 and saying to rebuild", err)
	}
}
