//go:build !amd64

package prx

// haveShortKernel: no vector decoder on this architecture.
const haveShortKernel = false

func decodeShortVec(src []byte, out []uint32) (n, used int) { panic("unreachable") }
