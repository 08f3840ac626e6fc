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
		// Values of up to w bits, and a wide one now and then (an exception
		// of its packed block).
		w, vals := uint(rng.IntN(33)), make([]uint32, n)
		for i := range vals {
			if vals[i] = uint32(rng.Uint64() & (1<<w - 1)); rng.IntN(64) == 0 {
				vals[i] = rng.Uint32()
			}
		}
		if got, want := rawPositionsSize(vals), len(appendRawPositions(nil, vals)); got != want {
			t.Fatalf("rawPositionsSize %d, payload %d", got, want)
		}
		if !bytes.Equal(appendRawPositions(nil, vals), refRawPayload(vals)) {
			t.Fatal("RAW payload differs from the reference")
		}
		col := appendPackedColumn(nil, vals, nil)
		size, par := packedColumnSize(vals, nil)
		if size != len(col) || !bytes.Equal(col, refPackedColumn(nil, vals)) {
			t.Fatalf("packed column: size %d, %d bytes", size, len(col))
		}
		if !bytes.Equal(appendPackedColumn(nil, vals, par), col) {
			t.Fatal("packed column from the measured parameters differs")
		}
	}
}
