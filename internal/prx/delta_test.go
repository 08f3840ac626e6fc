package prx

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

func TestZigzag(t *testing.T) {
	for _, c := range []struct {
		d int64
		v uint32
	}{{0, 0}, {-1, 1}, {1, 2}, {-2, 3}, {2, 4}, {MaxPosition, 1<<32 - 2}, {-MaxPosition, 1<<32 - 3}, {-(1 << 31), 1<<32 - 1}} {
		if got := zigzag(c.d); got != c.v {
			t.Errorf("zigzag(%d) = %d, want %d", c.d, got, c.v)
		}
		if got := unzigzag(c.v); got != c.d {
			t.Errorf("unzigzag(%d) = %d, want %d", c.v, got, c.d)
		}
	}
}

// The RAW payload sizes and the packed column sizes agree with the bytes.
func TestColumnSizes(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 28))
	for it := 0; it < 300; it++ {
		n := 1 + rng.IntN(1000)
		vals := blockOf(rng, n, uint(rng.IntN(33)), rng.IntN(3))
		if got, want := rawPositionsSize(vals), len(appendRawPositions(nil, vals)); got != want {
			t.Fatalf("rawPositionsSize %d, payload %d", got, want)
		}
		if !bytes.Equal(appendRawPositions(nil, vals), refRawPayload(vals)) {
			t.Fatal("RAW payload differs from the reference")
		}
		col := appendPackedColumn(nil, vals)
		if packedColumnSize(vals) != len(col) || !bytes.Equal(col, refPackedColumn(nil, vals)) {
			t.Fatalf("packed column: size %d, %d bytes", packedColumnSize(vals), len(col))
		}
	}
}

// blockOf draws c values: most of bit length w, with nx of them (when nx > 0)
// much wider, so that every width and exception count comes up.
func blockOf(rng *rand.Rand, c int, w uint, nx int) []uint32 {
	vals := make([]uint32, c)
	for i := range vals {
		if w > 0 {
			vals[i] = rng.Uint32() >> (32 - w)
		}
	}
	if w > 0 && c > 0 {
		vals[rng.IntN(c)] |= 1 << (w - 1) // exactly w bits wide
	}
	for k := 0; k < nx && k < c; k++ {
		vals[rng.IntN(c)] = rng.Uint32() | 1<<31
	}
	return vals
}
