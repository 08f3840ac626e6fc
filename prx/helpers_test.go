package prx

import (
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/snii-go/snii/budget"
)

// newWindow builds a window from per-doc position lists.
func newWindow(docs ...[]uint32) *Window {
	w := &Window{Offsets: []uint32{0}}
	for _, d := range docs {
		w.AppendDoc(d)
	}
	return w
}

// genWindow generates docs documents with tf in [tfMin, tfMax] and gaps in [0, maxGap].
func genWindow(rng *rand.Rand, docs, tfMin, tfMax int, maxGap uint32) *Window {
	w := &Window{Offsets: []uint32{0}}
	var pos []uint32
	for i := 0; i < docs; i++ {
		tf := tfMin
		if tfMax > tfMin {
			tf += rng.IntN(tfMax - tfMin + 1)
		}
		pos = pos[:0]
		p := uint32(0)
		for j := 0; j < tf; j++ {
			g := uint32(0)
			if maxGap > 0 {
				g = rng.Uint32N(maxGap + 1)
			}
			if j == 0 || uint64(p)+uint64(g) <= maxUint32 {
				if j == 0 {
					p = g
				} else {
					p += g
				}
			}
			pos = append(pos, p)
		}
		w.AppendDoc(pos)
	}
	return w
}

// oracleSelect returns the CSR window of the selected docs of w, built the simple way.
func oracleSelect(w *Window, ords []uint32) *Window {
	out := &Window{Offsets: []uint32{0}, Positions: []uint32{}}
	for _, o := range ords {
		out.AppendDoc(w.Doc(int(o)))
	}
	return out
}

// canon returns a window with non-nil slices and a leading 0 offset, for comparisons.
func canon(w *Window) *Window {
	c := &Window{Offsets: append([]uint32{}, w.Offsets...), Positions: append([]uint32{}, w.Positions...)}
	if len(c.Offsets) == 0 {
		c.Offsets = []uint32{0}
	}
	return c
}

func newTestEncoder(t testing.TB, p budget.Policy) *Encoder {
	t.Helper()
	e, err := NewEncoder(EncoderOptions{Policy: p})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.Close)
	return e
}

// frameOf builds the frame of w with codec c (a copy, with CRC).
func frameOf(t testing.TB, c Codec, w *Window) []byte {
	t.Helper()
	e := newTestEncoder(t, budget.Policy{})
	f, err := e.EncodeCodec(w, c)
	if err != nil {
		t.Fatalf("EncodeCodec(%s): %v", c, err)
	}
	return append([]byte(nil), f.Bytes...)
}

// recrc rewrites the CRC of a CRC-form frame after the caller edited it.
func recrc(f []byte) []byte {
	binary.LittleEndian.PutUint32(f[len(f)-4:], crc32c(f[:len(f)-4]))
	return f
}

// assemble builds a CRC-form frame from a codec, header uvarints and a payload.
func assemble(c Codec, payload []byte, lens ...uint32) []byte {
	b := []byte{byte(c)}
	for _, l := range lens {
		b = binary.AppendUvarint(b, uint64(l))
	}
	b = append(b, payload...)
	return binary.LittleEndian.AppendUint32(b, crc32c(b))
}

// testWindows is the round-trip corpus: named windows covering the edge cases.
func testWindows() map[string]*Window {
	rng := rand.New(rand.NewPCG(1, 2))
	ws := map[string]*Window{
		"zero-docs":        {},
		"one-empty-doc":    newWindow([]uint32{}),
		"empty-docs":       newWindow([]uint32{}, []uint32{1, 2}, []uint32{}, []uint32{}, []uint32{5}, []uint32{}),
		"duplicates":       newWindow([]uint32{3, 3, 3, 7, 7}, []uint32{0, 0}, []uint32{9}),
		"jump-1e6":         newWindow([]uint32{0, 1000000}, []uint32{1000000}, []uint32{5, 999999, 1000000}),
		"max-u32-one-doc":  newWindow([]uint32{maxUint32}),
		"max-u32-dups":     newWindow([]uint32{0, maxUint32, maxUint32}),
		"max-u32-overflow": newWindow([]uint32{maxUint32}, []uint32{1}), // no PFOR: running positions overflow
		"max-u32-fits":     newWindow([]uint32{}, []uint32{maxUint32}, []uint32{}, []uint32{0, 0}),
		"singleton":        newWindow([]uint32{42}),
		"one-doc-tf17":     genWindow(rng, 1, 17, 17, 50),
		"1024-docs-tf1":    genWindow(rng, 1024, 1, 1, 300),
		"1024-docs-tf1-8":  genWindow(rng, 1024, 1, 8, 200),
		"256-docs-tf17":    genWindow(rng, 256, 17, 17, 40),
		"big-gaps":         genWindow(rng, 300, 1, 5, 1<<20),
		"all-zero":         genWindow(rng, 200, 3, 3, 0),
	}
	// PFOR block edges: columns of 127/128/129 and 255/256/257 values.
	for _, n := range []int{127, 128, 129, 255, 256, 257} {
		ws["docs-"+itoa(n)+"-tf1"] = genWindow(rng, n, 1, 1, 1000)
		ws["one-doc-"+itoa(n)+"-positions"] = genWindow(rng, 1, n, n, 100)
		ws["docs-"+itoa(n)+"-tf0-2"] = genWindow(rng, n, 0, 2, 70)
	}
	return ws
}

func itoa(n int) string {
	b := []byte{}
	if n == 0 {
		return "0"
	}
	for n > 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	return string(b)
}

// pforRepresentable reports whether the running positions of w fit in uint32.
func pforRepresentable(w *Window) bool {
	s, err := scanWindow(w)
	return err == nil && s.pforOK
}

func isInvalid(err error) bool { return errors.Is(err, ErrInvalidArgument) }
func isClosed(err error) bool  { return errors.Is(err, ErrClosed) }

// diffWindow returns "" when want and got hold the same docs, else a go-cmp diff
// (-want +got). The fast path keeps large loops cheap.
func diffWindow(want, got *Window) string {
	a, b := canon(want), canon(got)
	if slices.Equal(a.Offsets, b.Offsets) && slices.Equal(a.Positions, b.Positions) {
		return ""
	}
	return cmp.Diff(a, b)
}
