package prx

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/snii-go/snii/budget"
	"github.com/snii-go/snii/limits"
)

// TestZstdLevelsDecode: at every zstd level, ZSTD units decode to their
// positions, whole (Decode) and through a cursor. Words scattered through
// long documents leave zstd many literals in a small frame at levels 3 and
// 4; stored raw when the reader drops a shared literal table, they and the
// sequences can outgrow the frame's content, the window of a single-segment
// frame (zstdopt.Unshare gives such a frame a window of its own).
func TestZstdLevelsDecode(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	var wins []*Window
	for i := 0; i < 60; i++ {
		wins = append(wins, genWindow(rng, 20+rng.IntN(200), 1, 12, uint32(40+rng.IntN(400))))
	}
	for level := 1; level <= 4; level++ {
		e, err := NewEncoder(EncoderOptions{ZstdLevel: level, Policy: budget.Policy{Kind: budget.Smallest}})
		if err != nil {
			t.Fatal(err)
		}
		src := NewSource(limits.Limits{}.Normalize())
		for i, w := range wins {
			f, err := e.EncodeCodec(w, CodecZstd)
			if err != nil {
				t.Fatal(err)
			}
			var got Window
			if _, err := src.Decode(f.Bytes, true, &got); err != nil {
				t.Fatalf("level %d window %d: Decode: %v", level, i, err)
			}
			if d := diffWindow(canon(w), canon(&got)); d != "" {
				t.Fatalf("level %d window %d: %s", level, i, d)
			}
			var c Cursor
			if err := src.Open(&c, f.Bytes, true, w.Docs()); err != nil {
				t.Fatalf("level %d window %d: Open: %v", level, i, err)
			}
			for d := 0; d < w.Docs(); d += 1 + rng.IntN(7) {
				if _, err := c.Seek(d); err != nil {
					t.Fatalf("level %d window %d doc %d: Seek: %v", level, i, d, err)
				}
				p, err := c.AppendPositions(nil)
				if err != nil {
					t.Fatalf("level %d window %d doc %d: %v", level, i, d, err)
				}
				want := w.Positions[w.Offsets[d]:w.Offsets[d+1]]
				if !slices.Equal(p, want) {
					t.Fatalf("level %d window %d doc %d: positions %v, want %v", level, i, d, p, want)
				}
			}
		}
		e.Close()
		src.Close()
	}
}
