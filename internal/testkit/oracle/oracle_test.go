package oracle

import (
	"slices"
	"strings"
	"testing"
)

func TestTokenize(t *testing.T) {
	long := strings.Repeat("a", MaxTokenBytes+1)
	keep := strings.Repeat("b", MaxTokenBytes)
	cases := []struct {
		in    string
		terms []string
		pos   []uint32
		used  uint32
	}{
		{"", nil, nil, 0},
		{"  ,; ", nil, nil, 0},
		{"Hello, World!", []string{"hello", "world"}, []uint32{0, 1}, 2},
		{"ab\xffcd", []string{"ab", "cd"}, []uint32{0, 1}, 2},
		{"x² ½ ٣٤", []string{"x", "٣٤"}, []uint32{0, 1}, 2},
		{"ÉCOLE straße ΣΟΦΊΑ", []string{"école", "straße", "σοφία"}, []uint32{0, 1, 2}, 3},
		{"a " + long + " b", []string{"a", "b"}, []uint32{0, 2}, 3},
		{keep, []string{keep}, []uint32{0}, 1},
		{"foo_bar-baz9", []string{"foo", "bar", "baz9"}, []uint32{0, 1, 2}, 3},
		{"\uFFFDx", []string{"x"}, []uint32{0}, 1},
	}
	for _, c := range cases {
		toks, used := Tokenize(c.in)
		var terms []string
		var pos []uint32
		for _, tk := range toks {
			terms = append(terms, tk.Term)
			pos = append(pos, tk.Pos)
		}
		if !slices.Equal(terms, c.terms) || !slices.Equal(pos, c.pos) || used != c.used {
			t.Errorf("Tokenize(%q) = %q %v used %d, want %q %v used %d", c.in, terms, pos, used, c.terms, c.pos, c.used)
		}
	}
}

func TestQueries(t *testing.T) {
	c := New()
	c.Add(Doc{{"f", []string{"a b c", "d e"}}})                         // 0: d at 103
	c.Add(Doc{{"f", []string{"a a b"}}})                                // 1
	c.Add(Doc{{"f", []string{"c b a"}}})                                // 2
	c.Add(Doc{{"g", []string{"a b"}}})                                  // 3: other field
	c.Add(Doc{{"f", []string{"alpha alps b"}}})                         // 4
	c.Add(Doc{{"f", []string{"a " + strings.Repeat("z", 300) + " b"}}}) // 5: skipped token between
	if got := c.Positions(0, "f", "d"); !slices.Equal(got, []uint32{103}) {
		t.Fatalf("positions of d = %v, want [103]", got)
	}
	cases := []struct {
		q    Query
		want []uint32
	}{
		{Term{"f", "a"}, []uint32{0, 1, 2, 5}},
		{Term{"g", "a"}, []uint32{3}},
		{Term{"f", "nope"}, []uint32{}},
		{Phrase{"f", []string{"a", "b"}}, []uint32{0, 1}},
		{Phrase{"f", []string{"b", "a"}}, []uint32{2}},
		{Phrase{"f", []string{"a", "a", "b"}}, []uint32{1}},
		{Phrase{"f", []string{"a", "a"}}, []uint32{1}},
		{Phrase{"f", []string{"c", "d"}}, []uint32{}}, // spans two values
		{Phrase{"f", nil}, []uint32{}},
		{PhrasePrefix{"f", []string{"al"}, 0}, []uint32{4}},
		{PhrasePrefix{"f", []string{"alpha", "al"}, 0}, []uint32{4}},
		{PhrasePrefix{"f", []string{"alpha", "al"}, 1}, []uint32{}}, // only "alpha"
		{PhrasePrefix{"f", []string{"a", "b"}, 1}, []uint32{0, 1}},
		{Prefix{"f", "al", 1}, []uint32{4}},
		{Prefix{"f", "", 0}, []uint32{0, 1, 2, 4, 5}},
		{Prefix{"f", "", 1}, []uint32{0, 1, 2, 5}}, // first term "a"
		{And{Term{"f", "a"}, Term{"f", "c"}}, []uint32{0, 2}},
		{Or{Term{"f", "c"}, Term{"g", "b"}, Term{"f", "alps"}}, []uint32{0, 2, 3, 4}},
		{And{}, []uint32{}},
	}
	for _, k := range cases {
		if got := c.Eval(k.q); !slices.Equal(got, k.want) {
			t.Errorf("%s = %v, want %v", k.q, got, k.want)
		}
	}
	if got := c.Expand("f", "a", 0); !slices.Equal(got, []string{"a", "alpha", "alps"}) {
		t.Errorf("Expand = %q", got)
	}
}

func TestGenerate(t *testing.T) {
	docs := Generate(1, GenOptions{Docs: 300})
	if len(docs) != 300 || !slices.EqualFunc(docs[:5], Generate(1, GenOptions{Docs: 300})[:5], func(a, b Doc) bool {
		return a[0].Values[0] == b[0].Values[0]
	}) {
		t.Fatal("Generate is not deterministic or has the wrong size")
	}
	c := New()
	for _, d := range docs {
		c.Add(d)
	}
	g := NewGen(c, "text", 3)
	hits := 0
	for i := 0; i < 100; i++ {
		q := g.Phrase().(Phrase)
		if len(q.Terms) < 1 {
			t.Fatalf("empty phrase drawn")
		}
		if len(c.Eval(q)) > 0 {
			hits++
		}
		cv := g.CrossValue()
		if got := c.Eval(cv); len(got) > 0 {
			// cross-value phrases can only match elsewhere; they never match across the gap
			for _, d := range got {
				if len(c.Sequence(d, "text")) == 0 {
					t.Fatalf("%s matched doc %d without the field", cv, d)
				}
			}
		}
	}
	if hits != 100 {
		t.Fatalf("phrases taken from documents hit %d/100 times", hits)
	}
}
