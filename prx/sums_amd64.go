package prx

import "golang.org/x/sys/cpu"

// haveSumsKernel: the CPU runs runningSumsAVX2 (fixed at start).
var haveSumsKernel = cpu.X86.HasAVX2

// runningSumsKernel is RunningSums for len(gaps) a positive multiple of 8, t
// taken mod 2^32; it returns the sum of the gaps (without the ones).
func runningSumsKernel(out, gaps []uint32, t uint32) uint64 {
	return runningSumsAVX2(&out[0], &gaps[0], len(gaps), t)
}

// runningSumsAVX2 is in sums_amd64.s.
//
//go:noescape
func runningSumsAVX2(out, gaps *uint32, n int, t uint32) uint64
