package query_test

import (
	"fmt"
	"strings"

	"github.com/snii-go/snii/query"
)

// lower is a stand-in analyzer (a *reader.Segment analyzes with the field's own).
type lower struct{}

func (lower) Analyze(_, text string) ([]string, error) {
	return strings.Fields(strings.ToLower(text)), nil
}

func Example() {
	q, err := query.Compile(`"Connection reset"~2 host:web-01 -(debug OR trace*)`, lower{}, query.Options{DefaultField: "text"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(q) // what a segment runs
	_, err = query.Compile(`a OR -b`, lower{}, query.Options{DefaultField: "text"})
	fmt.Println(err)
	// Output:
	// andnot(and(phrase(text:"connection reset"~2), term(host:"web-01")), or(term(text:"debug"), prefix(text:"trace"*,max=0)))
	// at column 6: NOT inside OR excludes nothing: a side of OR needs something to match besides NOT
}
