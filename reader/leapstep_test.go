package reader_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/snii-go/snii/internal/testkit/oracle"
	"github.com/snii-go/snii/reader"
)

// TestLeapStepsInline: in "a b c" with a in every third document and b, c in
// every one, each candidate of the lead a is three documents past the
// previous one in b's and c's lists. The leapfrog's inline steps (step and
// stepOn) reach it without advance, which then runs only where a list's
// decoded block or window ends: far fewer times than there are candidates
// (two per candidate when the steps look at two documents only). The
// answers equal the oracle's.
func TestLeapStepsInline(t *testing.T) {
	const n = 3000
	var docs []oracle.Doc
	for i := range n {
		text := "b c"
		if i%3 == 0 {
			text = "a b c"
		}
		docs = append(docs, oracle.Doc{{Name: "text", Values: []string{text}}})
	}
	c := corpusOf(docs)
	s := open(t, build(t, docs, options(-1, "text")))
	q := reader.Phrase("text", "a", "b", "c")
	want := c.Eval(oracle.Phrase{Field: "text", Terms: []string{"a", "b", "c"}})
	got, err := s.Docs(bg, q, &reader.SearchOptions{NoPairs: true})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, got, cmpopts.EquateEmpty()); d != "" {
		t.Errorf("docs differ from the oracle (-want +got):\n%s", d)
	}
	cnt, advances, _, err := reader.LeapCounts(s, q)
	if err != nil {
		t.Fatal(err)
	}
	if cnt != uint64(len(want)) {
		t.Errorf("count %d, want %d", cnt, len(want))
	}
	if bound := int64(len(want) / 8); advances > bound {
		t.Errorf("the leapfrog called advance %d times for %d candidates, want at most %d", advances, len(want), bound)
	}
	t.Logf("%d candidates, %d advance calls", len(want), advances)
}
