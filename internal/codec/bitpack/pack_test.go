package bitpack

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/bits"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// blockOf draws c values: most of bit length w, with nx of them (when nx > 0)
// much wider, so that every width and exception count comes up.
func blockOf(rng *rand.Rand, c int, w uint, nx int) []uint32 {
	vals := make([]uint32, c)
	for i := range vals {
		if w > 0 {
			vals[i] = rng.Uint32() >> (32 - w)
		}
	}
	if w > 0 && c > 0 {
		vals[rng.IntN(c)] |= 1 << (w - 1) // exactly w bits wide
	}
	for k := 0; k < nx && k < c; k++ {
		vals[rng.IntN(c)] = rng.Uint32() | 1<<31
	}
	return vals
}

// checkPack packs vals with Params and checks the block against the reference
// packer, its size, and the decoders (Unpack, Skip) on it with a suffix.
func checkPack(t *testing.T, vals []uint32) {
	t.Helper()
	w, nx, size := Params(vals)
	rw, rnx, rsize := refParams(vals)
	if w != rw || nx != rnx || size != rsize {
		t.Fatalf("Params(%v) = (w %d, nx %d, size %d), the smallest block is (w %d, nx %d, size %d)", vals, w, nx, size, rw, rnx, rsize)
	}
	blk := AppendBlock([]byte{0xee}, vals, w, nx)[1:]
	if len(blk) != size {
		t.Fatalf("block of %d bytes, Params says %d", len(blk), size)
	}
	if want := refPackBlock(nil, vals); !bytes.Equal(blk, want) {
		t.Fatalf("block % x, reference % x", blk, want)
	}
	src := append(append([]byte{0xaa, 0xbb}, blk...), 0xcc, 0xdd)
	out := make([]uint32, len(vals))
	for i := range out {
		out[i] = 0xdeadbeef // Unpack must overwrite every value
	}
	next, ok := Unpack(src, 2, out)
	if !ok || next != 2+size || !slices.Equal(out, vals) {
		t.Fatalf("Unpack: ok %v next %d (want %d), values %v want %v", ok, next, 2+size, out, vals)
	}
	if len(vals) == BlockLen {
		if next, ok := Skip(src, 2, BlockLen); !ok || next != 2+size {
			t.Fatalf("Skip: ok %v next %d want %d", ok, next, 2+size)
		}
	}
	// Every truncation is refused.
	for cut := 0; cut < size; cut++ {
		if _, ok := Unpack(blk[:cut], 0, out); ok {
			t.Fatalf("truncated block of %d/%d bytes accepted", cut, size)
		}
	}
}

// Every width 0..32 with 0..3 exceptions and more (a long token up to
// MaxExceptions, or a wider block beyond), full and short blocks.
func TestPackBlockWidths(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for w := uint(0); w <= 32; w++ {
		for _, nx := range []int{0, 1, 2, 3, 4, 5, 9, 20, MaxExceptions, MaxExceptions + 1, 60} {
			for _, c := range []int{1, 2, 3, 4, 5, 7, 8, 9, 31, 64, 100, 127, 128} {
				for rep := 0; rep < 3; rep++ {
					checkPack(t, blockOf(rng, c, w, nx))
				}
			}
		}
	}
	// Fixed shapes: all zero, all max, one wide value in narrow ones.
	for _, c := range []int{1, 3, 127, 128} {
		checkPack(t, make([]uint32, c))
		all := make([]uint32, c)
		for i := range all {
			all[i] = math.MaxUint32
		}
		checkPack(t, all)
		one := make([]uint32, c)
		one[c-1] = math.MaxUint32
		checkPack(t, one)
	}
}

// Params chooses exactly: the block layout it reports is the one built, widths
// and exception counts span the whole range, and the choice is the smallest block.
func TestPackParamsProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	var widths [33]bool
	var excs [MaxExceptions + 1]bool
	for it := 0; it < 20000; it++ {
		c := 1 + rng.IntN(BlockLen)
		if it%2 == 0 {
			c = 1 + rng.IntN(8)
		}
		nx := rng.IntN(5)
		if it%3 == 0 {
			nx = rng.IntN(MaxExceptions + 8)
		}
		vals := blockOf(rng, c, uint(rng.IntN(33)), nx)
		w, nx, _ := Params(vals)
		widths[w], excs[nx] = true, true
		// The block's exceptions are exactly the values over w bits.
		n := 0
		for _, v := range vals {
			if bits.Len32(v) > int(w) {
				n++
			}
		}
		if n != nx || nx > MaxExceptions {
			t.Fatalf("%v: %d values over %d bits, Params says %d exceptions", vals, n, w, nx)
		}
		checkPack(t, vals)
	}
	for w, ok := range widths {
		if !ok {
			t.Errorf("coverage: width %d never chosen", w)
		}
	}
	long := false
	for n, ok := range excs {
		if !ok && n <= 5 {
			t.Errorf("coverage: %d exceptions never chosen", n)
		}
		long = long || ok && n > 3
	}
	if !long {
		t.Errorf("coverage: no block of more than 3 exceptions (a long token)")
	}
}

// The block layout: token, LSB-first bit fields, then (index, value>>w) pairs.
func TestPackBlockLayout(t *testing.T) {
	// Values 1, 2, 3 and one exception 1000 at index 1: width 2 (3 bytes with 1
	// exception of 1+2 bytes = 1+1+3 = 5 bytes, against width 10: 1+5).
	vals := []uint32{1, 1000, 3, 2}
	w, nx, size := Params(vals)
	got := AppendBlock(nil, vals, w, nx)
	// token 2|1<<6 = 0x42; fields 01 00(1000&3=0) 11 10 → 0b10110001 = 0xb1;
	// exception: index 1, 1000>>2 = 250 = fa 01.
	want := []byte{0x42, 0xb1, 0x01, 0xfa, 0x01}
	if w != 2 || nx != 1 || size != 5 || !bytes.Equal(got, want) {
		t.Fatalf("w %d nx %d size %d: % x, want % x", w, nx, size, got, want)
	}
	// Width 0: the token alone.
	if got := AppendBlock(nil, make([]uint32, 128), 0, 0); !bytes.Equal(got, []byte{0}) {
		t.Fatalf("zero block: % x", got)
	}
}

// Unpack refuses malformed blocks: width over 32, exceptions out of order,
// repeated, out of range, that do not overflow w, or that overflow uint32.
func TestUnpackBlockMalformed(t *testing.T) {
	out := make([]uint32, 4)
	bad := map[string][]byte{
		"empty":            {},
		"long 6..7 set":    {0x40 | 33, 0, 0, 0, 0, 0},
		"long no count":    {34},
		"long count over":  {33, MaxExceptions + 1, 0, 0},
		"long count trunc": {33 + 1, 4, 0, 0, 0},
		"width 63":         {63},
		"truncated bits":   {8, 1, 2, 3},
		"exception past":   {0x40 | 1, 0, 4, 1},
		"exception order":  {0x80 | 1, 0, 2, 1, 1, 1},
		"exception repeat": {0x80 | 1, 0, 1, 1, 1, 1},
		"exception zero":   {0x40 | 1, 0, 1, 0},
		"exception w32":    {0x40 | 32, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1},
		"exception big":    {0x40 | 8, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0x0f},
		"exception trunc":  {0x40 | 1, 0},
		"exception varint": {0x40 | 1, 0, 1, 0x80},
	}
	for name, b := range bad {
		if _, ok := Unpack(b, 0, out); ok {
			t.Errorf("%s: accepted", name)
		}
	}
	// The largest exception that fits: width 8, hi = 2^24-1.
	ok := []byte{0x40 | 8, 0xff, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0x07}
	if _, good := Unpack(ok, 0, out); !good || out[0] != math.MaxUint32 {
		t.Errorf("max exception: %v %x", good, out[0])
	}
	if _, ok := Skip([]byte{33}, 0, BlockLen); ok {
		t.Error("Skip accepted a long token without its count")
	}
	if _, ok := Skip([]byte{0x80 | 33, 0}, 0, BlockLen); ok {
		t.Error("Skip accepted a long token with bits 6..7 set")
	}
	if _, ok := Skip([]byte{1, 0}, 0, BlockLen); ok {
		t.Error("Skip accepted a truncated block")
	}
}

// UnpackBits reads w-bit fields for every width and count, from fields that
// end the input (copied to a buffer with slack) and from fields followed by
// set bits of other data (read in place; none may leak into a field).
func TestUnpackBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 26))
	for w := uint(1); w <= 32; w++ {
		for c := 1; c <= BlockLen; c++ {
			vals := blockOf(rng, c, w, 0)
			blk := AppendBlock(nil, vals, w, 0)
			if c == BlockLen { // and a run of four blocks (unpacked a block at a time)
				for range 3 {
					more := blockOf(rng, BlockLen, w, 0)
					vals = append(vals, more...)
					blk = append(blk[:len(blk):len(blk)], AppendBlock(nil, more, w, 0)[1:]...)
				}
			}
			for _, tail := range [][]byte{nil, bytes.Repeat([]byte{0xff}, 8), bytes.Repeat([]byte{0xff}, 40)} {
				src := append(slices.Clone(blk[1:]), tail...)
				out := make([]uint32, len(vals))
				UnpackBits(src, w, out)
				if !slices.Equal(out, vals) {
					t.Fatalf("w %d c %d tail %d: %v, want %v", w, c, len(tail), out, vals)
				}
			}
		}
	}
}

// The varint helpers: canonical, at most 5 bytes, within uint32.
func TestUvarint(t *testing.T) {
	for _, v := range []uint32{0, 1, 127, 128, 16383, 16384, 1<<21 - 1, 1 << 21, 1<<28 - 1, 1 << 28, math.MaxUint32} {
		b := AppendUvarint(nil, v)
		if len(b) != UvarintLen32(v) {
			t.Errorf("%d: %d bytes, UvarintLen32 %d", v, len(b), UvarintLen32(v))
		}
		if got, n, ok := ReadUvarint32(b, 0); !ok || got != v || n != len(b) {
			t.Errorf("%d: read %d %d %v", v, got, n, ok)
		}
	}
	for _, b := range [][]byte{{0x80}, {0x80, 0x00}, {0xff, 0xff, 0xff, 0xff, 0x10}, {0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, {}} {
		if _, _, ok := ReadUvarint32(b, 0); ok {
			t.Errorf("% x accepted", b)
		}
	}
}

// TestUnpackGenerated: unpack_gen.go is what gen_unpack.go writes now.
func TestUnpackGenerated(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the generator with the go tool")
	}
	out := filepath.Join(t.TempDir(), "unpack_gen.go")
	cmd := exec.Command("go", "run", "gen_unpack.go", "-o", out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go run gen_unpack.go: %v\n%s", err, b)
	}
	want, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("unpack_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("unpack_gen.go is stale: run go generate ./internal/codec/bitpack")
	}
}

// skipLoop is Skip read one exception at a time (the reference for
// oneByteExceptions' shortcut).
func skipLoop(src []byte, p, c int) (int, bool) {
	if p >= len(src) {
		return p, false
	}
	w, nx, p, ok := ReadToken(src, p)
	if !ok {
		return p, false
	}
	p += (c*int(w) + 7) / 8
	for range nx {
		if p >= len(src) {
			return p, false
		}
		_, q, ok := ReadUvarint32Slow(src, p+1)
		if !ok {
			return p, false
		}
		p = q
	}
	return p, p <= len(src)
}

// TestSkipExceptions: Skip agrees with skipLoop on blocks of short and long
// tokens whose exceptions are one-byte pairs, have longer high parts or
// indexes with the high bit set, or run past the end of src.
func TestSkipExceptions(t *testing.T) {
	r := rand.New(rand.NewPCG(35, 8))
	for range 20000 {
		w := r.IntN(31)
		c := 1 + r.IntN(BlockLen)
		var src []byte
		nx := r.IntN(4)
		if r.IntN(2) == 0 {
			nx = 4 + r.IntN(MaxExceptions-3)
			src = append(src, byte(33+w), byte(nx))
		} else {
			src = append(src, byte(w)|byte(nx)<<6)
		}
		src = append(src, make([]byte, (c*w+7)/8)...)
		for range nx {
			src = append(src, byte(r.IntN(c)))
			switch r.IntN(8) {
			case 0:
				src = binary.AppendUvarint(src, 128+r.Uint64N(1<<28))
			case 1:
				src[len(src)-1] |= 0x80
				src = append(src, byte(1+r.IntN(127)))
			default:
				src = append(src, byte(1+r.IntN(127)))
			}
		}
		src = src[:max(1, len(src)-r.IntN(3))]
		src = append(src, make([]byte, r.IntN(12))...)
		gotP, gotOK := Skip(src, 0, c)
		wantP, wantOK := skipLoop(src, 0, c)
		if gotOK != wantOK || (gotOK && gotP != wantP) {
			t.Fatalf("Skip(% x, %d) = %d, %v; the loop gives %d, %v", src, c, gotP, gotOK, wantP, wantOK)
		}
	}
}
