//go:build unix

package writer

import (
	"testing"
	"unsafe"
)

// TestMapRaw: a mapping has the size asked for, reads zero, takes writes at
// both ends, starts on a huge page boundary from hugePage bytes on, and
// unmaps; an empty one is an error.
func TestMapRaw(t *testing.T) {
	for _, n := range []int{1, 4095, 4096, 4097, hugePage - 1, hugePage, hugePage + 1, 5*hugePage + 123} {
		b, err := mapRaw(n)
		if err != nil {
			t.Fatalf("mapRaw(%d): %v", n, err)
		}
		if len(b) != n || cap(b) != n {
			t.Fatalf("mapRaw(%d): len %d cap %d", n, len(b), cap(b))
		}
		if b[0] != 0 || b[n-1] != 0 {
			t.Fatalf("mapRaw(%d): not zeroed", n)
		}
		b[0], b[n-1] = 1, 2
		if addr := uintptr(unsafe.Pointer(unsafe.SliceData(b))); n >= hugePage && addr%hugePage != 0 {
			t.Fatalf("mapRaw(%d) at %#x: not on a huge page boundary", n, addr)
		}
		if err := unmapRaw(b); err != nil {
			t.Fatalf("unmapRaw(%d): %v", n, err)
		}
	}
	if _, err := mapRaw(0); err == nil {
		t.Fatal("mapRaw(0): no error")
	}
}
