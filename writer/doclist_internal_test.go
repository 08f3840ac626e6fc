package writer

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestDocListRoundTrip checks that a doc list kept as varint gaps decodes
// to the same ascending ids, from doc 0 to the largest doc id, appended to
// what dst holds.
func TestDocListRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	lists := [][]uint32{nil, {0}, {maxDocID}, {0, 1, 2, 3}, {5, 127, 128, 16383, 16384, math.MaxUint32 - 1}}
	for range 50 {
		var l []uint32
		d := uint32(r.IntN(1000))
		for range r.IntN(3000) {
			l = append(l, d)
			d += uint32(1 + r.IntN(1<<uint(r.IntN(20))))
		}
		lists = append(lists, l)
	}
	for _, l := range lists {
		dl := docList{gaps: appendGaps(nil, l), n: len(l)}
		got := dl.decode([]uint32{42})
		if got[0] != 42 || !slices.Equal(got[1:], l) {
			t.Fatalf("list of %d docs: decoded %d docs, not the same", len(l), len(got)-1)
		}
		// probe keeps the docs set in a bitmap, in order.
		bm := make([]uint64, 1<<20)
		var want []uint32
		for _, d := range l {
			if r.IntN(3) == 0 && d < 64<<20 {
				bm[d>>6] |= 1 << (d & 63)
				want = append(want, d)
			}
		}
		if len(l) > 0 && l[len(l)-1] >= 64<<20 {
			continue // past the test bitmap
		}
		if p := dl.probe(bm, nil); !slices.Equal(p, want) {
			t.Fatalf("list of %d docs: probe kept %d docs, want %d", len(l), len(p), len(want))
		}
	}
}
