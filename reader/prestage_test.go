package reader_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/snii-go/snii/internal/testkit/oracle"
	"github.com/snii-go/snii/reader"
)

// TestPhrasePrefixPreStage: a phrase prefix whose most common term ("the",
// in every document) is far more common than the candidates its rarer slots
// leave ("req" and an expansion of "at": 150 documents, 1 in 90) checks
// "req at*" at its offsets before collecting "the", so "the" is decoded only
// around the 50 documents that pass, not the 150 candidates. Half of the 50
// fail the whole phrase ("the" after them), and the answers, with and without
// a limit, equal the oracle's.
func TestPhrasePrefixPreStage(t *testing.T) {
	const n, every = 13500, 90
	var docs []oracle.Doc
	for i := range n {
		text := "the other words here"
		if i%every == 0 {
			switch k := i / every; {
			case k%6 == 0:
				text = "the req ata zz" // a match
			case k%6 == 3:
				text = "x req atb the" // "req at*" without "the" before it
			case k%3 == 1:
				text = "the req zz ata"
			default:
				text = "ata req the"
			}
		}
		docs = append(docs, oracle.Doc{{Name: "text", Values: []string{text}}})
	}
	c := corpusOf(docs)
	s := open(t, build(t, docs, options(-1, "text")))
	terms := []string{"the", "req", "at"}
	want := c.Eval(oracle.PhrasePrefix{Field: "text", Terms: terms})
	if len(want) != n/every/6 {
		t.Fatalf("oracle: %d matches, the corpus is built for %d", len(want), n/every/6)
	}
	q := reader.PhrasePrefix("text", 0, terms...)
	var p reader.Profile
	got, err := s.Docs(bg, q, &reader.SearchOptions{Profile: &p, NoPairs: true})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, got, cmpopts.EquateEmpty()); d != "" {
		t.Fatalf("docs differ from the oracle (-want +got):\n%s", d)
	}
	// "the" is in every document: decoding it around each of the 150
	// candidates (one in 90 documents) decodes most of its 13,500 ids; around
	// the 50 that pass "req at*", about 50 blocks of 128.
	if limit := int64(2*n/every + 60*128); p.DocsDecoded > limit {
		t.Errorf("%d doc ids decoded, want at most %d", p.DocsDecoded, limit)
	}
	if p.DocsDecoded == 0 {
		t.Errorf("no doc id decoded: the profile does not count them")
	}
	got, err = s.Docs(bg, q, &reader.SearchOptions{Limit: 7, NoPairs: true})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want[:7], got, cmpopts.EquateEmpty()); d != "" {
		t.Fatalf("Limit 7: docs differ from the oracle's first (-want +got):\n%s", d)
	}
	// After sloppy phrases (query contexts are reused: their plans keep the
	// scratch of the last query), the pre-check's plan is exact.
	sloppy := reader.And(reader.SloppyPhrase("text", 2, "the", "words"), reader.SloppyPhrase("text", 2, "other", "here"), reader.SloppyPhrase("text", 1, "words", "the"))
	for range 3 {
		if _, err := s.Count(bg, sloppy, nil); err != nil {
			t.Fatal(err)
		}
		got, err = s.Docs(bg, q, &reader.SearchOptions{NoPairs: true})
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(want, got, cmpopts.EquateEmpty()); d != "" {
			t.Fatalf("after sloppy phrases: docs differ from the oracle (-want +got):\n%s", d)
		}
	}
	// "x req at*": 25 candidates, one in 540 documents (too sparse for a
	// ranked set of them: the expansions' docs are found by galloping).
	terms = []string{"x", "req", "at"}
	want = c.Eval(oracle.PhrasePrefix{Field: "text", Terms: terms})
	if len(want) != n/every/6 {
		t.Fatalf("oracle: %d matches of %q, the corpus is built for %d", len(want), terms, n/every/6)
	}
	got, err = s.Docs(bg, reader.PhrasePrefix("text", 0, terms...), &reader.SearchOptions{NoPairs: true})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, got, cmpopts.EquateEmpty()); d != "" {
		t.Fatalf("%q: docs differ from the oracle (-want +got):\n%s", terms, d)
	}
}
