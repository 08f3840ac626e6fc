package reader_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/snii-go/snii/internal/errs"
	"github.com/snii-go/snii/internal/testkit/oracle"
	"github.com/snii-go/snii/reader"
)

// TestMatch: Match analyzes raw text with the field's analyzer, so it finds
// what the tokens Term and Phrase take would miss; text without tokens, an
// unknown field and a closed segment are errors of one kind each.
func TestMatch(t *testing.T) {
	doc := func(text, host string) oracle.Doc {
		return oracle.Doc{{Name: "text", Values: []string{text}}, {Name: "host", Values: []string{host}}}
	}
	docs := []oracle.Doc{
		doc("Connection Refused by db-3", "Web-01"),
		doc("connection reset", "web-02"),
		doc("refused: CONNECTION", "Web-01"),
	}
	s := open(t, build(t, docs, options(0, "host", "text")))
	c := corpusOf(docs)
	for _, tc := range []struct {
		field, text string
		want        oracle.Query
	}{
		{"text", "Connection  REFUSED!", oracle.Phrase{Field: "text", Terms: []string{"connection", "refused"}}},
		{"text", "CONNECTION", oracle.Term{Field: "text", Term: "connection"}},
		{"host", "WEB-01", oracle.Phrase{Field: "host", Terms: []string{"web", "01"}}},
	} {
		q, err := s.Match(tc.field, tc.text)
		if err != nil {
			t.Fatalf("Match(%q, %q): %v", tc.field, tc.text, err)
		}
		if q.String() != rq(tc.want).String() {
			t.Errorf("Match(%q, %q) = %s, want %s", tc.field, tc.text, q, rq(tc.want))
		}
		got, err := s.Docs(bg, q, nil)
		if err != nil {
			t.Fatal(err)
		}
		if want := c.Eval(tc.want); !slices.Equal(got, want) || len(want) == 0 {
			t.Errorf("Match(%q, %q): docs %v, oracle %v", tc.field, tc.text, got, want)
		}
	}
	// The raw text as tokens matches nothing: the trap Match avoids.
	if n, err := s.Count(bg, reader.Term("text", "Refused"), nil); err != nil || n != 0 {
		t.Fatalf("Term(\"Refused\"): %d, %v", n, err)
	}
	for _, tc := range []struct {
		field, text string
		kind        error
	}{
		{"text", "!! --", errs.InvalidArgument},
		{"nope", "connection", errs.NotFound},
	} {
		_, err := s.Match(tc.field, tc.text)
		if !errors.Is(err, tc.kind) || len(errs.Kinds(err)) != 1 {
			t.Errorf("Match(%q, %q): %v, want an error of kind %v", tc.field, tc.text, err, tc.kind)
		}
		shapeOK(t, "Match", err)
	}
	closed := open(t, build(t, docs, options(0, "host", "text")))
	closed.Close()
	if _, err := closed.Match("text", "connection"); !errors.Is(err, errs.Closed) || len(errs.Kinds(err)) != 1 {
		t.Errorf("Match after Close: %v", err)
	}
}
