package reader_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/snii-go/snii/internal/testkit/oracle"
	"github.com/snii-go/snii/reader"
)

// TestPhrasePrefixStreamsExpansions: the expansions of a phrase prefix are
// read only as far as the match needs. Every document holds three expansions
// of "us" 200 times each; "which" stands once, right before one of them
// (a match), before a non-expansion (no match), or at the end after all of
// them (a match found past every other position). The answers equal the
// oracle's, and the positions read stay far below the 600 a merge of the
// expansions' positions reads per document, except in the documents whose
// only match is at their end.
func TestPhrasePrefixStreamsExpansions(t *testing.T) {
	many := strings.Repeat("use used user ", 200)
	var docs []oracle.Doc
	late := 0
	for i := range 60 {
		var text string
		switch i % 3 {
		case 0:
			text = "which usage " + many
		case 1:
			text = "which x " + many
		default:
			if i%9 == 2 { // the match at the very end
				text = many + "which usage"
				late++
			} else { // the list is the anchor (one expansion, "which" many times)
				text = strings.Repeat("which ", 50) + "which usual"
			}
		}
		docs = append(docs, oracle.Doc{{Name: "text", Values: []string{text}}})
	}
	c := corpusOf(docs)
	s := open(t, build(t, docs, options(-1, "text")))
	q := oracle.PhrasePrefix{Field: "text", Terms: []string{"which", "us"}}
	want := c.Eval(q)
	if len(want) != 40 {
		t.Fatalf("oracle: %d matches, the corpus is built for 40", len(want))
	}
	var p reader.Profile
	got, err := s.Docs(bg, reader.PhrasePrefix("text", 0, "which", "us"), &reader.SearchOptions{Profile: &p})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, got, cmpopts.EquateEmpty()); d != "" {
		t.Fatalf("docs differ from the oracle (-want +got):\n%s", d)
	}
	// A late match reads every position of the expansions (600) and of
	// "which" (1); the others at most a few each: the first position of each
	// expansion and of "which", or the 51 of "which" and one of "usual".
	if limit := int64(late*601 + (len(docs)-late)*60); p.SelectedPositions > limit {
		t.Errorf("%d positions read, want at most %d", p.SelectedPositions, limit)
	}
	if p.SelectedPositions == 0 {
		t.Errorf("no position read: the profile does not count them")
	}
}

// TestPhrasePrefixCandidateSet: the expansions of a phrase prefix are
// collected against many candidates through a set of them, each expansion's
// docs probed once (Profile.DocsVisited is their sum), not merged with the
// candidates once per expansion (twice as many). The answers equal the
// oracle's.
func TestPhrasePrefixCandidateSet(t *testing.T) {
	const n, exps = 1000, 10
	var docs []oracle.Doc
	for i := range n {
		text := "a b0 b1 b2 b3 b4 b5 b6 b7 b8 b9"
		if i%4 == 1 {
			text = "b0 b1 b2 b3 b4 b5 b6 b7 b8 b9 a" // a not before an expansion
		}
		docs = append(docs, oracle.Doc{{Name: "text", Values: []string{text}}})
	}
	c := corpusOf(docs)
	s := open(t, build(t, docs, options(-1, "text")))
	want := c.Eval(oracle.PhrasePrefix{Field: "text", Terms: []string{"a", "b"}})
	if len(want) != n*3/4 {
		t.Fatalf("oracle: %d matches, the corpus is built for %d", len(want), n*3/4)
	}
	var p reader.Profile
	got, err := s.Docs(bg, reader.PhrasePrefix("text", 0, "a", "b"), &reader.SearchOptions{Profile: &p, NoPairs: true})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, got, cmpopts.EquateEmpty()); d != "" {
		t.Fatalf("docs differ from the oracle (-want +got):\n%s", d)
	}
	if p.DocsVisited < n*exps || p.DocsVisited > n*exps*5/4 {
		t.Errorf("%d docs visited, want the expansions' %d (at most a quarter more)", p.DocsVisited, n*exps)
	}
}
