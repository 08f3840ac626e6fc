package format

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"github.com/snii-go/snii/internal/codec/bitpack"
)

// TestSkipPairs: skipPairs ends where the loop of uvarint and u8 ends, and
// fails exactly where it fails, on well-formed, truncated, overlong,
// overflowing and non-minimal input.
func TestSkipPairs(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var inputs [][]byte
	for range 3000 {
		var b []byte
		for range rng.IntN(6) {
			switch rng.IntN(8) {
			case 0: // random bytes
				for range rng.IntN(12) {
					b = append(b, byte(rng.UintN(256)))
				}
			case 1: // non-minimal: a continuation byte then 0
				b = append(b, 0x80|byte(rng.UintN(128)), 0)
			case 2: // ten bytes whose last is 1 (the largest) or 2 (overflow)
				for range 9 {
					b = append(b, 0xff)
				}
				b = append(b, byte(1+rng.UintN(2)))
			case 3: // eleven continuation bytes
				for range 11 {
					b = append(b, 0x80)
				}
			default: // a valid pair
				b = binary.AppendUvarint(b, rng.Uint64()>>rng.UintN(64))
				b = append(b, byte(rng.UintN(256)))
			}
		}
		inputs = append(inputs, b)
	}
	for i, b := range inputs {
		for n := range 6 {
			for _, start := range []int{0, 1} {
				want := reader{b: b, off: start}
				for range n {
					want.uvarint()
					want.u8()
				}
				got := reader{b: b, off: start}
				got.skipPairs(n)
				if got.ok() != want.ok() || (got.ok() && got.off != want.off) {
					t.Fatalf("input %d %x, %d pairs from %d: skipPairs ok %v off %d, the loop ok %v off %d", i, b, n, start, got.ok(), got.off, want.ok(), want.off)
				}
			}
		}
	}
}

// TestReaderUvarint: the reader's uvarint (its one-byte case read inline)
// reads what bitpack.ReadUvarint reads, and fails where it fails, at every
// offset of random, truncated and non-minimal input.
func TestReaderUvarint(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 2000 {
		var b []byte
		for range rng.IntN(5) {
			if rng.IntN(4) == 0 {
				b = append(b, 0x80|byte(rng.UintN(128)), 0) // non-minimal
				continue
			}
			b = binary.AppendUvarint(b, rng.Uint64()>>rng.UintN(64))
		}
		b = b[:rng.IntN(len(b)+1)] // truncated
		for off := 0; off <= len(b); off++ {
			r := reader{b: b, off: off}
			got := r.uvarint()
			want, next, ok := bitpack.ReadUvarint(b, off)
			if r.ok() != ok || (ok && (got != want || r.off != next)) {
				t.Fatalf("input %d %x at %d: uvarint %d, off %d, ok %v; ReadUvarint %d, %d, %v", i, b, off, got, r.off, r.ok(), want, next, ok)
			}
		}
	}
}

// TestVerifiedUvarint: the window cursor's unchecked uvarint reads what
// bitpack.ReadUvarint reads on valid input, and stops at the end of
// truncated input.
func TestVerifiedUvarint(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for i := range 2000 {
		var b []byte
		for range 1 + rng.IntN(4) {
			b = binary.AppendUvarint(b, rng.Uint64()>>rng.UintN(64))
		}
		for off := 0; off < len(b); {
			want, next, ok := bitpack.ReadUvarint(b, off)
			got, gnext := verifiedUvarint(b, off)
			if !ok || got != want || gnext != next {
				t.Fatalf("input %d %x at %d: %d, %d; ReadUvarint %d, %d, %v", i, b, off, got, gnext, want, next, ok)
			}
			off = next
		}
		if n := len(b) - 1; n > 0 && b[n-1] >= 0x80 { // the last uvarint's bytes before its last
			if _, next := verifiedUvarint(b[:n], n-1); next != n {
				t.Fatalf("input %d %x truncated to %d: stopped at %d", i, b, n, next)
			}
		}
	}
}
