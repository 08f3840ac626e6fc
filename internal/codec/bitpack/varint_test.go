package bitpack

import (
	"encoding/binary"
	"math"
	"testing"
)

// TestReadUvarint: every minimal encoding decodes to its value; a truncated,
// overlong (trailing zero group) or over-64-bit encoding fails and leaves
// next at p; ReadUvarint32 agrees wherever the value fits 32 bits.
func TestReadUvarint(t *testing.T) {
	for _, v := range []uint64{0, 1, 127, 128, 300, 1<<14 - 1, 1 << 14, math.MaxUint32, math.MaxUint32 + 1, 1 << 56, math.MaxUint64} {
		b := append([]byte{0xff}, binary.AppendUvarint(nil, v)...)
		got, next, ok := ReadUvarint(b, 1)
		if !ok || got != v || next != len(b) {
			t.Errorf("ReadUvarint(%d) = %d, %d, %v; want %d, %d, true", v, got, next, ok, v, len(b))
		}
		g32, n32, ok32 := ReadUvarint32(b, 1)
		if fits := v <= math.MaxUint32; ok32 != fits || (fits && (uint64(g32) != v || n32 != next)) {
			t.Errorf("ReadUvarint32(%d) = %d, %d, %v", v, g32, n32, ok32)
		}
		if gb, nb, okb := ReadUvarint32Byte(b, 1); okb != (v < 0x80) || (okb && (uint64(gb) != v || nb != next)) {
			t.Errorf("ReadUvarint32Byte(%d) = %d, %d, %v; want ok only for one byte", v, gb, nb, okb)
		}
		if _, next, ok := ReadUvarint(b[:len(b)-1], 1); ok || next != 1 {
			t.Errorf("truncated %d: ok %v next %d", v, ok, next)
		}
	}
	for _, b := range [][]byte{
		{0x80, 0x00},       // 0 in two bytes
		{0x81, 0x80, 0x00}, // 1 in three bytes
		{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02},       // past 64 bits
		{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}, // 11 bytes
		{}, // empty
	} {
		if v, next, ok := ReadUvarint(b, 0); ok || next != 0 {
			t.Errorf("ReadUvarint(% x) = %d, %d, %v; want a failure at 0", b, v, next, ok)
		}
		if _, _, ok := ReadUvarint32(b, 0); ok {
			t.Errorf("ReadUvarint32(% x) accepted", b)
		}
		if _, _, ok := ReadUvarint32Byte(b, 0); ok {
			t.Errorf("ReadUvarint32Byte(% x) accepted", b)
		}
	}
	if _, next, ok := ReadUvarint([]byte{1}, 5); ok || next != 5 {
		t.Errorf("ReadUvarint past the end: ok %v next %d", ok, next)
	}
}

// TestReadUvarintTwoBytes: ReadUvarint and ReadUvarint32, whose one- and
// two-byte cases are ReadUvarint32Short's, agree with ReadUvarint32Slow on
// every pair of bytes, alone and followed by more bytes, at the start of b
// and after one byte; ReadUvarint32Short reads exactly the uvarints of one
// and two bytes.
func TestReadUvarintTwoBytes(t *testing.T) {
	for c := range 256 {
		for d := range 256 {
			for _, b := range [][]byte{{byte(c), byte(d)}, {byte(c), byte(d), 0x01}, {byte(c), byte(d), 0x81, 0x01}} {
				for _, p := range []int{0, 1} {
					want, wnext, wok := ReadUvarint32Slow(b, p)
					if !wok {
						wnext = p
					}
					if v, next, ok := ReadUvarint32(b, p); ok != wok || (ok && (v != want || next != wnext)) {
						t.Fatalf("ReadUvarint32(% x, %d) = %d, %d, %v; want %d, %d, %v", b, p, v, next, ok, want, wnext, wok)
					}
					short := wok && wnext-p <= 2 // one byte, or a canonical two
					if v, next, ok := ReadUvarint32Short(b, p); ok != short || (ok && (v != want || next != wnext)) {
						t.Fatalf("ReadUvarint32Short(% x, %d) = %d, %d, %v; want ok %v (%d, %d)", b, p, v, next, ok, short, want, wnext)
					}
					if v, next, ok := ReadUvarint(b, p); ok != wok || next != wnext || (ok && v != uint64(want)) {
						t.Fatalf("ReadUvarint(% x, %d) = %d, %d, %v; want %d, %d, %v", b, p, v, next, ok, want, wnext, wok)
					}
				}
			}
		}
	}
}
