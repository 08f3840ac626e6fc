package reader

import (
	"math/rand/v2"
	"testing"
)

// bruteFits places the terms by exhaustive search: a window start s = pi-i,
// then each term on a free position in [s+i, s+i+slop].
func bruteFits(pos [][]int, slop int) bool {
	used := map[int]bool{}
	var place func(i, s int) bool
	place = func(i, s int) bool {
		if i == len(pos) {
			return true
		}
		for _, p := range pos[i] {
			if p < s+i || p > s+i+slop || used[p] {
				continue
			}
			used[p] = true
			ok := place(i+1, s)
			delete(used, p)
			if ok {
				return true
			}
		}
		return false
	}
	for i := range pos {
		for _, p := range pos[i] {
			if place(0, p-i) {
				return true
			}
		}
	}
	return false
}

// TestSloppyMatchExhaustive: on random short documents over 1–3 words (so
// terms repeat in the phrase and the document), the matcher, which walks
// positions as Lucene's does, accepts exactly the documents an exhaustive
// placement accepts.
func TestSloppyMatchExhaustive(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	hits := 0
	for it := 0; it < 100000; it++ {
		doclen := 2 + rng.IntN(10)
		voc := 1 + rng.IntN(3)
		doc := make([]int, doclen)
		for i := range doc {
			doc[i] = rng.IntN(voc)
		}
		n := 2 + rng.IntN(3)
		phrase := make([]int, n)
		for i := range phrase {
			phrase[i] = rng.IntN(voc)
		}
		slotOf := phrase // a word is its own slot
		lists := make([][]uint32, voc)
		for p, w := range doc {
			lists[w] = append(lists[w], uint32(p))
		}
		pos := make([][]int, n)
		for i, w := range phrase {
			for _, p := range lists[w] {
				pos[i] = append(pos[i], int(p))
			}
		}
		slop := rng.IntN(5)
		var m sloppy
		m.setup(slotOf)
		got := m.match(lists, slotOf, slop)
		want := bruteFits(pos, slop)
		if got != want {
			t.Fatalf("doc %v phrase %v slop %d: matcher %v, exhaustive %v", doc, phrase, slop, got, want)
		}
		hits += map[bool]int{true: 1}[got]
	}
	if hits < 10000 {
		t.Fatalf("only %d matches: the test is too weak", hits)
	}
}
