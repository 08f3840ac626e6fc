//go:build !amd64

package prx

// haveUnpackKernel: no vector unpacker on this architecture.
const haveUnpackKernel = false

func unpackVec(src []byte, w uint, out []uint32) { panic("unreachable") }
