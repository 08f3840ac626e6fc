package bitpack

import "golang.org/x/sys/cpu"

// haveAVX2: the CPU runs the vector kernels of unpackvec_amd64.s and
// sums_amd64.s (fixed at start).
var haveAVX2 = cpu.X86.HasAVX2

// unpackVec unpacks the first len(out) (a multiple of 8) w-bit fields of src,
// 1 <= w <= vecMaxWidth; src holds vecSlack bytes after them.
func unpackVec(src []byte, w uint, out []uint32) {
	unpackAVX2(&src[0], &out[0], len(out)/8, int(w), &unpackTabs[w])
}

// runningSumsKernel is RunningSums for len(gaps) a positive multiple of 8, t
// taken mod 2^32; it returns the sum of the gaps (without the ones).
func runningSumsKernel(out, gaps []uint32, t uint32) uint64 {
	return runningSumsAVX2(&out[0], &gaps[0], len(gaps), t)
}

// The kernels, in the .s files.

//go:noescape
func unpackAVX2(src *byte, out *uint32, groups, w int, tab *unpackTab)

//go:noescape
func runningSumsAVX2(out, gaps *uint32, n int, t uint32) uint64
