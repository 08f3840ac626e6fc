//go:build !amd64

package bitpack

// haveAVX2: no vector kernels on this architecture; the functions below are
// never called.
const haveAVX2 = false

func unpackVec(src []byte, w uint, out []uint32)            { panic("unreachable") }
func runningSumsKernel(out, gaps []uint32, t uint32) uint64 { panic("unreachable") }
