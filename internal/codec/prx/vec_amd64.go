package prx

import "golang.org/x/sys/cpu"

// haveAVX2: the CPU runs the vector kernel of varintvec_amd64.s (fixed at
// start); the packed-block kernels are package internal/codec/bitpack's.
var haveAVX2 = cpu.X86.HasAVX2

// decodeShortVec decodes one- and two-byte uvarints from src into out, eight
// bytes at a time, while src holds 16 bytes and out room for 8 values; it
// returns the values decoded and the bytes they took (see varintvec.go).
func decodeShortVec(src []byte, out []uint32) (n, used int) {
	return decodeShortAVX2(&src[0], len(src), &out[0], len(out), &shortTabs[0])
}

// The kernel, in varintvec_amd64.s.

//go:noescape
func decodeShortAVX2(src *byte, srcLen int, out *uint32, outLen int, tab *shortTab) (n, used int)
