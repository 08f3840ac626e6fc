package reader_test

import (
	"testing"

	"github.com/snii-go/snii/reader"
)

// TestExplanationString renders sums (nested, one clause), BM25 leaves with
// and without a document frequency, and constant scores.
func TestExplanationString(t *testing.T) {
	e := &reader.Explanation{Query: "or(a, and(b))", Score: 3.5, Children: []reader.Explanation{
		{Query: `term(text:"a")`, Score: 2, IDF: 1.5, Freq: 2, FieldLength: 3, AvgFieldLength: 4, DocCount: 10, DocFreq: 2, K1: 1.2, B: 0.75},
		{Query: "and(b)", Score: 1.5, Children: []reader.Explanation{
			{Query: `phrase(text:"b c")`, Score: 1.5, IDF: 2, Freq: 1, FieldLength: 1, AvgFieldLength: 2, DocCount: 10, K1: 1.2, B: 0.75},
		}},
	}}
	want := `3.5 = sum of 2 matching clauses of or(a, and(b))
  2 = term(text:"a"): idf 1.5 (N 10, df 2) · freq 2 / (freq + k1 1.2 · (1 - b 0.75 + b · field length 3 / avg 4))
  1.5 = sum of 1 matching clause of and(b)
    1.5 = phrase(text:"b c"): idf 2 (N 10) · freq 1 / (freq + k1 1.2 · (1 - b 0.75 + b · field length 1 / avg 2))`
	if got := e.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	c := &reader.Explanation{Query: `prefix(text:"x"*,max=0)`, Score: 1}
	if got, want := c.String(), `1 = prefix(text:"x"*,max=0) (constant score)`; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
