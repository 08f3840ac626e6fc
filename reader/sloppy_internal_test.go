package reader

import (
	"math/rand/v2"
	"testing"

	"github.com/snii-go/snii/internal/testkit/oracle"
)

// sloppyAgrees runs the matcher on a document and a phrase of word ids below
// voc (a word is its own slot) and compares it with the oracle's exhaustive
// placement; it returns the matcher's answer.
func sloppyAgrees(t *testing.T, doc, phrase []int, voc, slop int) bool {
	t.Helper()
	lists := make([][]uint32, voc)
	for p, w := range doc {
		lists[w] = append(lists[w], uint32(p))
	}
	pos := make([][]int, len(phrase))
	for i, w := range phrase {
		for _, p := range lists[w] {
			pos[i] = append(pos[i], int(p))
		}
	}
	var m sloppy
	m.setup(phrase)
	got := m.match(lists, phrase, slop)
	want := oracle.SloppyFits(pos, slop)
	if got != want {
		t.Fatalf("doc %v phrase %v slop %d: matcher %v, exhaustive %v", doc, phrase, slop, got, want)
	}
	// Lucene's walk, which scoring uses (match takes decide for distinct
	// terms), decides the same.
	m.bindLists(lists, phrase)
	if walk := m.start() && m.nextMatch(slop); walk != want {
		t.Fatalf("doc %v phrase %v slop %d: Lucene's walk %v, exhaustive %v", doc, phrase, slop, walk, want)
	}
	return got
}

// TestSloppyMatchExhaustive: on random short documents over 1–3 words (so
// terms repeat in the phrase and the document), the matcher, which walks
// positions as Lucene's does, accepts exactly the documents the oracle's
// exhaustive placement accepts.
func TestSloppyMatchExhaustive(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	hits := 0
	for it := 0; it < 100000; it++ {
		voc := 1 + rng.IntN(3)
		doc := make([]int, 2+rng.IntN(10))
		for i := range doc {
			doc[i] = rng.IntN(voc)
		}
		phrase := make([]int, 2+rng.IntN(3))
		for i := range phrase {
			phrase[i] = rng.IntN(voc)
		}
		if sloppyAgrees(t, doc, phrase, voc, rng.IntN(5)) {
			hits++
		}
	}
	if hits < 10000 {
		t.Fatalf("only %d matches: the test is too weak", hits)
	}
}

// FuzzSloppyMatch: the matcher agrees with the exhaustive placement on any
// document of up to 32 positions over 4 words and any phrase of 2–7 of them.
// Input: slop, phrase length, then the phrase's words, then the document's.
func FuzzSloppyMatch(f *testing.F) {
	f.Add([]byte{2, 2, 0, 1, 1, 0})
	f.Add([]byte{3, 3, 0, 1, 0, 1, 2, 0, 0, 1, 0})
	f.Add([]byte{1, 4, 0, 0, 0, 1, 0, 1, 0, 0, 0, 1})
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) < 2 {
			return
		}
		slop, n := int(b[0]%8), 2+int(b[1]%6)
		b = b[2:]
		if len(b) <= n {
			return
		}
		phrase := make([]int, n)
		for i := range phrase {
			phrase[i] = int(b[i] % 4)
		}
		b = b[n:min(len(b), n+32)]
		doc := make([]int, len(b))
		for i := range doc {
			doc[i] = int(b[i] % 4)
		}
		sloppyAgrees(t, doc, phrase, 4, slop)
	})
}

// TestSloppyDecideDistinct: phrases of 2–5 distinct words over documents of up
// to 30 positions of 6 words, where decide (not Lucene's walk) answers.
func TestSloppyDecideDistinct(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	hits := 0
	for it := 0; it < 30000; it++ {
		doc := make([]int, 2+rng.IntN(29))
		for i := range doc {
			doc[i] = rng.IntN(6)
		}
		phrase := rng.Perm(6)[:2+rng.IntN(4)]
		if sloppyAgrees(t, doc, phrase, 6, rng.IntN(7)) {
			hits++
		}
	}
	if hits < 5000 || hits > 25000 {
		t.Fatalf("%d matches of 30000: the test is too weak", hits)
	}
}
