package bitpack

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestUnpackVec compares the vector unpacker (where the CPU has one) with the
// generated one for every width it takes, on random fields of 8 to 128
// values followed by random bytes (which must not leak into a field).
func TestUnpackVec(t *testing.T) {
	if !haveAVX2 {
		t.Skip("no vector unpacker on this CPU")
	}
	rng := rand.New(rand.NewPCG(8, 13))
	for w := uint(1); w <= vecMaxWidth; w++ {
		for n := 8; n <= BlockLen; n += 8 {
			for range 4 {
				src := make([]byte, n*int(w)/8+vecSlack)
				for i := range src {
					src[i] = byte(rng.Uint32())
				}
				want := make([]uint32, n)
				if !unpackFixed(src, w, want) {
					t.Fatalf("w %d: no generated unpacker", w)
				}
				got := make([]uint32, n)
				unpackVec(src, w, got)
				if !slices.Equal(got, want) {
					t.Fatalf("w %d, %d fields: vector %v, want %v", w, n, got, want)
				}
			}
		}
	}
}

// FuzzUnpackVec: the vector and the generated unpacker agree on any bytes.
func FuzzUnpackVec(f *testing.F) {
	f.Add([]byte("0123456789abcdefghijklmnopqrstuvwxyz0123456789"), uint8(5))
	f.Fuzz(func(t *testing.T, b []byte, wb uint8) {
		if !haveAVX2 {
			t.Skip("no vector unpacker on this CPU")
		}
		w := uint(wb%vecMaxWidth) + 1
		n := (len(b) - vecSlack) * 8 / int(w) &^ 7
		if n <= 0 {
			return
		}
		want := make([]uint32, n)
		unpackFixed(b, w, want)
		got := make([]uint32, n)
		unpackVec(b, w, got)
		if !slices.Equal(got, want) {
			t.Fatalf("w %d, %d fields: differ", w, n)
		}
	})
}
