package sorted

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSeekGE: on random ascending lists, SeekGE from every start agrees with
// a linear scan, for values below, inside, between and above the list.
func TestSeekGE(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := range 70 {
		a := make([]uint32, n)
		for i := range a {
			a[i] = r.Uint32N(200)
		}
		slices.Sort(a)
		a = slices.Compact(a)
		for lo := 0; lo <= len(a)+1; lo++ {
			for x := uint32(0); x < 205; x++ {
				want := lo
				for want < len(a) && a[want] < x {
					want++
				}
				if got := SeekGE(a, lo, x); got != want {
					t.Fatalf("SeekGE(%v, %d, %d) = %d, want %d", a, lo, x, got, want)
				}
			}
		}
	}
}
