package query

import (
	"strings"
	"testing"
)

// keepCase analyzes by splitting at spaces, keeping the case.
type keepCase struct{}

func (keepCase) Analyze(field, text string) ([]string, error) { return strings.Fields(text), nil }

// TestCompilePatterns: patterns compile to Regexp, Wildcard and PatternPhrase
// queries; with a lowercasing analyzer their literal characters are
// lowercased (classes and escapes are not), with another they are kept.
func TestCompilePatterns(t *testing.T) {
	for _, c := range []struct {
		a       Analyzer
		q, want string
	}{
		{words{}, `*Exception`, `wildcard(text:"*exception",max=5)`},
		{keepCase{}, `*Exception`, `wildcard(text:"*Exception",max=5)`},
		{words{}, `F?O\*X*`, `wildcard(text:"f?o\\*x*",max=5)`},
		{words{}, `/Conn(ection)?[A-Z]\S/`, `regexp(text:/conn(ection)?[A-Z][^\t\n\f\r ]/,max=5)`},
		{keepCase{}, `/Conn(ection)?/`, `regexp(text:/Conn(ection)?/,max=5)`},
		{words{}, `host:/web-0[12]/ err`, `and(regexp(host:/web-0[12]/,max=5), term(text:"err"))`},
		{words{}, `"Null-Pointer *Exception at"`, `patternphrase(text:"null" "pointer" wildcard"*exception" "at",max=5)`},
		{words{}, `"/conn.*/ Refused"`, `patternphrase(text:/conn.*/ "refused",max=5)`},
		{words{}, `a -/b.*/`, `andnot(term(text:"a"), regexp(text:/b.*/,max=5))`},
	} {
		rq, err := Compile(c.q, c.a, Options{DefaultField: "text", MaxExpansions: 5})
		if err != nil {
			t.Errorf("%q: %v", c.q, err)
			continue
		}
		if rq.String() != c.want {
			t.Errorf("%q:\n got %s\nwant %s", c.q, rq, c.want)
		}
	}
}
