package writer

import (
	"encoding/binary"
	"errors"
	"io"
	"math"
	"testing"

	"github.com/snii-go/snii/internal/errs"
)

// chunksOf returns a chunkReader over b cut into chunks of size n.
func chunksOf(b []byte, n int) *chunkReader {
	return &chunkReader{more: func() ([]byte, error) {
		if len(b) == 0 {
			return nil, io.EOF
		}
		c := b[:min(n, len(b))]
		b = b[len(c):]
		return c, nil
	}}
}

// TestChunkUvarint: the spill reader's uvarint follows bitpack.ReadUvarint's
// rule whether the encoding lies in one chunk or across several: minimal
// encodings decode, overlong or past-64-bit ones are corrupt.
func TestChunkUvarint(t *testing.T) {
	var b []byte
	vals := []uint64{0, 1, 127, 128, 300, 1 << 20, math.MaxUint32, 1 << 56, math.MaxUint64}
	for _, v := range vals {
		b = binary.AppendUvarint(b, v)
	}
	for _, n := range []int{1, 2, 3, 64} {
		r := chunksOf(b, n)
		for _, want := range vals {
			if got, err := r.uvarint(); err != nil || got != want {
				t.Fatalf("chunks of %d: uvarint = %d, %v; want %d", n, got, err, want)
			}
		}
	}
	for _, bad := range [][]byte{
		{0x80, 0x00},
		{0xff, 0x80, 0x00},
		{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02},
		{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01},
	} {
		for _, n := range []int{1, 64} {
			if v, err := chunksOf(bad, n).uvarint(); !errors.Is(err, errs.Corrupt) {
				t.Errorf("% x in chunks of %d: %d, %v; want a corrupt error", bad, n, v, err)
			}
		}
	}
}
