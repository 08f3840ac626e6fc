package peers

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/snii-go/snii/reader"
)

// TopProfileSnii runs BM25 top-k searches on a snii segment a fixed number of
// rounds (a fixed work for instruction counts under callgrind): every term
// query of qs (one term each), and with ors also every two adjacent ones as a
// disjunction. It prints the queries' count and returns.
func TopProfileSnii(seg string, qs []*Query, k, rounds int, ors bool, w io.Writer) error {
	s, err := reader.Open(seg, reader.Options{})
	if err != nil {
		return err
	}
	defer s.Close()
	var terms []string
	for _, q := range qs {
		if q.Kind == KindTerm {
			terms = append(terms, q.Terms[0])
		}
	}
	var rq []reader.Query
	for i, t := range terms {
		rq = append(rq, reader.Term(Field, t))
		if ors && i > 0 {
			rq = append(rq, reader.Or(reader.Term(Field, terms[i-1]), reader.Term(Field, t)))
		}
	}
	ctx := context.Background()
	for range rounds {
		for _, q := range rq {
			if _, err := s.Top(ctx, q, k, nil); err != nil {
				return err
			}
		}
	}
	fmt.Fprintf(w, "%d queries (%s) × %d rounds, top %d\n", len(rq), strings.Join(terms, " "), rounds, k)
	return nil
}
