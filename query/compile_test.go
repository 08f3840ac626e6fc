package query

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/snii-go/snii"
	"github.com/snii-go/snii/internal/querylang"
)

// words analyzes by lower-casing and splitting at spaces; fields other than
// "text" and "host" are unknown.
type words struct{}

var errNoField = fmt.Errorf("no such field: %w", snii.ErrNotFound)

func (words) Analyze(field, text string) ([]string, error) {
	if field != "text" && field != "host" {
		return nil, errNoField
	}
	return strings.Fields(strings.ToLower(strings.NewReplacer("!", " ", "-", " ").Replace(text))), nil
}

func TestCompile(t *testing.T) {
	for q, want := range map[string]string{
		`Error`:                  `term(text:"error")`,
		`"a b"~2`:                `phrase(text:"a b"~2)`,
		`"a"~2`:                  `term(text:"a")`,
		`a\ b`:                   `phrase(text:"a b")`,
		`"a b c*"`:               `phraseprefix(text:"a b c"*,max=5)`,
		`host:Web-01`:            `phrase(host:"web 01")`,
		`host:we*`:               `prefix(host:"we"*,max=5)`,
		`a -b`:                   `andnot(term(text:"a"), term(text:"b"))`,
		`a b -c NOT "d e"~1`:     `andnot(and(term(text:"a"), term(text:"b")), or(term(text:"c"), phrase(text:"d e"~1)))`,
		`a -(b OR c) OR d`:       `or(andnot(term(text:"a"), or(term(text:"b"), term(text:"c"))), term(text:"d"))`,
		`a -(b -c)`:              `andnot(term(text:"a"), andnot(term(text:"b"), term(text:"c")))`,
		`(a OR b) host:x -y`:     `andnot(and(or(term(text:"a"), term(text:"b")), term(host:"x")), term(text:"y"))`,
		`-a b`:                   `andnot(term(text:"b"), term(text:"a"))`,
		`"x y"~3 OR "z w*" -q`:   `or(phrase(text:"x y"~3), andnot(phraseprefix(text:"z w"*,max=5), term(text:"q")))`,
		`NOT\ A\ WORD AND hello`: `and(phrase(text:"not a word"), term(text:"hello"))`,
		`host:(x OR "y z"~1) a`:  `and(or(term(host:"x"), phrase(host:"y z"~1)), term(text:"a"))`,
		`host:(x -text:y)`:       `andnot(term(host:"x"), term(text:"y"))`,
		`Session~1`:              `fuzzy(text:"session"~1,max=5)`,
		`session~ host:a~0`:      `and(fuzzy(text:"session"~2,max=5), term(host:"a"))`,
	} {
		rq, err := Compile(q, words{}, Options{DefaultField: "text", MaxExpansions: 5})
		if err != nil {
			t.Errorf("%q: %v", q, err)
			continue
		}
		if rq.String() != want {
			t.Errorf("%q:\n got %s\nwant %s", q, rq, want)
		}
	}
}

func TestCompileErrors(t *testing.T) {
	for _, c := range []struct {
		q      string
		col    int
		want   string
		is     error
		syntax bool
	}{
		{`ok "!"`, 4, `"!" has no searchable terms for the analyzer of field "text"`, nil, false},
		{`ok nope:x`, 4, `nope:x: field "nope"`, snii.ErrNotFound, false},
		{`ok -(a nope:"x y")`, 8, `field "nope"`, snii.ErrNotFound, false},
		{`ok a-b~1`, 4, `a-b~1: a fuzzy term must be one term, and the analyzer of field "text" makes 2 of it (a b)`, nil, false},
		{`ok !~1`, 4, `!~1 has no searchable terms`, nil, false},
		{`ok "a b`, 8, `expected closing quote for the phrase opened at column 4`, nil, true},
		{`ok OR -b`, 7, `NOT inside OR excludes nothing`, nil, true},
	} {
		if c.is == nil {
			c.is = snii.ErrInvalidArgument
		}
		_, err := Compile(c.q, words{}, Options{DefaultField: "text"})
		var ce *Error
		if !errors.As(err, &ce) || ce.Column != c.col || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want column %d and %q", c.q, err, c.col, c.want)
		} else if ce.Syntax != c.syntax {
			t.Errorf("%q: Syntax %v, want %v", c.q, ce.Syntax, c.syntax)
		}
		if !errors.Is(err, c.is) || kinds(err) != 1 {
			t.Errorf("%q: %v is not %v alone", c.q, err, c.is)
		}
	}
	// The zero Options have no default field: bare text is an error, a text
	// naming its field is not.
	for q, col := range map[string]int{`a`: 1, `host:a "b c"`: 8, `host:(a OR b) -c`: 16} {
		_, err := Compile(q, words{}, Options{})
		var ce *Error
		if !errors.As(err, &ce) || ce.Column != col || !strings.Contains(err.Error(), "DefaultField") ||
			!errors.Is(err, snii.ErrInvalidArgument) || kinds(err) != 1 {
			t.Errorf("%q without a default field: %v, want an Error at column %d naming DefaultField", q, err, col)
		}
	}
	if _, err := Compile(`host:(a OR "b c")`, words{}, Options{}); err != nil {
		t.Errorf("fielded text without a default field: %v", err)
	}
	// Trees Parse does not produce, and bad options.
	a := &querylang.Text{Raw: "a", Col: 1}
	for _, n := range []querylang.Node{
		&querylang.Not{Node: a},
		&querylang.And{Nodes: []querylang.Node{&querylang.Not{Node: a}, &querylang.Not{Node: a}}},
		&querylang.Or{Nodes: []querylang.Node{a, &querylang.Not{Node: a}}},
		&querylang.And{Nodes: []querylang.Node{a, &querylang.Not{Node: &querylang.And{Nodes: []querylang.Node{&querylang.Not{Node: a}}}}}},
		&querylang.Text{Raw: "a b", Quoted: true, Prefix: true, Slop: 2},
		&querylang.Text{Raw: "a", Fuzzy: true, Edits: 3},
		&querylang.Text{Raw: "a", Fuzzy: true, Edits: 1, Prefix: true},
		&querylang.Text{Raw: "a", Fuzzy: true, Edits: 1, Quoted: true},
	} {
		if _, err := compile(n, words{}, &Options{}); !errors.Is(err, snii.ErrInvalidArgument) {
			t.Errorf("%#v: %v, want an invalid-argument error", n, err)
		}
	}
	if _, err := Compile("a", words{}, Options{MaxExpansions: -1}); !errors.Is(err, snii.ErrInvalidArgument) {
		t.Errorf("negative max expansions: %v", err)
	}
}
