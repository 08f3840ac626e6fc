//go:build !amd64

package prx

// haveSumsKernel: no vector kernel on this architecture.
const haveSumsKernel = false

func runningSumsKernel(out, gaps []uint32, t uint32) uint64 { panic("unreachable") }
