package querylang

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/snii-go/snii"
)

// tree renders a node with explicit structure, so tests see precedence and kinds.
func tree(n Node) string {
	switch n := n.(type) {
	case *Text:
		s := "T"
		if n.Quoted {
			s = "P"
		}
		if n.Prefix {
			s += "*"
		}
		if n.Slop > 0 {
			s += "~" + strconv.Itoa(n.Slop)
		}
		if n.Fuzzy {
			s = "F~" + strconv.Itoa(n.Edits)
		}
		if n.Field != "" {
			s += "{" + n.Field + "}"
		}
		return s + "[" + n.Raw + "]"
	case *Pattern:
		s := "W"
		if n.Regexp {
			s = "R"
		}
		if n.Field != "" {
			s += "{" + n.Field + "}"
		}
		return s + "[" + n.Expr + "]"
	case *PatternPhrase:
		parts := make([]string, len(n.Parts))
		for i, c := range n.Parts {
			parts[i] = tree(c)
		}
		s := "PP"
		if n.Field != "" {
			s += "{" + n.Field + "}"
		}
		return s + "(" + strings.Join(parts, ",") + ")"
	case *Not:
		return "NOT(" + tree(n.Node) + ")"
	case *And:
		parts := make([]string, len(n.Nodes))
		for i, c := range n.Nodes {
			parts[i] = tree(c)
		}
		return "AND(" + strings.Join(parts, ",") + ")"
	case *Or:
		parts := make([]string, len(n.Nodes))
		for i, c := range n.Nodes {
			parts[i] = tree(c)
		}
		return "OR(" + strings.Join(parts, ",") + ")"
	}
	return "?"
}

func TestParse(t *testing.T) {
	cases := []struct{ in, want string }{
		{`abc`, `T[abc]`},
		{`  abc  `, `T[abc]`},
		{`abc*`, `T*[abc]`},
		{`"a b c"`, `P[a b c]`},
		{`"a b c*"`, `P*[a b c]`},
		{`a b`, `AND(T[a],T[b])`},
		{`a AND b`, `AND(T[a],T[b])`},
		{`a OR b`, `OR(T[a],T[b])`},
		{`a or b`, `AND(T[a],T[or],T[b])`},
		{`a b OR c`, `OR(AND(T[a],T[b]),T[c])`},
		{`a OR b c`, `OR(T[a],AND(T[b],T[c]))`},
		{`a (b OR c)`, `AND(T[a],OR(T[b],T[c]))`},
		{`(a b) c`, `AND(T[a],T[b],T[c])`},
		{`(a OR b) OR c`, `OR(T[a],T[b],T[c])`},
		{`((a))`, `T[a]`},
		{`"x"y`, `AND(P[x],T[y])`},
		{`x"y"`, `AND(T[x],P[y])`},
		{`foo*"bar"`, `AND(T*[foo],P[bar])`},
		{`a(b)`, `AND(T[a],T[b])`},
		{`"OR"`, `P[OR]`},
		{`\OR`, `T[OR]`},
		{`OR*`, `T*[OR]`},
		{`a\*b`, `T[a*b]`},
		{`a\ b`, `T[a b]`},
		{`"say \"hi\""`, `P[say "hi"]`},
		{`"a \* b"`, `P[a * b]`},
		{`"a\\"`, `P[a\]`},
		{`user-id:42`, `T{user-id}[42]`},
		{`10.0.0.1:8080`, `T[10.0.0.1:8080]`},
		{`a\:b`, `T[a:b]`},
		{`\a:b`, `T[a:b]`},
		{`:a`, `T[:a]`},
		{`host:web-01`, `T{host}[web-01]`},
		{`f:(a)`, `T{f}[a]`},
		{`f:(a OR b)`, `OR(T{f}[a],T{f}[b])`},
		{`f:(a g:b)`, `AND(T{f}[a],T{g}[b])`},
		{`f:("a b"~2 c*) d`, `AND(P~2{f}[a b],T*{f}[c],T[d])`},
		{`f:(a -b)`, `AND(T{f}[a],NOT(T{f}[b]))`},
		{`-f:(a OR b) c`, `AND(NOT(OR(T{f}[a],T{f}[b])),T[c])`},
		{`f:(g:(a) b)`, `AND(T{g}[a],T{f}[b])`},
		{`f:(a) OR b`, `OR(T{f}[a],T[b])`},
		{`f\:(a)`, `AND(T[f:],T[a])`},
		{`user.name:zo*`, `T*{user.name}[zo]`},
		{`f:a:b`, `T{f}[a:b]`},
		{`f:"a b"~3 c`, `AND(P~3{f}[a b],T[c])`},
		{`f:"a b*"`, `P*{f}[a b]`},
		{`f:OR`, `T{f}[OR]`},
		{`f:-x`, `T{f}[-x]`},
		{`"a b"~2`, `P~2[a b]`},
		{`"a b"~0`, `P[a b]`},
		{`a\~2`, `T[a~2]`},
		{`session~2`, `F~2[session]`},
		{`session~`, `F~2[session]`},
		{`session~0`, `F~0[session]`},
		{`a f:Session~1`, `AND(T[a],F~1{f}[Session])`},
		{`OR~1 AND~`, `AND(F~1[OR],F~2[AND])`},
		{`x\ y~1 OR (z~)`, `OR(F~1[x y],F~2[z])`},
		{`"a b"~2 x`, `AND(P~2[a b],T[x])`},
		{`("a b"~2)`, `P~2[a b]`},
		{`*Exception`, `W[*Exception]`},
		{`foo*bar`, `W[foo*bar]`},
		{`f?o`, `W[f?o]`},
		{`f\?o`, `T[f?o]`},
		{`a\*b*`, `T*[a*b]`},
		{`a\*b*c`, `W[a\*b*c]`},
		{`*`, `W[*]`},
		{`a**`, `W[a**]`},
		{`x:f?o`, `W{x}[f?o]`},
		{`/conn(ection)?/`, `R[conn(ection)?]`},
		{`host:/web-0[12]/ err`, `AND(R{host}[web-0[12]],T[err])`},
		{`/a\/b/`, `R[a/b]`},
		{`/var/log`, `T[/var/log]`},
		{`/var/`, `R[var]`},
		{`f:(/a.c/ b)`, `AND(R{f}[a.c],T{f}[b])`},
		{`"GET /api"`, `P[GET /api]`},
		{`"GET /api/v1 x"`, `P[GET /api/v1 x]`},
		{`"a* b"`, `PP(W[a*],T[b])`},
		{`"x y /conn.*/ refused now"`, `PP(T[x y],R[conn.*],T[refused now])`},
		{`f:"*exception at"`, `PP{f}(W[*exception],T[at])`},
		{`"a /b/ c*"`, `PP(T[a],R[b],W[c*])`},
		{`"what? is"`, `P[what? is]`},
		{`"f?o* bar"`, `PP(W[f?o*],T[bar])`},
		{`"ab\*c* d"`, `PP(W[ab\*c*],T[d])`},
		{`"a\\* b"`, `PP(W[a\\*],T[b])`},
		{`"a\ b* c"`, `PP(T[a],W[b*],T[c])`},
		{`a -b`, `AND(T[a],NOT(T[b]))`},
		{`a NOT b`, `AND(T[a],NOT(T[b]))`},
		{`a AND NOT b`, `AND(T[a],NOT(T[b]))`},
		{`-b a`, `AND(NOT(T[b]),T[a])`},
		{`a -"b c"~1`, `AND(T[a],NOT(P~1[b c]))`},
		{`a -(b OR c)`, `AND(T[a],NOT(OR(T[b],T[c])))`},
		{`a -(b -c)`, `AND(T[a],NOT(AND(T[b],NOT(T[c]))))`},
		{`a -f:b`, `AND(T[a],NOT(T{f}[b]))`},
		{`a-b`, `T[a-b]`},
		{`\-a`, `T[-a]`},
		{`a OR b -c`, `OR(T[a],AND(T[b],NOT(T[c])))`},
		{`(a -b) OR c`, `OR(AND(T[a],NOT(T[b])),T[c])`},
		{`"NOT"`, `P[NOT]`},
		{`10.0.0.1 "GET /api"`, `AND(T[10.0.0.1],P[GET /api])`},
		{`héllo wörld*`, `AND(T[héllo],T*[wörld])`},
		{`"connection refused" OR "timed out*"`, `OR(P[connection refused],P*[timed out])`},
		{"a\tb\nc", `AND(T[a],T[b],T[c])`},
	}
	for _, c := range cases {
		n, err := Parse(c.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", c.in, err)
			continue
		}
		if got := tree(n); got != c.want {
			t.Errorf("Parse(%q) = %s, want %s", c.in, got, c.want)
		}
		back, err := Parse(n.String())
		if err != nil {
			t.Errorf("Parse(%q).String() = %q does not parse: %v", c.in, n.String(), err)
		} else if tree(back) != tree(n) {
			t.Errorf("round trip of %q via %q: %s != %s", c.in, n.String(), tree(back), tree(n))
		}
	}
}

func TestParseColumns(t *testing.T) {
	n, err := Parse(`ab  "c d" (é OR f*)`)
	if err != nil {
		t.Fatal(err)
	}
	var cols []int
	Walk(n, func(n Node) { cols = append(cols, n.Column()) })
	want := []int{1, 1, 5, 12, 12, 17}
	if len(cols) != len(want) {
		t.Fatalf("columns %v, want %v", cols, want)
	}
	for i := range want {
		if cols[i] != want[i] {
			t.Fatalf("columns %v, want %v", cols, want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct {
		in   string
		col  int
		want string
	}{
		{``, 1, "empty query"},
		{`   `, 4, "empty query"},
		{`foo "bar`, 9, "expected closing quote for the phrase opened at column 5"},
		{`"é`, 3, "expected closing quote for the phrase opened at column 1"},
		{`""`, 1, "empty phrase"},
		{`"  "`, 1, "empty phrase"},
		{`"*"`, 2, "expected a term before '*'"},
		{`"a *"`, 4, "expected a term before '*'"},
		{`"a\ *"`, 5, "expected a term before '*'"}, // an escaped space is still a space
		{`"a*`, 4, "expected closing quote"},
		{`/a(/`, 1, "invalid regexp"},
		{`"x /a[/ y"`, 4, "invalid regexp"},
		{`"a /b/ c"~2`, 10, "a phrase with patterns cannot have a slop"},
		{`a\`, 2, `expected a character after '\'`},
		{`"a\`, 3, `expected a character after '\'`},
		{`(a`, 3, "expected ')' to close the '(' at column 1, found the end of the query"},
		{`(a OR (b c)`, 12, "expected ')' to close the '(' at column 1"},
		{`a)`, 2, "unexpected ')' without a matching '('"},
		{`()`, 2, "expected a term, a phrase or '(' after '(', found ')'"},
		{`OR a`, 1, "expected a term, a phrase or '(', found OR"},
		{`a OR`, 5, "expected a term, a phrase or '(' after OR, found the end of the query"},
		{`a OR OR b`, 6, "after OR, found OR"},
		{`a AND`, 6, "after AND, found the end of the query"},
		{`a AND OR b`, 7, "after AND, found OR"},
		{`AND`, 1, "found AND"},
		{`NOT b`, 1, "needs something to match besides NOT"},
		{`-b`, 1, "needs something to match besides NOT"},
		{`-a -b`, 1, "needs something to match besides NOT"},
		{`a OR -b`, 6, "NOT inside OR"},
		{`a OR (-b -c)`, 7, "NOT inside OR"},
		{`a - b`, 3, "right after '-'"},
		{`a -`, 3, "right after '-'"},
		{`a NOT`, 6, "after NOT, found the end of the query"},
		{`a -)`, 4, "after '-', found ')'"},
		{`a NOT NOT b`, 7, "cannot be negated again"},
		{`a --b`, 4, "cannot be negated again"},
		{`a -(-b)`, 5, "cannot be negated again"},
		{`a -(-b -c)`, 5, "cannot be negated again"},
		{`f:`, 3, `expected a term, a phrase or '(' after "f:"`},
		{`f: a`, 3, `expected a term, a phrase or '(' after "f:"`},
		{`f:(a`, 5, "expected ')' to close the '(' at column 3, found the end of the query"},
		{`f:()`, 4, "expected a term, a phrase or '(' after '(', found ')'"},
		{`a OR f:(-b)`, 9, "NOT inside OR"},
		{`f:"a`, 5, "expected closing quote for the phrase opened at column 3"},
		{`"a b"~`, 7, "expected a number"},
		{`"a b"~x`, 7, "expected a number"},
		{`"a b"~99999999999`, 6, "slop larger than"},
		{`"a b*"~2`, 7, "a phrase prefix cannot have a slop"},
		// Issue 39 item 5: Lucene's syntax is a fuzzy term or an error, never
		// reinterpreted as something else.
		{`~2`, 1, `expected a term before '~'`},
		{`a ~2`, 3, `write \~ for a literal '~'`},
		{`f:~1`, 3, `expected a term before '~'`},
		{`a~3`, 3, "a fuzzy term takes 0 to 2 edits"},
		{`a~12`, 3, "0 to 2 edits"},
		{`a~0.8`, 4, "a whole number of edits"},
		{`a~1x`, 4, "after a fuzzy term"},
		{`a~1~2`, 4, "after a fuzzy term"},
		{`a*~1`, 3, "a wildcard takes no '~'"},
		{`(session)~2`, 10, "applies to a quoted phrase (\"a b\"~2), not to a group"},
		{`f:(a b)~2 c`, 8, "not to a group"},
		{`"a b"~2~3`, 8, "a phrase takes one slop, and it has ~2 already"},
		{`"a b"~12x`, 9, "expected a space, ')' or the end of the query after the slop"},
		{`"a b"~2.5`, 8, "after the slop"},
		{strings.Repeat("(", MaxDepth+1) + "a" + strings.Repeat(")", MaxDepth+1), MaxDepth + 1, "nested deeper than"},
	}
	for _, c := range cases {
		_, err := Parse(c.in)
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("Parse(%q) = %v, want a *SyntaxError", c.in, err)
			continue
		}
		if se.Column != c.col || !strings.Contains(se.Msg, c.want) {
			t.Errorf("Parse(%q) = %q (column %d), want column %d and %q", c.in, err, se.Column, c.col, c.want)
		}
		if !errors.Is(err, snii.ErrInvalidArgument) || kinds(err) != 1 {
			t.Errorf("Parse(%q) = %v, want an error of the one kind snii.ErrInvalidArgument", c.in, err)
		}
	}
	if _, err := Parse(strings.Repeat("(", MaxDepth) + "a" + strings.Repeat(")", MaxDepth)); err != nil {
		t.Errorf("nesting of exactly MaxDepth: %v", err)
	}
}

func TestSyntaxErrorText(t *testing.T) {
	_, err := Parse(`foo "bar`)
	if got, want := err.Error(), "at column 9: expected closing quote for the phrase opened at column 5"; got != want {
		t.Fatalf("%q, want %q", got, want)
	}
}

// FuzzParseQuery: Parse never panics; an error is a *SyntaxError with a column
// inside the query (or one past its end); a parsed tree renders to a query that
// parses to the same tree, with no empty text and well-formed And/Or nodes.
func FuzzParseQuery(f *testing.F) {
	for _, s := range []string{`a -b`, `f:"a b"~2 OR g:c*`, `f:(a OR g:(b -c)) d`, `a NOT (b OR -c)`, `x:\-y`, `a -(b c)`, `a b`, `"a b c*"`, `a OR (b c*)`, `\OR "x\"y"`, `((a)) OR b AND c`, `"`, `a*b`, "\xff\"\xfe*\"", `NOT a`, `"a /b.*/ c*"`, `x:*ab?c\*`, `/a\/b/ -/c/`, `"\/x y*z"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		n, err := Parse(q)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("Parse(%q): error %v is not a *SyntaxError", q, err)
			}
			if !errors.Is(err, snii.ErrInvalidArgument) || kinds(err) != 1 {
				t.Fatalf("Parse(%q): %v does not wrap snii.ErrInvalidArgument alone", q, err)
			}
			if se.Column < 1 || se.Column > utf8.RuneCountInString(q)+1 {
				t.Fatalf("Parse(%q): column %d outside 1..%d", q, se.Column, utf8.RuneCountInString(q)+1)
			}
			return
		}
		Walk(n, func(n Node) {
			switch n := n.(type) {
			case *Text:
				if n.Raw == "" {
					t.Fatalf("Parse(%q): empty text node", q)
				}
			case *And:
				for _, c := range n.Nodes {
					if _, ok := c.(*And); ok || len(n.Nodes) < 2 {
						t.Fatalf("Parse(%q): malformed And %s", q, tree(n))
					}
				}
			case *Or:
				for _, c := range n.Nodes {
					if _, ok := c.(*Or); ok || len(n.Nodes) < 2 || !Positive(c) {
						t.Fatalf("Parse(%q): malformed Or %s", q, tree(n))
					}
				}
			case *Not:
				if !Positive(n.Node) {
					t.Fatalf("Parse(%q): malformed Not %s", q, tree(n))
				}
			}
		})
		if !Positive(n) {
			t.Fatalf("Parse(%q): nothing to match in %s", q, tree(n))
		}
		s := n.String()
		back, err := Parse(s)
		if err != nil {
			t.Fatalf("Parse(%q) renders %q, which fails: %v", q, s, err)
		}
		if tree(back) != tree(n) {
			t.Fatalf("Parse(%q) = %s renders %q = %s", q, tree(n), s, tree(back))
		}
	})
}
