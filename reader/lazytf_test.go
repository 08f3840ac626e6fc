package reader_test

import (
	"testing"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/snii-go/snii/internal/testkit/oracle"
	"github.com/snii-go/snii/reader"
	"github.com/snii-go/snii/writer"
)

// TestImpliedTermNotRead: in "a b c", the kept pair (a, b) holds in every
// candidate and a occurs once in each, so b is implied (its position is
// a's plus one) and its .prx window is never opened, not even for its term
// frequency: the phrase reads the windows of a and c only, in the leapfrog
// and, under a filter, in the staged conjunction. Without pairs it reads all
// three. (b c) is adjacent in one document only, under the pairs' minimum df:
// no chain proves a candidate. The answers equal the oracle's.
func TestImpliedTermNotRead(t *testing.T) {
	var docs []oracle.Doc
	for i := range 40 {
		text := "a b x c"
		switch {
		case i == 17:
			text = "y a b c"
		case i%5 == 3:
			text = "c x a b b" // b twice: implied all the same
		}
		docs = append(docs, oracle.Doc{{Name: "text", Values: []string{text}}})
	}
	c := corpusOf(docs)
	s := open(t, build(t, docs, pairOptions(writer.Pairs{Percent: 100, MinDF: 2}, "text")))
	all := roaring.New()
	all.AddRange(0, uint64(len(docs)))
	want := c.Eval(oracle.Phrase{Field: "text", Terms: []string{"a", "b", "c"}})
	if len(want) != 1 {
		t.Fatalf("oracle: %d matches, the corpus is built for 1", len(want))
	}
	for _, o := range []struct {
		name    string
		filter  *roaring.Bitmap
		noPairs bool
		windows int64
	}{
		{"leapfrog", nil, false, 2},
		{"filter", all, false, 2},
		{"leapfrog, no pairs", nil, true, 3},
		{"filter, no pairs", all, true, 3},
	} {
		var p reader.Profile
		got, err := s.Docs(bg, reader.Phrase("text", "a", "b", "c"), &reader.SearchOptions{Filter: o.filter, NoPairs: o.noPairs, Profile: &p})
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(want, got, cmpopts.EquateEmpty()); d != "" {
			t.Errorf("%s: docs differ from the oracle (-want +got):\n%s", o.name, d)
		}
		if !o.noPairs && p.PairPlans != 1 {
			t.Errorf("%s: %d pair plans, want 1", o.name, p.PairPlans)
		}
		if p.WindowsRead != o.windows {
			t.Errorf("%s: %d .prx windows read, want %d", o.name, p.WindowsRead, o.windows)
		}
	}
}

// TestUnreadTermNotParsed: in "a b c" of the leapfrog, a candidate that the
// check of b rules out does not parse c's .prx unit: c's frequency is read
// only when a and b line up. Every candidate but the last holds "b x a y c"
// (b before a); c, in many more documents, spans several units, and only
// the match's is parsed: "a b c" parses one unit more than "a b" and reads
// one term frequency more per match (each unit of c holds hundreds of
// documents). The answers equal the oracle's.
func TestUnreadTermNotParsed(t *testing.T) {
	var docs []oracle.Doc
	for i := range 3000 {
		text := "c z"
		switch {
		case i == 2990:
			text = "a b c"
		case i%10 == 0:
			text = "b x a y c"
		case i%10 == 5:
			text = "b c"
		}
		docs = append(docs, oracle.Doc{{Name: "text", Values: []string{text}}})
	}
	c := corpusOf(docs)
	s := open(t, build(t, docs, options(-1, "text")))
	frames := func(p *reader.Profile) int64 { return p.Frames[0] + p.Frames[1] + p.Frames[2] }
	var two, three reader.Profile
	for _, q := range []struct {
		terms []string
		p     *reader.Profile
	}{{[]string{"a", "b"}, &two}, {[]string{"a", "b", "c"}, &three}} {
		got, err := s.Docs(bg, reader.Phrase("text", q.terms...), &reader.SearchOptions{NoPairs: true, Profile: q.p})
		if err != nil {
			t.Fatal(err)
		}
		want := c.Eval(oracle.Phrase{Field: "text", Terms: q.terms})
		if len(want) != 1 {
			t.Fatalf("%q: oracle: %d matches, the corpus is built for 1", q.terms, len(want))
		}
		if d := cmp.Diff(want, got, cmpopts.EquateEmpty()); d != "" {
			t.Errorf("%q: docs differ from the oracle (-want +got):\n%s", q.terms, d)
		}
	}
	if frames(&three) != frames(&two)+1 || three.TotalDocs > two.TotalDocs+512 {
		t.Errorf(`"a b c" parsed %d units (%d term frequencies), "a b" %d (%d): want one unit of c more, the match's`,
			frames(&three), three.TotalDocs, frames(&two), two.TotalDocs)
	}
}
