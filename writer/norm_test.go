package writer_test

import (
	"testing"

	"github.com/snii-go/snii/reader"
	"github.com/snii-go/snii/writer"
)

// TestNorm: Norm is what reader.FieldLength decodes: exact up to 23, rounded
// down beyond, monotone, and stable under a decode and re-encode.
func TestNorm(t *testing.T) {
	prev := byte(0)
	for _, l := range []uint64{0, 1, 5, 23, 24, 25, 31, 40, 100, 1000, 12345, 1 << 20, 1<<31 - 1, 1 << 40} {
		n := writer.Norm(l)
		back := uint64(reader.FieldLength(n))
		switch {
		case l < 24 && back != l:
			t.Errorf("Norm(%d) decodes to %d, want it exact", l, back)
		case back > l:
			t.Errorf("Norm(%d) decodes to %d, more than the length", l, back)
		case writer.Norm(back) != n:
			t.Errorf("Norm(%d) = %d, but Norm(%d) = %d", l, n, back, writer.Norm(back))
		case n < prev:
			t.Errorf("Norm(%d) = %d is below the norm of a shorter length (%d)", l, n, prev)
		}
		prev = n
	}
	if got := writer.Norm(1 << 40); got != writer.Norm(1<<31-1) {
		t.Errorf("Norm(2^40) = %d, want the saturated %d", got, writer.Norm(1<<31-1))
	}
}
