package bitpack

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestRunningSums compares RunningSums (the vector kernel where the CPU has
// one) with the scalar loop on random gaps of every length up to 300, small and
// large, in place and not, from totals near 0 and near 2^32, including sums
// that pass 2^32 (the full sum must say so).
func TestRunningSums(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 9))
	for n := 0; n <= 300; n++ {
		for _, maxGap := range []uint32{1, 200, 1 << 20, math.MaxUint32} {
			for _, start := range []uint64{0, 12345, math.MaxUint32 - 100, math.MaxUint32 + 7, math.MaxUint64} {
				gaps := make([]uint32, n)
				for i := range gaps {
					gaps[i] = uint32(rng.Uint64N(uint64(maxGap) + 1))
				}
				want := make([]uint32, n)
				wantT := runningSumsScalar(want, gaps, start)
				got := make([]uint32, n)
				gotT := RunningSums(got, gaps, start)
				if gotT != wantT || !slices.Equal(got, want) {
					t.Fatalf("n %d, max gap %d, start %d: sum %d, want %d; equal values %v", n, maxGap, start, gotT, wantT, slices.Equal(got, want))
				}
				inPlace := slices.Clone(gaps)
				if gotT := RunningSums(inPlace, inPlace, start); gotT != wantT || !slices.Equal(inPlace, want) {
					t.Fatalf("in place: n %d, max gap %d, start %d: sum %d, want %d", n, maxGap, start, gotT, wantT)
				}
			}
		}
	}
}

// FuzzRunningSums: RunningSums and the scalar loop agree on any bytes read
// as gaps.
func FuzzRunningSums(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33}, uint64(7))
	f.Fuzz(func(t *testing.T, b []byte, start uint64) {
		gaps := make([]uint32, len(b)/4)
		for i := range gaps {
			gaps[i] = uint32(b[4*i]) | uint32(b[4*i+1])<<8 | uint32(b[4*i+2])<<16 | uint32(b[4*i+3])<<24
		}
		want := make([]uint32, len(gaps))
		wantT := runningSumsScalar(want, gaps, start)
		got := make([]uint32, len(gaps))
		if gotT := RunningSums(got, gaps, start); gotT != wantT || !slices.Equal(got, want) {
			t.Fatalf("%d gaps from %d: sum %d, want %d", len(gaps), start, gotT, wantT)
		}
	})
}
