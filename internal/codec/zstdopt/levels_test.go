package zstdopt

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// TestShareEveryLevel: at every level, a frame Share returns decodes, through
// Unshare and NewDecoder (the reader's path), to the payload it was made of.
// At levels 3 and 4 klauspost leaves many literals in small frames; stored raw
// by Unshare they and the sequences can take more bytes than the frame's
// content, the window of a single-segment frame, which a decoder refuses as a
// block larger than its window.
func TestShareEveryLevel(t *testing.T) {
	dec, err := NewDecoder(1 << 20)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(21, 22))
	var payloads [][]byte
	for i := 0; i < 300; i++ {
		payloads = append(payloads, positionsPayload(rng, 500+rng.IntN(4000)), scatteredPayload(rng, 500+rng.IntN(1500)))
	}
	for level := 1; level <= MaxLevel; level++ {
		enc, err := NewEncoder(level)
		if err != nil {
			t.Fatal(err)
		}
		var s Sharer
		over := 0 // frames whose literals stored raw overflow the content size
		for i, p := range payloads {
			fr, err := s.Share(enc.EncodeAll(p, nil), nil)
			if err != nil {
				t.Fatal(err)
			}
			un, err := Unshare(fr, nil, len(p))
			if err != nil {
				t.Fatalf("level %d payload %d: Unshare: %v", level, i, err)
			}
			if len(un) > len(fr)+len(p)+UnshareGrowth {
				t.Fatalf("level %d payload %d: Unshare made %d bytes of a %d-byte frame of %d", level, i, len(un), len(fr), len(p))
			}
			if fr[4]&3 != 0 && un[4]&0x20 == 0 {
				over++
			}
			out, err := dec.DecodeAll(un, make([]byte, 0, len(p)))
			if err != nil || !bytes.Equal(out, p) {
				t.Fatalf("level %d payload %d (%d bytes, frame %d, unshared %d): %v", level, i, len(p), len(fr), len(un), err)
			}
		}
		t.Logf("level %d: %d of %d frames unshared into a frame with a window", level, over, len(payloads))
	}
}

// scatteredPayload returns about n bytes of uvarints like the positions of a
// word scattered through long documents: gaps drawn from an exponential law
// (mostly one- and two-byte values), with short runs of a few small values
// repeated, so that zstd finds few and short matches.
func scatteredPayload(rng *rand.Rand, n int) []byte {
	var b []byte
	mean := float64(20 + rng.IntN(300))
	for len(b) < n {
		if rng.IntN(8) == 0 {
			for k := 2 + rng.IntN(3); k > 0; k-- {
				b = binary.AppendUvarint(b, uint64(1+rng.IntN(3)))
			}
			continue
		}
		b = binary.AppendUvarint(b, 1+uint64(rng.ExpFloat64()*mean))
	}
	return b
}

// TestShareFullBlock: a frame of one block near 128 KiB, its literals coded
// with a table of their own, takes a shared table only when its literals
// stored raw and its sequences fit one block (Unshare writes them so), and
// whatever Share returns decodes through Unshare.
func TestShareFullBlock(t *testing.T) {
	dec, err := NewDecoder(1 << 20)
	if err != nil {
		t.Fatal(err)
	}
	encs := levelEncoders(t)
	var s Sharer
	rng := rand.New(rand.NewPCG(41, 42))
	big := 0
	for k := 0; k < 24; k++ {
		enc := encs[k%len(encs)]
		for _, n := range []int{120 << 10, 127 << 10, 131000, 131072} {
			var p []byte
			if k%2 == 0 {
				p = tableSample(t, rng, 2, n, []int{60, 200, 2000}[k/2%3])[:n]
			} else {
				p = scatteredPayload(rng, n)[:n]
			}
			in := enc.EncodeAll(p, nil)
			fr, err := s.Share(in, nil)
			if err != nil {
				t.Fatal(err)
			}
			if f, ok := parseFrame(in); ok {
				if raw := rawHeaderLen(f.regen) + f.regen + len(in) - f.lit - f.litLen; raw > maxBlockSize {
					big++
					if fr[4]&3 != 0 {
						t.Fatalf("%d bytes: a shared table for literals that take %d bytes raw", n, raw)
					}
				}
			}
			un, err := Unshare(fr, nil, len(p))
			if err != nil {
				t.Fatalf("%d bytes: Unshare: %v", n, err)
			}
			out, err := dec.DecodeAll(un, make([]byte, 0, len(p)))
			if err != nil || !bytes.Equal(out, p) {
				t.Fatalf("%d bytes: %v", n, err)
			}
		}
	}
	t.Logf("%d frames whose literals would not fit a block raw", big)
}

// levelEncoders returns an encoder of every level, 1 to MaxLevel.
func levelEncoders(tb testing.TB) []*zstd.Encoder {
	tb.Helper()
	var encs []*zstd.Encoder
	for level := 1; level <= MaxLevel; level++ {
		e, err := NewEncoder(level)
		if err != nil {
			tb.Fatal(err)
		}
		encs = append(encs, e)
	}
	return encs
}
