package oracle

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestSloppyFreqCases: frequencies worked out by hand from the enumeration.
func TestSloppyFreqCases(t *testing.T) {
	ids := map[string]int32{"a": 0, "b": 1, "c": 2, "x": 3}
	seqOf := func(s string) []int32 {
		var out []int32
		for _, w := range strings.Fields(s) {
			out = append(out, ids[w])
		}
		return out
	}
	cases := []struct {
		doc, phrase string
		slop        int
		want        float64
	}{
		{"a b", "a b", 1, 1},
		{"a x b", "a b", 1, 0.5},
		{"a x x b", "a b", 1, 0},
		{"a x x b", "a b", 2, 1.0 / 3},
		{"b a", "a b", 2, 1.0 / 3},
		{"b a", "a b", 1, 0},
		{"a b x a b", "a b", 1, 2},     // two adjacent matches
		{"a b x x x x b", "a b", 1, 1}, // the far b adds nothing
		{"a a", "a a", 1, 1},
		{"a", "a a", 3, 0}, // one occurrence cannot fill two offsets
		{"c b a", "a b c", 4, 1.0 / 5},
	}
	for _, c := range cases {
		var ph []int32
		for _, w := range strings.Fields(c.phrase) {
			ph = append(ph, ids[w])
		}
		if got := SloppyFreq(ph, seqOf(c.doc), c.slop); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%q in %q ~%d: %v, want %v", c.phrase, c.doc, c.slop, got, c.want)
		}
	}
}

// TestSloppyFreqFits: the frequency is positive exactly when the exhaustive
// placement (SloppyFits) finds a match, on random short documents.
func TestSloppyFreqFits(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	hits := 0
	for it := 0; it < 30000; it++ {
		voc := 1 + rng.IntN(4)
		seq := make([]int32, 2+rng.IntN(12))
		for i := range seq {
			seq[i] = int32(rng.IntN(voc))
		}
		ph := make([]int32, 2+rng.IntN(3))
		for i := range ph {
			ph[i] = int32(rng.IntN(voc))
		}
		slop := 1 + rng.IntN(4)
		pos := make([][]int, len(ph))
		for i, id := range ph {
			for p, t := range seq {
				if t == id {
					pos[i] = append(pos[i], p)
				}
			}
		}
		f := SloppyFreq(ph, seq, slop)
		if fits := SloppyFits(pos, slop); fits != (f > 0) {
			t.Fatalf("phrase %v doc %v ~%d: freq %v, exhaustive %v", ph, seq, slop, f, fits)
		}
		if f > 0 {
			hits++
		}
	}
	if hits < 5000 {
		t.Fatalf("only %d matches", hits)
	}
}
