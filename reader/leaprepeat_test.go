package reader_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/snii-go/snii/internal/testkit/oracle"
	"github.com/snii-go/snii/reader"
	"github.com/snii-go/snii/writer"
)

// leapRepeatDocs returns documents over a four-term alphabet with a filler
// term, so that phrases of three to six terms with repeats ("a b a b") have
// matches, near misses (a repeat one position off) and candidates holding
// every term; some documents have several values.
func leapRepeatDocs(n int) []oracle.Doc {
	r := rand.New(rand.NewPCG(7, 11))
	alpha := []string{"a", "b", "c", "d", "a", "b", "zz"}
	docs := make([]oracle.Doc, n)
	for i := range docs {
		var vals []string
		for range 1 + r.IntN(2) {
			var w []string
			for range 2 + r.IntN(24) {
				w = append(w, alpha[r.IntN(len(alpha))])
			}
			if r.IntN(3) == 0 { // a repeated motif
				m := alpha[r.IntN(4)] + " " + alpha[r.IntN(4)]
				w = append(w, m, m, m)
			}
			vals = append(vals, strings.Join(w, " "))
		}
		docs[i] = oracle.Doc{{Name: "text", Values: vals}}
	}
	return docs
}

// leapRepeatPhrases returns phrases of 3..6 terms over a, b, c, d: every
// alternation of two terms and random ones.
func leapRepeatPhrases(n int) [][]string {
	var out [][]string
	for _, x := range []string{"a", "b", "c"} {
		for _, y := range []string{"a", "b", "d"} {
			for l := 3; l <= 6; l++ {
				p := make([]string, l)
				for i := range p {
					p[i] = x
					if i%2 == 1 {
						p[i] = y
					}
				}
				out = append(out, p)
			}
		}
	}
	r := rand.New(rand.NewPCG(13, 17))
	for range n {
		p := make([]string, 3+r.IntN(4))
		for i := range p {
			p[i] = []string{"a", "b", "c", "d"}[r.IntN(4)]
		}
		out = append(out, p)
	}
	return out
}

// TestLeapfrogRepeatsOracle: phrases of three to six terms with repeated
// terms, run through the leapfrog's counting, listing (with and without a
// limit) and ranked paths, on segments with every pair kept (chain plans),
// a tenth of them (pair lists) and none, with and without pairs planned, on
// 8 goroutines sharing each segment (pooled query contexts): every answer
// equals the oracle's.
func TestLeapfrogRepeatsOracle(t *testing.T) {
	ndocs, nq := 1500, 60
	if raceEnabled {
		ndocs, nq = 600, 20
	}
	docs := leapRepeatDocs(ndocs)
	c := corpusOf(docs)
	phrases := leapRepeatPhrases(nq)
	type want struct {
		docs []uint32
		top  []oracle.Scored
	}
	wants := make([]want, len(phrases))
	bm := oracle.BM25Options{K1: 1.2, B: 0.75}
	matched := 0
	for i, p := range phrases {
		q := oracle.Phrase{Field: "text", Terms: p}
		wants[i] = want{c.Eval(q), c.TopBM25(q, math.MaxInt32, bm)}
		if len(wants[i].docs) > 0 {
			matched++
		}
	}
	if matched < len(phrases)/3 {
		t.Fatalf("only %d of %d phrases match: the test proves little", matched, len(phrases))
	}
	for _, pairs := range []writer.Pairs{{Percent: 100, MinDF: 1}, {Percent: 10, MinDF: 2}, {}} {
		s := open(t, build(t, docs, pairOptions(pairs, "text")))
		for _, noPairs := range []bool{false, true} {
			label := fmt.Sprintf("pairs %+v, NoPairs %v", pairs, noPairs)
			var mu sync.Mutex
			var fails []string
			var used reader.Profile // the counts'
			fail := func(format string, args ...any) {
				mu.Lock()
				fails = append(fails, fmt.Sprintf(format, args...))
				mu.Unlock()
			}
			parallel(len(phrases)*2, func(j int) {
				i := j % len(phrases)
				p, w := phrases[i], wants[i]
				q := reader.Phrase("text", p...)
				o := &reader.SearchOptions{NoPairs: noPairs}
				got, err := s.Docs(bg, q, o)
				if err != nil || !slices.Equal(got, w.docs) {
					fail("%s %q: docs %v, %v; want %v", label, p, oracle.Describe(got), err, oracle.Describe(w.docs))
					return
				}
				var pr reader.Profile
				co := &reader.SearchOptions{NoPairs: noPairs, Profile: &pr}
				if n, err := s.Count(bg, q, co); err != nil || n != uint64(len(w.docs)) {
					fail("%s %q: count %d, %v; want %d", label, p, n, err, len(w.docs))
				}
				mu.Lock()
				used.Add(&pr)
				mu.Unlock()
				if lim := 1 + i%5; len(w.docs) > lim {
					lo := &reader.SearchOptions{NoPairs: noPairs, Limit: lim}
					if got, err := s.Docs(bg, q, lo); err != nil || !slices.Equal(got, w.docs[:lim]) {
						fail("%s %q: limit %d: docs %v, %v; want %v", label, p, lim, got, err, w.docs[:lim])
					}
				}
				k := []int{1, 3, 10, 1000}[i%4]
				hits, err := s.Top(bg, q, k, &reader.TopOptions{BM25: &reader.BM25{K1: 1.2, B: 0.75}})
				top := w.top[:min(k, len(w.top))]
				if err != nil || len(hits) != len(top) {
					fail("%s %q: top %d: %d hits, %v; want %d", label, p, k, len(hits), err, len(top))
					return
				}
				score := map[uint32]float64{}
				for _, h := range w.top {
					score[h.Doc] = h.Score
				}
				for r, h := range hits {
					if os, ok := score[h.Doc]; !ok || !near(float64(h.Score), top[r].Score) || !near(os, top[r].Score) {
						fail("%s %q: top %d: rank %d doc %d score %v (oracle %v), want doc %d score %v", label, p, k, r, h.Doc, h.Score, os, top[r].Doc, top[r].Score)
						return
					}
				}
			})
			for _, f := range fails {
				t.Error(f)
			}
			if len(fails) > 0 {
				t.FailNow()
			}
			if !noPairs && (used.PairPlans == 0 || used.PairProved == 0 || used.PairDocs == 0) {
				t.Errorf("%s: %d pair plans, %d proved by pairs, %d pair docs: the pair paths were not taken", label, used.PairPlans, used.PairProved, used.PairDocs)
			}
		}
	}
}
