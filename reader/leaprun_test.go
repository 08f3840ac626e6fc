package reader_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/snii-go/snii/internal/testkit/oracle"
	"github.com/snii-go/snii/reader"
	"github.com/snii-go/snii/writer"
)

// TestChainRunsOracle: chain plans over blocked doc windows answer as the
// oracle does, the two-term chains (a repeated term: "ka kb ka") among them,
// whose two blocks are merged in one loop. Densities that change along the
// doc ids put common docs at and across block and window ends; an inner term
// occurring twice sends a candidate to the positions; documents holding a
// pair's terms apart are its exceptions (excluded from the chain). Docs,
// counts, limits and the answers without pairs all equal the oracle's, and
// every chain proves some matches from the frequencies alone.
func TestChainRunsOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 35))
	var docs []oracle.Doc
	for i := 0; i < 9000; i++ {
		var w []string
		if rng.IntN(3) > 0 {
			w = append(w, "w")
		}
		dense := (i/700)%3 + 1 // 1 to 3: how often the phrases occur here
		switch r := rng.IntN(20 * dense); {
		case r < 9: // the phrases, their inner terms once
			w = append(w, [][]string{{"ka", "kb", "kc", "kd"}, {"x", "ka", "kb", "ka"}, {"kb", "ka", "kb", "y"}}[rng.IntN(3)]...)
		case r < 11: // an inner term twice, the phrases: positions decide
			w = append(w, "kb", "ka", "kb", "kc", "kd", "ka", "kb", "ka")
		case r < 13: // an inner term twice, the pairs, no phrase
			w = append(w, "ka", "kb", "x", "kb", "kc", "kd", "kb", "ka")
		case r < 15: // the terms apart: an exception of each pair
			w = append(w, "kd", "kc", "x", "kb", "ka")
		case r < 17: // some of the terms
			w = append(w, "ka", "kb", "y", "kc")
		case r < 19: // one term
			w = append(w, []string{"ka", "kb"}[rng.IntN(2)])
		}
		if rng.IntN(4) == 0 {
			w = append(w, "ka", "kb", "kc")
		}
		docs = append(docs, oracle.Doc{{Name: "text", Values: []string{strings.Join(w, " ")}}})
	}
	c := corpusOf(docs)
	s := open(t, build(t, docs, pairOptions(writer.Pairs{Percent: 100, MinDF: 2}, "text")))
	for _, terms := range [][]string{{"ka", "kb", "ka"}, {"kb", "ka", "kb"}, {"ka", "kb", "kc"}, {"ka", "kb", "kc", "kd"}, {"kb", "kc", "kd"}} {
		want, pr := checkPhraseDocs(t, s, c, terms)
		if pr.PairPlans != 1 || pr.PairProved == 0 || pr.PairProved >= int64(len(want)) {
			t.Errorf("%q: %d pair plans, %d of %d matches proved by the chain: want one plan proving some", terms, pr.PairPlans, pr.PairProved, len(want))
		}
		q := reader.Phrase("text", terms...)
		if n, err := s.Count(bg, q, nil); err != nil || n != uint64(len(want)) {
			t.Errorf("%q: count %d, %v; want %d", terms, n, err, len(want))
		}
		if n, err := s.Count(bg, q, &reader.SearchOptions{NoPairs: true}); err != nil || n != uint64(len(want)) {
			t.Errorf("%q without pairs: count %d, %v; want %d", terms, n, err, len(want))
		}
		for _, limit := range []int{1, 63, 64, 65, 1000} {
			got, err := s.Docs(bg, q, &reader.SearchOptions{Limit: limit})
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(want[:min(limit, len(want))], got, cmpopts.EquateEmpty()); d != "" {
				t.Errorf("%q limit %d: docs differ from the oracle (-want +got):\n%s", terms, limit, d)
			}
		}
	}
}
