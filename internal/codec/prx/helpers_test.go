package prx

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/klauspost/compress/zstd"
	"github.com/snii-go/snii/budget"
	"github.com/snii-go/snii/internal/codec/bitpack"
	"github.com/snii-go/snii/internal/codec/zstdopt"

	"github.com/snii-go/snii"
)

// newWindow builds a window from per-doc position lists.
func newWindow(docs ...[]uint32) *Window {
	w := &Window{Offsets: []uint32{0}}
	for _, d := range docs {
		w.AppendDoc(d)
	}
	return w
}

// genWindow generates docs documents with tf in [tfMin, tfMax] (tfMin >= 1) and
// gaps in [0, maxGap]; the first position of a doc is a gap from 0. Positions are
// capped at MaxPosition.
func genWindow(rng *rand.Rand, docs, tfMin, tfMax int, maxGap uint32) *Window {
	w := &Window{Offsets: []uint32{0}}
	var pos []uint32
	for i := 0; i < docs; i++ {
		tf := max(1, tfMin)
		if tfMax > tf {
			tf += rng.IntN(tfMax - tf + 1)
		}
		pos = pos[:0]
		p := uint64(0)
		for j := 0; j < tf; j++ {
			g := uint64(0)
			if maxGap > 0 {
				g = uint64(rng.Uint32N(maxGap + 1))
			}
			p = min(p+g, MaxPosition)
			pos = append(pos, uint32(p))
		}
		w.AppendDoc(pos)
	}
	return w
}

// tfWindow builds a window whose doc i has tfs[i] positions 0, 1, 2, ... (plus
// the doc's index, so first positions differ).
func tfWindow(tfs ...int) *Window {
	w := &Window{Offsets: []uint32{0}}
	for i, tf := range tfs {
		pos := make([]uint32, tf)
		for j := range pos {
			pos[j] = uint32(i + j)
		}
		w.AppendDoc(pos)
	}
	return w
}

// repeatTF returns n copies of tf.
func repeatTF(n, tf int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = tf
	}
	return out
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

// diffWindow returns "" when want and got hold the same docs, else a go-cmp diff
// (-want +got). The fast path keeps large loops cheap.
func diffWindow(want, got *Window) string {
	a, b := canon(want), canon(got)
	if slices.Equal(a.Offsets, b.Offsets) && slices.Equal(a.Positions, b.Positions) {
		return ""
	}
	return cmp.Diff(a, b)
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

// frameOf builds the window frame of w with codec c for every unit (a copy, CRC form).
func frameOf(t testing.TB, c Codec, w *Window) []byte {
	t.Helper()
	e := newTestEncoder(t, budget.Policy{Kind: budget.Smallest})
	f, err := e.EncodeCodec(w, c)
	if err != nil {
		t.Fatalf("EncodeCodec(%s): %v", c, err)
	}
	return slices.Clone(f.Bytes)
}

// recrc rewrites the CRC at the end of a CRC-form unit frame (or multi-unit header)
// after the caller edited it.
func recrc(f []byte) []byte {
	binary.LittleEndian.PutUint32(f[len(f)-4:], crc32c(f[:len(f)-4]))
	return f
}

// withCRC appends the CRC32C of b.
func withCRC(b []byte) []byte { return binary.LittleEndian.AppendUint32(b, crc32c(b)) }

func uv(dst []byte, vs ...uint64) []byte {
	for _, v := range vs {
		dst = binary.AppendUvarint(dst, v)
	}
	return dst
}

func isInvalid(err error) bool { return errors.Is(err, snii.ErrInvalidArgument) }
func isCorrupt(err error) bool { return errors.Is(err, snii.ErrCorrupt) }

func allOrds(n int) []uint32 {
	out := make([]uint32, n)
	for i := range out {
		out[i] = uint32(i)
	}
	return out
}

// randomOrds returns k distinct ascending ordinals below n.
func randomOrds(rng *rand.Rand, n, k int) []uint32 {
	perm := rng.Perm(n)[:min(k, n)]
	sort.Ints(perm)
	out := make([]uint32, len(perm))
	for i, p := range perm {
		out[i] = uint32(p)
	}
	return out
}

// ---------------------------------------------------------------------------
// A reference encoder, written from the format description independently of the
// package's encoder: the tests compare the encoder's bytes with it.

// refCuts cuts the docs of w into units: a unit takes the next doc while its
// positions stay within UnitValues, or while it is empty.
func refCuts(w *Window) []int {
	cuts := []int{0}
	n := 0
	for i := 0; i < w.Docs(); i++ {
		tf := len(w.Doc(i))
		if n > 0 && n+tf > UnitValues {
			cuts = append(cuts, i)
			n = 0
		}
		n += tf
	}
	return append(cuts, w.Docs())
}

// refStream returns the value stream and the tf-1 column of docs lo..hi-1.
func refStream(w *Window, lo, hi int) (vals, tfs []uint32) {
	prevStartBlock, prevFirst := -1, int64(0)
	for i := lo; i < hi; i++ {
		pos := w.Doc(i)
		tfs = append(tfs, uint32(len(pos)-1))
		blk := len(vals) / bitpack.BlockLen
		if blk != prevStartBlock {
			vals = append(vals, pos[0]) // first doc starting in this block: absolute
			prevStartBlock, prevFirst = blk, int64(pos[0])
		} else {
			d := int64(pos[0]) - prevFirst                  // relative to the block's first doc
			vals = append(vals, uint32(d<<1)^uint32(d>>63)) // zigzag
		}
		for j := 1; j < len(pos); j++ {
			vals = append(vals, pos[j]-pos[j-1])
		}
	}
	return vals, tfs
}

// refPackedColumn is the packed column of vals: its blocks of up to
// bitpack.BlockLen values, each checked against a bit-by-bit reference in
// package internal/codec/bitpack.
func refPackedColumn(dst []byte, vals []uint32) []byte {
	for b := 0; b < len(vals); b += bitpack.BlockLen {
		dst = bitpack.Append(dst, vals[b:min(b+bitpack.BlockLen, len(vals))])
	}
	return dst
}

// refRawPayload: the byte lengths of every block but the last, then every value.
func refRawPayload(vals []uint32) []byte {
	var dir, data []byte
	for b := 0; b < len(vals); b += bitpack.BlockLen {
		start := len(data)
		for _, v := range vals[b:min(b+bitpack.BlockLen, len(vals))] {
			data = binary.AppendUvarint(data, uint64(v))
		}
		if b+bitpack.BlockLen < len(vals) {
			dir = binary.AppendUvarint(dir, uint64(len(data)-start))
		}
	}
	return append(dir, data...)
}

// refZstd compresses like the encoder (default level, one segment, no checksum,
// literals recoded by zstdopt.Sharer).
func refZstd(t testing.TB, plain []byte) []byte {
	t.Helper()
	refZstdOnce.Do(func() {
		refZstdEnc, refZstdErr = zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1), zstd.WithEncoderCRC(false),
			zstd.WithEncoderLevel(zstd.SpeedDefault), zstd.WithSingleSegment(true))
	})
	if refZstdErr != nil {
		t.Fatal(refZstdErr)
	}
	var sh zstdopt.Sharer
	fr, err := sh.Share(refZstdEnc.EncodeAll(plain, nil), nil)
	if err != nil {
		t.Fatal(err)
	}
	return fr
}

var (
	refZstdOnce sync.Once
	refZstdEnc  *zstd.Encoder
	refZstdErr  error
)

// refUnit builds the unit frame (CRC form) of docs lo..hi-1 with codec c.
func refUnit(t testing.TB, c Codec, w *Window, lo, hi int) []byte {
	vals, tfs := refStream(w, lo, hi)
	b := []byte{byte(c)}
	b = uv(b, uint64(hi-lo))
	if c == CodecRaw {
		for _, v := range tfs {
			b = uv(b, uint64(v))
		}
	} else {
		b = refPackedColumn(b, tfs)
	}
	switch c {
	case CodecRaw:
		p := refRawPayload(vals)
		b = append(uv(b, uint64(len(p))), p...)
	case CodecPFOR:
		p := refPackedColumn(nil, vals)
		b = append(uv(b, uint64(len(p))), p...)
	case CodecZstd:
		p := refRawPayload(vals)
		z := refZstd(t, p)
		b = append(uv(b, uint64(len(p)), uint64(len(z))), z...)
	}
	return withCRC(b)
}

// refFrame builds the window frame of w, unit u with codec codecs[u].
func refFrame(t testing.TB, w *Window, codecs func(u int) Codec) []byte {
	cuts := refCuts(w)
	var units [][]byte
	for u := 0; u+1 < len(cuts); u++ {
		units = append(units, refUnit(t, codecs(u), w, cuts[u], cuts[u+1]))
	}
	if len(units) == 1 {
		return units[0]
	}
	h := uv([]byte{3}, uint64(len(units)))
	for u, f := range units {
		h = uv(h, uint64(cuts[u+1]-cuts[u]), uint64(len(f)))
	}
	h = withCRC(h)
	for _, f := range units {
		h = append(h, f...)
	}
	return h
}

// ---------------------------------------------------------------------------

type namedWindow struct {
	name string
	w    *Window
}

// testWindows is the round-trip corpus: windows covering the edge cases of v2.
func testWindows() []namedWindow {
	rng := rand.New(rand.NewPCG(1, 2))
	const mp = MaxPosition
	ws := []namedWindow{
		{"singleton", newWindow([]uint32{42})},
		{"singleton-0", newWindow([]uint32{0})},
		{"singleton-max", newWindow([]uint32{mp})},
		{"two-docs", newWindow([]uint32{1, 5}, []uint32{2})},
		{"duplicates", newWindow([]uint32{3, 3, 3, 7, 7}, []uint32{0, 0}, []uint32{9})},
		{"near-max", newWindow([]uint32{mp - 5, mp - 1, mp, mp}, []uint32{mp}, []uint32{0, mp}, []uint32{mp - 1})},
		{"alternating-extremes", alternating(300, 0, mp)},
		{"zigzag-descending", descending(400, 1_000_000, 2_500)},
		{"one-doc-tf1024", tfWindow(1024)},
		{"one-doc-tf1025", tfWindow(1025)},
		{"one-doc-tf3000", genWindow(rng, 1, 3000, 3000, 40)},
		{"tf3000-alone", tfWindow(append(append(repeatTF(5, 10), 3000), repeatTF(5, 10)...)...)},
		{"tf1024-then-1", tfWindow(1024, 1)},
		{"1024-docs-tf1", genWindow(rng, 1024, 1, 1, 300)},
		{"1025-docs-tf1", genWindow(rng, 1025, 1, 1, 300)},
		{"2000-docs-tf1-8", genWindow(rng, 2000, 1, 8, 200)},
		{"256-docs-tf17", genWindow(rng, 256, 17, 17, 40)},
		{"big-gaps", genWindow(rng, 300, 1, 5, 1<<26)},
		{"all-zero", genWindow(rng, 200, 3, 3, 0)},
		{"1024-docs-tf30", genWindow(rng, 1024, 30, 30, 20)},
	}
	// Block edges: streams of 127/128/129 and 255/256/257 values.
	for _, n := range []int{127, 128, 129, 255, 256, 257} {
		ws = append(ws,
			namedWindow{fmt.Sprintf("docs-%d-tf1", n), genWindow(rng, n, 1, 1, 1000)},
			namedWindow{fmt.Sprintf("one-doc-%d-positions", n), genWindow(rng, 1, n, n, 100)},
			namedWindow{fmt.Sprintf("docs-tf3-%d-values", n), tfWindow(append(repeatTF(n/3, 3), repeatTF(n%3, 1)...)...)},
		)
	}
	return ws
}

// alternating returns n one-position docs alternating between a and b.
func alternating(n int, a, b uint32) *Window {
	w := &Window{}
	for i := 0; i < n; i++ {
		p := a
		if i%2 == 1 {
			p = b
		}
		w.AppendDoc([]uint32{p, p})
	}
	return w
}

// descending returns n docs whose first positions decrease by step from start
// (negative zigzag deltas), each with two positions.
func descending(n int, start, step uint32) *Window {
	w := &Window{}
	for i := 0; i < n; i++ {
		p := start - uint32(i)*step
		w.AppendDoc([]uint32{p, p + 3})
	}
	return w
}

var allCodecs = []Codec{CodecRaw, CodecZstd, CodecPFOR}

func isClosedErr(err error) bool { return errors.Is(err, snii.ErrClosed) }

// sharedWindow is a window whose one unit's zstd frame is smaller with a
// shared literal table (16) than with a table of its own: 1024 docs of one
// position each, docs 0..12 at 8 8 8 8 8 7 8 8 7 7 7 7 8, then 13, or 14
// where i mod 97 < 3 (testdata/prx/zstd-shared.golden).
func sharedWindow() *Window {
	var w Window
	for i := 0; i < UnitValues; i++ {
		p := uint32(13)
		switch {
		case i < 13:
			p = []uint32{8, 8, 8, 8, 8, 7, 8, 8, 7, 7, 7, 7, 8}[i]
		case i%97 < 3:
			p = 14
		}
		w.AppendDoc([]uint32{p})
	}
	return &w
}

// fourStreamsWindow is a window whose ZSTD frame has 295 literals (at least
// zstdopt.FourStreamsMin): 100 docs of six positions, each gap 1 (eight in
// ten) or 2..121, drawn from a linear congruential sequence.
func fourStreamsWindow() *Window {
	var w Window
	x := uint32(1)
	for i := 0; i < UnitValues/6; i++ {
		ps := make([]uint32, 6)
		p := uint32(0)
		for j := range ps {
			x = x*1103515245 + 12345
			if r := x >> 16; r%10 < 8 {
				p++
			} else {
				p += 2 + (r/10)%120
			}
			ps[j] = p
		}
		w.AppendDoc(ps)
	}
	return &w
}
