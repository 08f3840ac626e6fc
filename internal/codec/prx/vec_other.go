//go:build !amd64

package prx

// haveAVX2: no vector kernel on this architecture; the function below is
// never called.
const haveAVX2 = false

func decodeShortVec(src []byte, out []uint32) (n, used int) { panic("unreachable") }
