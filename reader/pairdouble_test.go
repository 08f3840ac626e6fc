package reader_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/snii-go/snii/analysis"
	"github.com/snii-go/snii/internal/testkit/oracle"
	"github.com/snii-go/snii/reader"
	"github.com/snii-go/snii/writer"
)

// TestPairsChainDouble: a phrase whose inner term repeats side by side
// ("err out out", "err out out end", "out out end") and whose adjacent pairs
// are all kept, planned with the pairs' lists, matches a candidate where the
// double's term occurs exactly twice from the pair lists and term
// frequencies alone (Profile.PairProved counts exactly those); a candidate
// where it occurs more often has its positions verified, and one holding
// every pair but not the phrase does not match. Docs equal the oracle's,
// with pairs and without.
func TestPairsChainDouble(t *testing.T) {
	var docs []oracle.Doc
	proved := map[string]int{}
	for i := 0; i < 3000; i++ {
		var v string
		switch i % 10 {
		case 0: // the double twice in all: proved
			v = "x err out out end y"
			proved["err out out"]++
			proved["err out out end"]++
			proved["out out end"]++
		case 1: // a third out, and a match: positions decide
			v = "err out out end z out"
		case 2: // every pair of the phrases, around three outs: no match
			v = "err out z out out q out end"
		case 3: // the double ends the value; "out end" apart
			v = "end q err out out"
			proved["err out out"]++
		case 4: // the double across two values is no pair
			v = "err out|out end"
		default: // the terms, no pair: many candidates the lists rule out
			v = "out q err r end s out"
		}
		docs = append(docs, oracle.Doc{{Name: "text", Values: strings.Split(v, "|")}})
	}
	c := corpusOf(docs)
	s := open(t, build(t, docs, pairOptions(writer.Pairs{Percent: 100, MinDF: 2}, "text")))
	checkListPair(t, s, "out", "out", 1200)
	for _, terms := range [][]string{{"err", "out", "out"}, {"err", "out", "out", "end"}, {"out", "out", "end"}} {
		want, pr := checkPhraseDocs(t, s, c, terms)
		name := strings.Join(terms, " ")
		if pr.PairPlans != 1 || pr.PairProved != int64(proved[name]) || pr.SelectedPositions == 0 {
			t.Errorf("%q: %d pair plans, %d proved by pairs, %d positions read; want 1, %d and some", terms, pr.PairPlans, pr.PairProved, pr.SelectedPositions, proved[name])
		}
		n, err := s.Count(bg, reader.Phrase("text", terms...), &reader.SearchOptions{NoPairs: true})
		if err != nil || n != uint64(len(want)) {
			t.Errorf("%q without pairs: %d, %v; want %d", terms, n, err, len(want))
		}
	}
}

// fusedAnalyzer splits on whitespace and emits the word "ab" as two terms,
// "a" and "b", at its one position.
const fusedAnalyzer = "test-pairs-fused"

func init() {
	analysis.Register(fusedAnalyzer, 1, func(analysis.Spec) (analysis.Analyzer, error) { return fused{}, nil })
}

type fused struct{}

func (fused) Analyze(text string, emit func(term []byte, pos uint32)) (uint32, uint32) {
	words := strings.Fields(text)
	for i, w := range words {
		if w == "ab" {
			emit([]byte("a"), uint32(i))
			emit([]byte("b"), uint32(i))
			continue
		}
		emit([]byte(w), uint32(i))
	}
	return uint32(len(words)), 0
}

// TestPairsChainDoubleSharedPositions: with an analyzer that puts two terms
// at one position, "ab b" holds the pairs "a b" and "b b" and b twice, but
// not the phrase "a b b": no chain proves a double there.
func TestPairsChainDoubleSharedPositions(t *testing.T) {
	o := pairOptions(writer.Pairs{Percent: 100, MinDF: 2}, "text")
	o.Fields[0].Analyzer = fusedAnalyzer
	var wds []writer.Document
	var want []uint32
	for i := 0; i < 2000; i++ {
		v := "a q b r b"
		switch i % 4 {
		case 0:
			v = "ab b"
		case 1:
			v = "a b b"
			want = append(want, uint32(i))
		}
		wds = append(wds, writer.Document{Fields: []writer.Field{{Name: "text", Values: []string{v}}}})
	}
	s := buildDocs(t, o, wds)
	var pr reader.Profile
	got, err := s.Docs(bg, reader.Phrase("text", "a", "b", "b"), &reader.SearchOptions{Profile: &pr})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("%d docs (%v...), want %d (%v...)", len(got), got[:min(len(got), 4)], len(want), want[:4])
	}
	if pr.PairPlans != 1 || pr.PairProved != 0 {
		t.Errorf("profile %+v: want a pair plan proving nothing by pairs", pr)
	}
}
