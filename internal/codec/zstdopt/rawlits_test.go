package zstdopt

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
)

// logPayload returns about n bytes of log-like lines: a few templates with
// numbers, hex ids and words drawn at random, so that zstd finds matches and
// leaves literals whose bytes are skewed (Huffman-coded with a table).
func logPayload(rng *rand.Rand, n int) []byte {
	words := []string{"connection", "closed", "user", "root", "session", "opened", "timeout", "error", "kernel", "mount"}
	var b []byte
	for len(b) < n {
		b = fmt.Appendf(b, "Jun %2d %02d:%02d:%02d host%d %s[%d]: %s %s %x\n", 1+rng.IntN(30), rng.IntN(24), rng.IntN(60), rng.IntN(60),
			rng.IntN(4), words[rng.IntN(len(words))], rng.IntN(50000), words[rng.IntN(len(words))], words[rng.IntN(len(words))], rng.Uint64())
	}
	return b[:n]
}

// TestRawLiterals: at every level, a frame of EncodeAll with Huffman-coded
// literals becomes, through RawLiterals, a frame of raw literals that decodes
// (NewDecoder, the reader's) to the same bytes, is longer by exactly the
// saving reported, and is appended after what dst held; frames without
// Huffman-coded literals are refused and dst comes back as it was.
func TestRawLiterals(t *testing.T) {
	dec, err := NewDecoder(1 << 20)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	var payloads [][]byte
	for i := 0; i < 60; i++ {
		payloads = append(payloads, logPayload(rng, 200+rng.IntN(20000)), scatteredPayload(rng, 300+rng.IntN(3000)))
	}
	payloads = append(payloads, bytes.Repeat([]byte("a"), 5000), []byte("x"))
	for level := 1; level <= MaxLevel; level++ {
		enc, err := NewEncoder(level)
		if err != nil {
			t.Fatal(err)
		}
		var s Sharer
		done, refused := 0, 0
		for i, p := range payloads {
			fr := enc.EncodeAll(p, nil)
			prefix := []byte("prefix")
			out, saving, ok := s.RawLiterals(fr, prefix)
			if !ok {
				if f, huff := parseFrame(fr); huff && rawHeaderLen(f.regen)+f.regen+len(fr)-f.lit-f.litLen <= maxBlockSize {
					t.Fatalf("level %d payload %d: refused a frame with Huffman-coded literals", level, i)
				}
				if !bytes.Equal(out, prefix) {
					t.Fatalf("level %d payload %d: refused, but dst changed", level, i)
				}
				refused++
				continue
			}
			done++
			if !bytes.HasPrefix(out, prefix) {
				t.Fatalf("level %d payload %d: dst's bytes not kept", level, i)
			}
			raw := out[len(prefix):]
			if saving != len(raw)-len(fr) {
				t.Fatalf("level %d payload %d: saving %d, frames of %d and %d bytes", level, i, saving, len(fr), len(raw))
			}
			if raw[4]&3 != 0 {
				t.Fatalf("level %d payload %d: a dictionary ID", level, i)
			}
			got, err := dec.DecodeAll(raw, make([]byte, 0, len(p)+DecodeSlack))
			if err != nil || !bytes.Equal(got, p) {
				t.Fatalf("level %d payload %d (%d bytes, frame %d, raw %d): %v", level, i, len(p), len(fr), len(raw), err)
			}
			if _, _, again := s.RawLiterals(raw, nil); again {
				t.Fatalf("level %d payload %d: a frame of raw literals taken again", level, i)
			}
		}
		if done == 0 || refused == 0 {
			t.Fatalf("level %d: %d frames rewritten, %d refused: both kinds must occur", level, done, refused)
		}
	}
}
