package reader

// gallopRatio is the size ratio from which intersections gallop (exponential
// search in the larger list) instead of merging.
const gallopRatio = 8

// seekGE returns the smallest index i >= lo with a[i] >= x, or len(a), by
// exponential search from lo followed by a binary search.
func seekGE(a []uint32, lo int, x uint32) int {
	if lo >= len(a) || a[lo] >= x {
		return lo
	}
	// a[lo] < x: find a bound hi with a[hi] >= x (or len(a)).
	step := 1
	prev := lo
	hi := lo + 1
	for hi < len(a) && a[hi] < x {
		prev = hi
		step <<= 1
		hi = lo + step
	}
	if hi > len(a) {
		hi = len(a)
	}
	// a[prev] < x <= a[hi] (or hi == len(a)): binary search in (prev, hi].
	l, r := prev+1, hi
	for l < r {
		m := int(uint(l+r) >> 1)
		if a[m] < x {
			l = m + 1
		} else {
			r = m
		}
	}
	return l
}

// intersect appends a ∩ b (both ascending, no duplicates) to dst. It gallops in
// the larger list when the sizes differ by gallopRatio or more.
func intersect(dst, a, b []uint32) []uint32 {
	if len(a) > len(b) {
		a, b = b, a
	}
	if len(a) == 0 {
		return dst
	}
	if len(a)*gallopRatio <= len(b) {
		j := 0
		for _, x := range a {
			j = seekGE(b, j, x)
			if j == len(b) {
				break
			}
			if b[j] == x {
				dst = append(dst, x)
				j++
			}
		}
		return dst
	}
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch x, y := a[i], b[j]; {
		case x < y:
			i++
		case x > y:
			j++
		default:
			dst = append(dst, x)
			i++
			j++
		}
	}
	return dst
}

// union appends a ∪ b (both ascending, no duplicates) to dst.
func union(dst, a, b []uint32) []uint32 {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch x, y := a[i], b[j]; {
		case x < y:
			dst = append(dst, x)
			i++
		case x > y:
			dst = append(dst, y)
			j++
		default:
			dst = append(dst, x)
			i++
			j++
		}
	}
	dst = append(dst, a[i:]...)
	return append(dst, b[j:]...)
}

// matchPhrase reports whether there is a start s such that, for every phrase
// position i, the ascending list lists[slotOf[i]] holds s+i. The search is
// anchored on the slot with the fewest positions: every position p of the anchor
// at phrase offset k proposes s = p-k, and every other position is checked with a
// forward-only galloping cursor (the proposals are ascending for a fixed k).
// cur is scratch space of at least len(slotOf) ints.
func matchPhrase(lists [][]uint32, slotOf []int, cur []int) bool {
	if len(slotOf) == 2 && slotOf[0] != slotOf[1] {
		return matchPair(lists[slotOf[0]], lists[slotOf[1]])
	}
	anchor := 0
	for s := 1; s < len(lists); s++ {
		if len(lists[s]) < len(lists[anchor]) {
			anchor = s
		}
	}
	if len(lists[anchor]) == 0 {
		return false
	}
	cur = cur[:len(slotOf)]
	for k, sk := range slotOf {
		if sk != anchor {
			continue
		}
		for i := range cur {
			cur[i] = 0
		}
	starts:
		for _, p := range lists[anchor] {
			if p < uint32(k) {
				continue
			}
			s := p - uint32(k)
			for i, si := range slotOf {
				if i == k {
					continue
				}
				want := s + uint32(i)
				if want < s { // overflow: no later start fits either
					break starts
				}
				l := lists[si]
				c := seekGE(l, cur[i], want)
				cur[i] = c
				if c == len(l) {
					// no later start can match position i either
					break starts
				}
				if l[c] != want {
					continue starts
				}
			}
			return true
		}
	}
	return false
}

// matchPair reports whether some p in a has p+1 in b (a two-term phrase), by
// galloping in the longer list.
func matchPair(a, b []uint32) bool {
	if len(a) <= len(b) {
		j := 0
		for _, p := range a {
			if p == 1<<32-1 {
				return false
			}
			j = seekGE(b, j, p+1)
			if j == len(b) {
				return false
			}
			if b[j] == p+1 {
				return true
			}
		}
		return false
	}
	i := 0
	for _, q := range b {
		if q == 0 {
			continue
		}
		i = seekGE(a, i, q-1)
		if i == len(a) {
			return false
		}
		if a[i] == q-1 {
			return true
		}
	}
	return false
}
