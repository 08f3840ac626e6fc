package format

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkPairFind: one lookup of a missing and of a present pair in a
// section of 1000 pairs (the cost a phrase pays for looking at pairs).
func BenchmarkPairFind(b *testing.B) {
	r := rand.New(rand.NewPCG(9, 10))
	ps := randPairs(r, 100)
	sec := pairSection(ps)
	t, err := OpenPairTable(sec, uint64(len(ps)), 1<<20)
	if err != nil {
		b.Fatal(err)
	}
	a, c := []byte("connection"), []byte("refused")
	pa, pb := []byte(ps[50].a), []byte(ps[50].b)
	b.Run("missing", func(b *testing.B) {
		for b.Loop() {
			if i, _ := t.Find(a, c); i >= 0 {
				b.Fatal("found")
			}
		}
	})
	b.Run("present", func(b *testing.B) {
		for b.Loop() {
			if i, _ := t.Find(pa, pb); i < 0 {
				b.Fatal("missing")
			}
		}
	})
}

// BenchmarkPairBuildIndex: the hash index of a section of 20,000 pairs of
// words of 1 to 12 letters, built once per iteration.
func BenchmarkPairBuildIndex(b *testing.B) {
	ps := wordPairs(rand.New(rand.NewPCG(11, 12)), 20000)
	t, err := OpenPairTable(pairSection(ps), uint64(len(ps)), 1<<20)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if t.buildIndex() == nil {
			b.Fatal("no index")
		}
	}
}
