package zstdopt

import (
	"bytes"
	"errors"
	"testing"

	"github.com/snii-go/snii/internal/errs"
)

func TestLevels(t *testing.T) {
	for l := 0; l <= MaxLevel; l++ {
		e, err := NewEncoder(l)
		if err != nil {
			t.Fatalf("level %d: %v", l, err)
		}
		e.Close()
	}
	for _, l := range []int{-1, MaxLevel + 1} {
		if _, err := NewEncoder(l); !errors.Is(err, errs.InvalidArgument) {
			t.Errorf("level %d: %v", l, err)
		}
	}
}

// TestDecoderCaps: a frame over maxBytes, or over the room left in dst, is
// refused before its output is allocated; one within both decodes.
func TestDecoderCaps(t *testing.T) {
	e, err := NewEncoder(0)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	plain := bytes.Repeat([]byte("snii zstd "), 300) // 3000 bytes
	frame := e.EncodeAll(plain, nil)

	d, err := NewDecoder(2000)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if _, err := d.DecodeAll(frame, make([]byte, 0, 4000)); err == nil {
		t.Error("a 3000-byte frame decoded with maxBytes 2000")
	}
	d2, err := NewDecoder(1 << 20)
	if err != nil {
		t.Fatal(err)
	}
	defer d2.Close()
	if _, err := d2.DecodeAll(frame, make([]byte, 0, 1000)); err == nil {
		t.Error("a 3000-byte frame decoded into 1000 bytes of room")
	}
	out, err := d2.DecodeAll(frame, make([]byte, 0, len(plain)))
	if err != nil || !bytes.Equal(out, plain) {
		t.Errorf("decode: %v", err)
	}
	if _, err := NewDecoder(10); err != nil { // below zstd's smallest window
		t.Errorf("maxBytes 10: %v", err)
	}
}
