package sorted

// SeekGE returns the smallest index i >= lo with a[i] >= x, or len(a), by
// exponential search from lo followed by a binary search.
func SeekGE(a []uint32, lo int, x uint32) int {
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
	// a[prev] < x <= a[hi] (or hi == len(a)): the answer is in (prev, hi].
	// A binary search without a data-dependent branch (its comparisons are
	// unpredictable): base moves by half when a[base+half-1] < x, through the
	// sign of their difference. Every index read is below base+n-1 <= hi.
	base, n := prev+1, hi-prev
	for n > 1 {
		half := n >> 1
		d := int64(a[base+half-1]) - int64(x) // < 0 iff a[base+half-1] < x
		base += half & int(d>>63)
		n -= half
	}
	return base
}
