package reader_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/snii-go/snii/internal/codec/prx"
	"github.com/snii-go/snii/internal/testkit/oracle"
	"github.com/snii-go/snii/reader"
	"github.com/snii-go/snii/writer"
)

// TestTwoTermPhrase: phrases of two distinct terms over documents where each
// term occurs once or several times, at the start, the end or nowhere near
// the other, on segments whose .prx frames are smallest (ZSTD among them) or
// chosen by the budget. Every count and doc list equals the oracle's, with
// and without pairs, and no candidate of a two-term phrase goes to the
// general verification (leapVerify), while a three-term phrase's do.
func TestTwoTermPhrase(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 2))
	vocab := []string{"a", "b", "c", "x", "y"}
	var docs []oracle.Doc
	for range 4000 {
		n := 1 + rng.IntN(12)
		w := make([]string, n)
		for i := range w {
			w[i] = vocab[rng.IntN(len(vocab))]
		}
		if rng.IntN(3) == 0 { // many log lines hold the phrase once
			w = append([]string{"a", "b"}, w[:min(len(w), 3)]...)
		}
		docs = append(docs, oracle.Doc{{Name: "text", Values: []string{strings.Join(w, " ")}}})
	}
	c := corpusOf(docs)
	for _, policy := range []int{0, -1} {
		s := open(t, build(t, docs, options(policy, "text")))
		for _, a := range vocab {
			for _, b := range vocab {
				if a == b {
					continue
				}
				q := reader.Phrase("text", a, b)
				want := c.Eval(oracle.Phrase{Field: "text", Terms: []string{a, b}})
				label := fmt.Sprintf("policy %d %q", policy, a+" "+b)
				for _, o := range []*reader.SearchOptions{{NoPairs: true}, nil} {
					got, err := s.Docs(bg, q, o)
					if err != nil {
						t.Fatalf("%s: %v", label, err)
					}
					if d := cmp.Diff(want, got, cmpopts.EquateEmpty()); d != "" {
						t.Errorf("%s (options %+v): docs differ from the oracle (-want +got):\n%s", label, o, d)
					}
				}
				n, _, general, err := reader.LeapCounts(s, q)
				if err != nil {
					t.Fatalf("%s: %v", label, err)
				}
				if n != uint64(len(want)) {
					t.Errorf("%s: count %d, want %d", label, n, len(want))
				}
				if general != 0 {
					t.Errorf("%s: %d candidates went to leapVerify, want 0", label, general)
				}
			}
		}
		q3 := reader.Phrase("text", "a", "b", "c")
		want := c.Eval(oracle.Phrase{Field: "text", Terms: []string{"a", "b", "c"}})
		n, _, general, err := reader.LeapCounts(s, q3)
		if err != nil {
			t.Fatal(err)
		}
		if n != uint64(len(want)) {
			t.Errorf("policy %d \"a b c\": count %d, want %d", policy, n, len(want))
		}
		if general == 0 {
			t.Errorf("policy %d \"a b c\": no candidate went to leapVerify", policy)
		}
	}
}

// TestTwoTermPhraseZstdLead: in "p z" the lead z (in 39 of 40 documents, on
// ZSTD units: its positions cycle through 16 values) is read after p (in
// every document once, on units ZSTD does not shrink by 30%). In the few
// documents that match, z occurs twice and its first occurrence is not the
// one after p, so the match rests on merging the positions, not on the
// first ones. The answers equal the oracle's.
func TestTwoTermPhraseZstdLead(t *testing.T) {
	pattern := [16]int{3, 17, 9, 28, 2, 22, 14, 6, 30, 11, 25, 4, 19, 8, 27, 12}
	rng := rand.New(rand.NewPCG(35, 3))
	const n, hits = 8800, 6
	var docs []oracle.Doc
	for d := range n {
		words := make([]string, 40)
		for i := range words {
			words[i] = fmt.Sprintf("f%d", rng.IntN(60))
		}
		zp := -1
		if d%40 != 39 {
			zp = pattern[d%16]
			words[zp] = "z"
		}
		if d < hits && zp >= 0 {
			words[0], words[zp-1] = "z", "p"
		} else {
			for {
				if i := rng.IntN(len(words)); words[i] != "z" && (i+1 == len(words) || words[i+1] != "z") {
					words[i] = "p"
					break
				}
			}
		}
		docs = append(docs, oracle.Doc{{Name: "text", Values: []string{strings.Join(words, " ")}}})
	}
	o := options(30, "text") // ZSTD where it saves 30%: z's units, not p's
	o.Pairs.Percent = writer.PairsOff
	s := open(t, build(t, docs, o))
	units := unitsByCodec(t, s, "text", "z", "p")
	if units[0][prx.CodecZstd] < 3 || units[1][prx.CodecZstd] != 0 {
		t.Fatalf("fixture: units by codec: z %v, p %v: want z's ZSTD (3 or more), none of p's", units[0], units[1])
	}
	c := corpusOf(docs)
	want := c.Eval(oracle.Phrase{Field: "text", Terms: []string{"p", "z"}})
	if len(want) != hits {
		t.Fatalf("fixture: %d hits, want %d", len(want), hits)
	}
	got, err := s.Docs(bg, reader.Phrase("text", "p", "z"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, got, cmpopts.EquateEmpty()); d != "" {
		t.Errorf("docs differ from the oracle (-want +got):\n%s", d)
	}
}
