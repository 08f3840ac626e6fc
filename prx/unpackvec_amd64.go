package prx

import "golang.org/x/sys/cpu"

// haveUnpackKernel: the CPU runs unpackAVX2 (fixed at start).
var haveUnpackKernel = cpu.X86.HasAVX2

// unpackVec unpacks the first len(out) (a multiple of 8) w-bit fields of src,
// 1 <= w <= vecMaxWidth; src holds vecSlack bytes after them.
func unpackVec(src []byte, w uint, out []uint32) {
	unpackAVX2(&src[0], &out[0], len(out)/8, int(w), &unpackTabs[w])
}

// unpackAVX2 is in unpackvec_amd64.s.
//
//go:noescape
func unpackAVX2(src *byte, out *uint32, groups, w int, tab *unpackTab)
