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

// TestDocSetUnion checks docSet against append+sort+compact for unions of up to
// 40 ascending lists of every density, below and above the bitset threshold,
// reusing one docSet (its bitset must come back clean), including an abandoned
// union.
func TestDocSetUnion(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var u docSet
	for iter := 0; iter < 400; iter++ {
		docCount := uint32(1 + rng.IntN(20000))
		u.reset(docCount)
		var want []uint32
		k := rng.IntN(40)
		for i := 0; i < k; i++ {
			l := randSet(rng, rng.IntN(min(int(docCount), 1+rng.IntN(600))+1), docCount)
			u.add(l)
			want = append(want, l...)
		}
		if iter%50 == 7 {
			continue // abandoned: the next reset must clear what is set
		}
		slices.Sort(want)
		want = slices.Compact(want)
		got := u.appendTo([]uint32{1 << 31}) // a prefix stays untouched
		if got[0] != 1<<31 || !slices.Equal(got[1:], want) {
			t.Fatalf("iter %d: %d lists over %d docs: union of %d docs, want %d", iter, k, docCount, len(got)-1, len(want))
		}
	}
}

// TestMatchSome checks matchSome against a brute force over the active phrase
// positions, and that with every position active it agrees with matchPhrase.
func TestMatchSome(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	cur := make([]int, 8)
	for iter := 0; iter < 20000; iter++ {
		n := 2 + rng.IntN(5)
		nSlots := 1 + rng.IntN(n)
		slotOf := make([]int, n)
		for i := range slotOf {
			slotOf[i] = rng.IntN(nSlots)
		}
		lists := make([][]uint32, nSlots)
		for s := range lists {
			lists[s] = randSet(rng, rng.IntN(10), 24)
		}
		var offs []uint32
		var sl []int
		for i, s := range slotOf {
			if rng.IntN(3) > 0 || len(offs) == 0 {
				offs, sl = append(offs, uint32(i)), append(sl, s)
			}
		}
		want := false
		for s := uint32(0); s < 24 && !want; s++ {
			all := true
			for j := range offs {
				if !slices.Contains(lists[sl[j]], s+offs[j]) {
					all = false
					break
				}
			}
			want = all
		}
		if got := matchSome(lists, offs, sl, cur); got != want {
			t.Fatalf("matchSome(%v, %v, %v) = %v, want %v", lists, offs, sl, got, want)
		}
		used := map[int]bool{}
		var allOffs []uint32
		for i, s := range slotOf {
			allOffs = append(allOffs, uint32(i))
			used[s] = true
		}
		if len(used) < nSlots {
			continue // matchPhrase needs every slot in the phrase
		}
		if a, b := matchSome(lists, allOffs, slotOf, cur), matchPhrase(lists, slotOf, cur); a != b {
			t.Fatalf("all positions: matchSome %v, matchPhrase %v (%v, %v)", a, b, lists, slotOf)
		}
	}
	if matchDelta([]uint32{1<<32 - 2}, []uint32{1}, 0, 3) {
		t.Fatal("wrapped pair matched")
	}
}
