package reader

import (
	"math/rand/v2"
	"testing"

	"github.com/snii-go/snii/internal/oracle"
)

// TestSloppyMatchExhaustive: on random short documents over 1–3 words (so
// terms repeat in the phrase and the document), the matcher, which walks
// positions as Lucene's does, accepts exactly the documents the oracle's
// exhaustive placement accepts.
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
		want := oracle.SloppyFits(pos, slop)
		if got != want {
			t.Fatalf("doc %v phrase %v slop %d: matcher %v, exhaustive %v", doc, phrase, slop, got, want)
		}
		hits += map[bool]int{true: 1}[got]
	}
	if hits < 10000 {
		t.Fatalf("only %d matches: the test is too weak", hits)
	}
}
