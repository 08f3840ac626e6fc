package reader

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func randSet(rng *rand.Rand, n int, max uint32) []uint32 {
	m := map[uint32]bool{}
	for len(m) < n {
		m[rng.Uint32N(max)] = true
	}
	out := make([]uint32, 0, n)
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func TestSetOps(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for it := 0; it < 2000; it++ {
		a := randSet(rng, rng.IntN(50), 200)
		b := randSet(rng, rng.IntN(150), 200)
		in := map[uint32]int{}
		for _, x := range a {
			in[x]++
		}
		for _, x := range b {
			in[x] += 2
		}
		var wantI, wantU []uint32
		for k, v := range in {
			wantU = append(wantU, k)
			if v == 3 {
				wantI = append(wantI, k)
			}
		}
		slices.Sort(wantI)
		slices.Sort(wantU)
		if got := intersect(nil, a, b); !slices.Equal(got, wantI) {
			t.Fatalf("intersect(%v, %v) = %v, want %v", a, b, got, wantI)
		}
		if got := intersect(nil, b, a); !slices.Equal(got, wantI) {
			t.Fatalf("intersect(%v, %v) = %v, want %v", b, a, got, wantI)
		}
		if got := union(nil, a, b); !slices.Equal(got, wantU) {
			t.Fatalf("union = %v, want %v", got, wantU)
		}
		for lo := 0; lo <= len(b); lo++ {
			x := rng.Uint32N(210)
			want := lo
			for want < len(b) && b[want] < x {
				want++
			}
			if got := seekGE(b, lo, x); got != want {
				t.Fatalf("seekGE(%v, %d, %d) = %d, want %d", b, lo, x, got, want)
			}
		}
	}
}

// bruteMatch is the obvious quadratic phrase check.
func bruteMatch(lists [][]uint32, slotOf []int) bool {
	has := func(l []uint32, x uint32) bool { _, ok := slices.BinarySearch(l, x); return ok }
	for _, p := range lists[slotOf[0]] {
		ok := true
		for i, s := range slotOf {
			ok = ok && has(lists[s], p+uint32(i))
		}
		if ok {
			return true
		}
	}
	return false
}

func TestMatchPhrase(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	cur := make([]int, 8)
	matches := 0
	for it := 0; it < 20000; it++ {
		nSlots := 1 + rng.IntN(3)
		n := 1 + rng.IntN(6)
		slotOf := make([]int, n)
		for i := range slotOf {
			slotOf[i] = rng.IntN(nSlots)
		}
		// every slot must occur
		for s := 0; s < nSlots; s++ {
			slotOf[rng.IntN(n)] = s
		}
		used := map[int]bool{}
		for _, s := range slotOf {
			used[s] = true
		}
		if len(used) != nSlots {
			continue
		}
		lists := make([][]uint32, nSlots)
		for s := range lists {
			lists[s] = randSet(rng, rng.IntN(12), 30)
		}
		want := bruteMatch(lists, slotOf)
		if want {
			matches++
		}
		if got := matchPhrase(lists, slotOf, cur); got != want {
			t.Fatalf("matchPhrase(%v, %v) = %v, want %v", lists, slotOf, got, want)
		}
	}
	if matches < 100 {
		t.Fatalf("only %d matching cases generated", matches)
	}
	// positions near the top of the range must not wrap around
	if matchPhrase([][]uint32{{0}, {1<<32 - 1}}, []int{1, 0}, cur) {
		t.Fatal("wrapped phrase matched")
	}
}
