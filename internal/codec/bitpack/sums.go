package bitpack

// RunningSums stores in out[i] the low 32 bits of t + (gaps[0]+1) + ... +
// (gaps[i]+1) and returns that sum for the last i in full (t when gaps is
// empty): a doc id block from its gaps (each doc one more than the previous
// plus its gap), or a unit's position offsets from its tf-1 column. out must
// be as long as gaps and may be gaps itself. The full sum lets the caller
// check the range: every out[i] is exact when the returned sum fits in 32
// bits.
//
// On amd64 with AVX2 the groups of eight take a vector kernel (prefix sums in
// registers, fewer instructions a value than the scalar loop).
func RunningSums(out, gaps []uint32, t uint64) uint64 {
	n := len(gaps)
	out = out[:n]
	i := 0
	for haveAVX2 && n-i >= 8 {
		m := min(n-i, maxKernelRun) &^ 7
		t += runningSumsKernel(out[i:i+m], gaps[i:i+m], uint32(t)) + uint64(m)
		i += m
	}
	return runningSumsScalar(out[i:], gaps[i:], t)
}

// maxKernelRun bounds the values of one kernel call (its 32-bit lane sums of
// 16-bit halves cannot overflow below 2^16 groups of eight).
const maxKernelRun = 1 << 16

// runningSumsScalar is RunningSums without the vector kernel.
func runningSumsScalar(out, gaps []uint32, t uint64) uint64 {
	out = out[:len(gaps)]
	for i, g := range gaps {
		t += uint64(g) + 1
		out[i] = uint32(t)
	}
	return t
}
