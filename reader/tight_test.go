package reader_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/snii-go/snii/internal/testkit/oracle"
	"github.com/snii-go/snii/reader"
	"github.com/snii-go/snii/writer"
)

// TestTightPhrases: every document of one to six words over {a, b, c}, and
// phrases repeating a term. Many documents hold each phrase term exactly as
// often as the phrase does, which verifyLeap decides from one start (the
// tight case), in every order and with every gap; the others go through
// matchMixed or matchStream. Docs and Count must equal the oracle with the
// pairs planned (terms implied) and without.
func TestTightPhrases(t *testing.T) {
	words := []string{"a", "b", "c"}
	var docs []oracle.Doc
	var gen func(prefix []string)
	gen = func(prefix []string) {
		if len(prefix) > 0 {
			docs = append(docs, oracle.Doc{{Name: "text", Values: []string{strings.Join(prefix, " ")}}})
		}
		if len(prefix) == 6 {
			return
		}
		for _, w := range words {
			gen(append(prefix[:len(prefix):len(prefix)], w))
		}
	}
	gen(nil)
	c := corpusOf(docs)
	phrases := [][]string{
		{"a", "a"}, {"a", "a", "b"}, {"a", "b", "a"}, {"b", "a", "a"}, {"a", "a", "a"},
		{"a", "b", "a", "b"}, {"a", "b", "c", "a"}, {"c", "a", "a", "b"}, {"a", "b", "b", "a"},
		{"a", "b", "c"}, {"c", "b"},
	}
	for _, o := range []struct {
		name string
		opt  writer.Options
	}{
		{"plain", options(-1, "text")},
		{"pairs", pairOptions(writer.Pairs{Percent: 100, MinDF: 2}, "text")},
	} {
		s := open(t, build(t, docs, o.opt))
		for _, terms := range phrases {
			for _, noPairs := range []bool{false, true} {
				want := c.Eval(oracle.Phrase{Field: "text", Terms: terms})
				so := &reader.SearchOptions{NoPairs: noPairs}
				got, err := s.Docs(bg, reader.Phrase("text", terms...), so)
				if err != nil {
					t.Fatal(err)
				}
				if d := cmp.Diff(want, got, cmpopts.EquateEmpty()); d != "" {
					t.Errorf("%s, NoPairs %v, %q: docs differ from the oracle (-want +got):\n%s", o.name, noPairs, terms, d)
				}
				n, err := s.Count(bg, reader.Phrase("text", terms...), so)
				if err != nil {
					t.Fatal(err)
				}
				if n != uint64(len(want)) {
					t.Errorf("%s, NoPairs %v, %q: count %d, oracle %d", o.name, noPairs, terms, n, len(want))
				}
			}
		}
	}
}
