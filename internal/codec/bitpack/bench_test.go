package bitpack

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkPackBlock: Params + AppendBlock, and Unpack, of full blocks.
func BenchmarkPackBlock(b *testing.B) {
	rng := rand.New(rand.NewPCG(45, 46))
	blocks := make([][]uint32, 64)
	for i := range blocks {
		blocks[i] = blockOf(rng, BlockLen, uint(1+rng.IntN(20)), rng.IntN(3))
	}
	b.Run("pack", func(b *testing.B) {
		dst := make([]byte, 0, 1024)
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			blk := blocks[i%len(blocks)]
			w, nx, _ := Params(blk)
			dst = AppendBlock(dst[:0], blk, w, nx)
		}
	})
	b.Run("unpack", func(b *testing.B) {
		packed := make([][]byte, len(blocks))
		for i, blk := range blocks {
			w, nx, _ := Params(blk)
			packed[i] = AppendBlock(nil, blk, w, nx)
		}
		out := make([]uint32, BlockLen)
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if _, ok := Unpack(packed[i%len(packed)], 0, out); !ok {
				b.Fatal("malformed")
			}
		}
	})
}
