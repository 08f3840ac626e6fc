package reader_test

import (
	"fmt"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/snii-go/snii/internal/testkit/oracle"
	"github.com/snii-go/snii/reader"
	"github.com/snii-go/snii/writer"
)

// replayDocs is a corpus for "a b c d e" where the pairs prove part of the
// phrase: in most documents a and b occur three times ("a b a b c d e ...
// a b"), c, d and e once, and every adjacent couple stands side by side, so
// the pairs hold in every candidate, c implies b and d, and a and e are
// checked from positions. Traps hold every couple but not the phrase (a
// two before c missing, e two after c missing); some documents hold c
// twice (nothing implied from c: the verification changes shape and back).
func replayDocs(n int) []oracle.Doc {
	var docs []oracle.Doc
	for i := range n {
		text := "x a b a b c d e y a b"
		switch {
		case i%7 == 3:
			text = "a b x b c d e y a b" // a not two before c
		case i%11 == 5:
			text = "a b a b c d x d e a b" // e not two after c
		case i%37 == 7:
			text = "a b a b c d e c a b" // c twice: a match, nothing implied
		case i%41 == 8:
			text = "a b q b c d x d e a b c" // c twice, no match
		case i%19 == 9:
			text = "a b d e z c" // no couple but a b and d e: not a candidate
		}
		docs = append(docs, oracle.Doc{{Name: "text", Values: []string{text}}})
	}
	return docs
}

// TestReplayOracle: a phrase whose pairs prove part of it, with repeated
// terms, implied slots and documents that change the verification's shape,
// equals the oracle in the leapfrog, under a filter (the staged plan, which
// replays a candidate's verification on the next), with and without the
// pairs, counted and listed, and under a limit.
func TestReplayOracle(t *testing.T) {
	docs := replayDocs(3000)
	c := corpusOf(docs)
	s := open(t, build(t, docs, pairOptions(writer.Pairs{Percent: 100, MinDF: 2}, "text")))
	most := roaring.New() // every doc but 0: a filter (every doc would be none)
	most.AddRange(1, uint64(len(docs)))
	some := roaring.New()
	for i := 0; i < len(docs); i += 3 {
		some.Add(uint32(i))
	}
	for _, terms := range [][]string{
		{"a", "b", "c", "d", "e"},
		{"b", "c", "d", "e"},
		{"a", "b", "c", "d"},
		{"b", "a", "b", "c", "d"},
	} {
		want := c.Eval(oracle.Phrase{Field: "text", Terms: terms})
		if len(want) == 0 {
			t.Fatalf("%q: the oracle finds no match", terms)
		}
		for _, o := range []struct {
			name    string
			filter  *roaring.Bitmap
			noPairs bool
			limit   int
		}{
			{"leapfrog", nil, false, 0},
			{"filter", most, false, 0},
			{"filter, every third", some, false, 0},
			{"filter, limit", most, false, 100},
			{"filter, no pairs", most, true, 0},
		} {
			name := fmt.Sprintf("%q %s", terms, o.name)
			w := want
			if o.filter != nil {
				w = nil
				for _, d := range want {
					if o.filter.Contains(d) {
						w = append(w, d)
					}
				}
			}
			if o.limit > 0 && len(w) > o.limit {
				w = w[:o.limit]
			}
			opts := &reader.SearchOptions{Filter: o.filter, NoPairs: o.noPairs, Limit: o.limit}
			got, err := s.Docs(bg, reader.Phrase("text", terms...), opts)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(w, got, cmpopts.EquateEmpty()); d != "" {
				t.Errorf("%s: docs differ from the oracle (-want +got):\n%s", name, d)
			}
			n, err := s.Count(bg, reader.Phrase("text", terms...), opts)
			if err != nil || n != uint64(len(w)) {
				t.Errorf("%s: count %d, %v; want %d", name, n, err, len(w))
			}
		}
	}
}

// TestReplayTFReads: under a filter (the staged plan), the candidates of
// "a b c d e" in replayDocs mostly hold c once, which implies b and d (the
// pairs hold in every candidate): a candidate verified like the one before
// reads the frequencies of a, c and e only, not of the implied b and d
// (their units are parsed for the few candidates where c occurs twice, and
// the verification of a candidate of one shape after the other reads more).
// Without the replay, every frequency whose unit is parsed is read: about
// four a candidate. With it, fewer than 3.5, and at least the three of a, c
// and e. The docs equal the oracle's.
func TestReplayTFReads(t *testing.T) {
	docs := replayDocs(3000)
	c := corpusOf(docs)
	s := open(t, build(t, docs, pairOptions(writer.Pairs{Percent: 100, MinDF: 2}, "text")))
	var ids []uint32
	for i := 1; i < len(docs); i++ { // all but doc 0: a filter that is not every document
		ids = append(ids, uint32(i))
	}
	terms := []string{"a", "b", "c", "d", "e"}
	got, reads, err := reader.PhraseTFReads(s, reader.Phrase("text", terms...), ids)
	if err != nil {
		t.Fatal(err)
	}
	var want []uint32
	for _, d := range c.Eval(oracle.Phrase{Field: "text", Terms: terms}) {
		if d != 0 {
			want = append(want, d)
		}
	}
	if d := cmp.Diff(want, got, cmpopts.EquateEmpty()); d != "" {
		t.Fatalf("docs differ from the oracle (-want +got):\n%s", d)
	}
	// The candidates: the docs holding every couple side by side (not
	// i%19 == 9), doc 0 filtered out.
	cands := int64(0)
	for i := 1; i < len(docs); i++ {
		if docs[i][0].Values[0] != "a b d e z c" {
			cands++
		}
	}
	if reads < 3*cands || 2*reads >= 7*cands {
		t.Errorf("%d term frequencies read for %d candidates: want at least 3 and fewer than 3.5 a candidate", reads, cands)
	}
}
