package zstdopt

import (
	"math/rand/v2"
	"testing"

	"github.com/klauspost/compress/huff0"
)

// BenchmarkLiteralStreams decodes the same Huffman-coded literals in one
// stream and in four (each with a table of its own, read once): the frames
// of synthetic position payloads whose literals are at least FourStreamsMin
// bytes and under 1,024 (the ones Share moves from one stream to four).
//
//	go test ./internal/codec/zstdopt -run XXX -bench LiteralStreams
func BenchmarkLiteralStreams(b *testing.B) {
	enc, err := NewEncoder(0)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(21, 22))
	type coded struct {
		n      int
		s1, s4 []byte // streams after the table
		d1, d4 *huff0.Decoder
	}
	var set []coded
	total := 0
	for len(set) < 200 {
		lits, ok := FrameLiterals(enc.EncodeAll(positionsPayload(rng, 600+rng.IntN(2400)), nil))
		if !ok || len(lits) < FourStreamsMin || len(lits) >= 1024 {
			continue
		}
		var c coded
		c.n = len(lits)
		for _, four := range []bool{false, true} {
			var out []byte
			if four {
				out, _, err = huff0.Compress4X(lits, &huff0.Scratch{})
			} else {
				out, _, err = huff0.Compress1X(lits, &huff0.Scratch{})
			}
			if err != nil {
				b.Fatal(err)
			}
			s, rest, err := huff0.ReadTable(out, nil)
			if err != nil {
				b.Fatal(err)
			}
			if four {
				c.d4, c.s4 = s.Decoder(), append([]byte(nil), rest...)
			} else {
				c.d1, c.s1 = s.Decoder(), append([]byte(nil), rest...)
			}
		}
		set = append(set, c)
		total += c.n
	}
	dst := make([]byte, 1024)
	for _, four := range []bool{false, true} {
		name := "1X"
		if four {
			name = "4X"
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(total))
			for b.Loop() {
				for i := range set {
					c := &set[i]
					var err error
					if four {
						_, err = c.d4.Decompress4X(dst[:0:c.n], c.s4)
					} else {
						_, err = c.d1.Decompress1X(dst[:0:c.n], c.s1)
					}
					if err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
