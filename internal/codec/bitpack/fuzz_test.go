package bitpack

import (
	"bytes"
	"encoding/binary"
	"slices"
	"testing"
)

// FuzzPackBlock: any up to 128 values pack with Params into the smallest block
// and unpack to themselves; any bytes given to Unpack and Skip are safe,
// and when both accept a full block they agree on its end.
func FuzzPackBlock(f *testing.F) {
	f.Add([]byte{1, 0, 0, 0, 0xe8, 3, 0, 0, 2, 0, 0, 0}, []byte{0x42, 0xb1, 0x01, 0xfa, 0x01})
	f.Add(bytes.Repeat([]byte{0xff}, 512), []byte{0x20})
	f.Add([]byte{}, []byte{})
	// A long token: 64 small values and 10 wide ones (more exceptions than a
	// short token counts), and a crafted long-token block of width 2.
	long := make([]byte, 0, 256)
	for i := 0; i < 64; i++ {
		v := uint32(i % 3)
		if i%7 == 0 {
			v = 1<<20 + uint32(i)
		}
		long = binary.LittleEndian.AppendUint32(long, v)
	}
	f.Add(long, []byte{longForm + 2, 4, 0xff, 0xff, 0, 1, 1, 2, 1, 3, 1, 4, 1})
	f.Fuzz(func(t *testing.T, vb []byte, raw []byte) {
		n := min(len(vb)/4, BlockLen)
		if n > 0 {
			vals := make([]uint32, n)
			for i := range vals {
				vals[i] = binary.LittleEndian.Uint32(vb[4*i:])
			}
			w, nx, size := Params(vals)
			if rw, rnx, rsize := refParams(vals); w != rw || nx != rnx || size != rsize {
				t.Fatalf("Params (%d, %d, %d), smallest (%d, %d, %d)", w, nx, size, rw, rnx, rsize)
			}
			blk := AppendBlock(nil, vals, w, nx)
			if len(blk) != size {
				t.Fatalf("block of %d bytes, size %d", len(blk), size)
			}
			out := make([]uint32, n)
			if next, ok := Unpack(blk, 0, out); !ok || next != size || !slices.Equal(out, vals) {
				t.Fatalf("round trip: ok %v next %d", ok, next)
			}
		}
		c := 1 + len(vb)%BlockLen
		out := make([]uint32, c)
		next, ok := Unpack(raw, 0, out)
		if ok && (next > len(raw) || next < 1) {
			t.Fatalf("Unpack ended at %d of %d", next, len(raw))
		}
		full := make([]uint32, BlockLen)
		n1, ok1 := Unpack(raw, 0, full)
		n2, ok2 := Skip(raw, 0, BlockLen)
		if ok2 && n2 > len(raw) {
			t.Fatalf("Skip ended at %d of %d", n2, len(raw))
		}
		if ok1 && (!ok2 || n1 != n2) {
			t.Fatalf("Unpack ok at %d, Skip %v at %d", n1, ok2, n2)
		}
	})
}
