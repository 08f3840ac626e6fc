package reader_test

import (
	"math/rand/v2"
	"testing"

	"github.com/snii-go/snii/internal/testkit/oracle"
)

// TestOracleNarrowingAndUnions checks, against the brute-force oracle, the
// query shapes of the staged phrase verification and the bitset unions: long
// phrases cut from documents (every candidate stands, so a stage is abandoned),
// the same phrases with one term replaced by a frequent one (most candidates
// fall at the first stage, so later slots decode only the survivors), phrase
// prefixes with one-letter prefixes, and prefixes and Ors expanding to hundreds
// of terms (unions of many lists through the bitset), on the 1024-doc-window
// corpus, for smallest frames and the budget.
func TestOracleNarrowingAndUnions(t *testing.T) {
	docs := oracle.Generate(21, oracle.GenOptions{Docs: 6000, Vocab: 400, Zipf: 1.3, MaxValues: 2, MaxTokens: 40})
	c := corpusOf(docs)
	rng := rand.New(rand.NewPCG(3, 4))
	// frequent terms: the first tokens of the first docs are mostly frequent
	var frequent []string
	var seqs [][]string
	for _, d := range docs {
		for _, f := range d {
			if f.Name != "text" {
				continue
			}
			for _, v := range f.Values {
				toks, _ := oracle.Tokenize(v)
				var seq []string
				for i, tk := range toks {
					if i > 0 && tk.Pos != toks[i-1].Pos+1 {
						break // a skipped over-long token: keep runs adjacent
					}
					seq = append(seq, tk.Term)
				}
				if len(seq) >= 6 {
					seqs = append(seqs, seq)
				}
				if len(seq) > 0 && len(frequent) < 50 {
					frequent = append(frequent, seq[0])
				}
			}
		}
	}
	if len(seqs) < 100 {
		t.Fatalf("only %d token runs of 6 or more", len(seqs))
	}
	qs := &querySet{}
	add := func(kind string, q oracle.Query) {
		qs.kinds = append(qs.kinds, kind)
		qs.qs = append(qs.qs, q)
	}
	n := 150
	if raceEnabled {
		n = 40
	}
	for i := 0; i < n; i++ {
		s := seqs[rng.IntN(len(seqs))]
		l := 3 + rng.IntN(4)
		at := rng.IntN(len(s) - l + 1)
		terms := append([]string(nil), s[at:at+l]...)
		add("phrase", oracle.Phrase{Field: "text", Terms: terms})
		mut := append([]string(nil), terms...)
		mut[1+rng.IntN(l-1)] = frequent[rng.IntN(len(frequent))]
		add("mutated", oracle.Phrase{Field: "text", Terms: mut})
		pp := append([]string(nil), terms[:l-1]...)
		last := []rune(terms[l-1])
		pp = append(pp, string(last[:1]))
		add("phraseprefix", oracle.PhrasePrefix{Field: "text", Terms: pp})
	}
	for _, p := range []string{"a", "b", "c", "e", "s", "t", "1", "2", "w"} {
		add("prefix", oracle.Prefix{Field: "text", Prefix: p})
		add("prefix", oracle.Prefix{Field: "text", Prefix: p, MaxExpansions: 7})
	}
	for i := 0; i < 20; i++ {
		var or oracle.Or
		for k := 0; k < 3+rng.IntN(30); k++ {
			s := seqs[rng.IntN(len(seqs))]
			or = append(or, oracle.Term{Field: "text", Term: s[rng.IntN(len(s))]})
		}
		or = append(or, oracle.Prefix{Field: "text", Prefix: frequent[i%len(frequent)][:1]})
		add("or", or)
	}
	qs.want = make([][]uint32, len(qs.qs))
	parallel(len(qs.qs), func(i int) { qs.want[i] = c.Eval(qs.qs[i]) })
	for _, policy := range []int{0, -1} {
		s := open(t, build(t, docs, options(policy, "host", "text")))
		hits := checkQueries(t, s, qs, "narrowing")
		for _, k := range []string{"phrase", "phraseprefix", "prefix", "or"} {
			if hits[k] == 0 {
				t.Errorf("no %s query hits: the test is too weak", k)
			}
		}
		t.Logf("policy %d: queries with hits per kind %v", policy, hits)
	}
}
