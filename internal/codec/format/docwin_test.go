package format

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/snii-go/snii/internal/errs"
)

// randDocs returns n strictly ascending ids >= base with gaps up to maxGap
// (clamped so that the last id fits uint32).
func randDocs(r *rand.Rand, n int, base uint32, maxGap uint32) []uint32 {
	room := uint64(math.MaxUint32) - uint64(base) + 1 // ids available
	if uint64(n) > room {
		panic("too many docs")
	}
	// maxGap bounded so that n docs fit.
	if g := (room - uint64(n)) / uint64(n); uint64(maxGap) > g {
		maxGap = uint32(g)
	}
	docs := make([]uint32, n)
	next := uint64(base)
	for i := range docs {
		next += uint64(r.Uint32N(maxGap + 1))
		docs[i] = uint32(next)
		next++
	}
	return docs
}

type docCase struct {
	name string
	docs []uint32
	base uint32
}

func docCases() []docCase {
	r := rand.New(rand.NewPCG(1, 2))
	var cs []docCase
	add := func(name string, docs []uint32, base uint32) {
		cs = append(cs, docCase{name, docs, base})
	}
	add("one doc at base", []uint32{0}, 0)
	add("one doc", []uint32{77}, 5)
	add("max id", []uint32{math.MaxUint32}, math.MaxUint32)
	add("max id base 0", []uint32{math.MaxUint32}, 0)
	add("spread", []uint32{0, 3_000_000_000, math.MaxUint32}, 0)
	add("top 200", randDocs(r, 200, math.MaxUint32-199, 0), math.MaxUint32-199)
	for _, n := range []int{1, 2, 3, 31, 127, 128, 129, 200, 255, 256, 257, 512, 1000, 1024, 4096} {
		for _, g := range []uint32{0, 1, 3, 20, 300, 70_000, 1 << 28} {
			base := uint32(0)
			if r.IntN(2) == 0 {
				base = r.Uint32N(1 << 20)
			}
			add(fmt.Sprintf("n=%d gap<=%d base=%d", n, g, base), randDocs(r, n, base, g), base)
		}
	}
	for i := 0; i < 50; i++ {
		n := 1 + r.IntN(1500)
		base := r.Uint32()
		if uint64(base)+uint64(n) > math.MaxUint32 {
			base = math.MaxUint32 - uint32(n)
		}
		add(fmt.Sprintf("random %d", i), randDocs(r, n, base, r.Uint32N(1<<uint(r.IntN(32)))), base)
	}
	// Docs spanning the whole range, deltas >= 2^31 (zigzag in intcomp).
	wide := make([]uint32, 256)
	for i := range wide {
		wide[i] = uint32(i) * (math.MaxUint32 / 256)
	}
	wide[255] = math.MaxUint32
	add("wide", wide, 0)
	return cs
}

func TestDocWindowRoundTrip(t *testing.T) {
	var enc DocWindowEncoder
	for _, c := range docCases() {
		for _, withCRC := range []bool{false, true} {
			sizes := map[int]int{}
			for _, force := range []int{DocEncUvarint, DocEncIntcomp, -1} {
				w := enc.append([]byte{0xAA}, c.docs, c.base, withCRC, force)
				if w[0] != 0xAA {
					t.Fatalf("%s: dst prefix overwritten", c.name)
				}
				w = w[1:]
				if force >= 0 && int(w[0]) != force {
					t.Fatalf("%s: forced %d, got enc %d", c.name, force, w[0])
				}
				sizes[force] = len(w)
				got, err := DecodeDocWindow(w, len(c.docs), c.base, withCRC, nil)
				if err != nil {
					t.Fatalf("%s force=%d crc=%v: %v", c.name, force, withCRC, err)
				}
				if !slices.Equal(got, c.docs) {
					t.Fatalf("%s force=%d crc=%v: docs differ:\n%s", c.name, force, withCRC, cmp.Diff(c.docs, got))
				}
				// Wrong n or wrong base must not give the same docs silently.
				if _, err := DecodeDocWindow(w, len(c.docs)+1, c.base, withCRC, nil); err == nil {
					t.Errorf("%s force=%d: decoding with n+1 succeeded", c.name, force)
				}
				if len(c.docs) > 1 {
					if _, err := DecodeDocWindow(w, len(c.docs)-1, c.base, withCRC, nil); err == nil {
						t.Errorf("%s force=%d: decoding with n-1 succeeded", c.name, force)
					}
				}
			}
			want := min(sizes[DocEncUvarint], sizes[DocEncIntcomp])
			if sizes[-1] != want {
				t.Errorf("%s: chosen size %d, forced sizes uvarint %d intcomp %d", c.name, sizes[-1], sizes[DocEncUvarint], sizes[DocEncIntcomp])
			}
			if len(c.docs) < intcompMinDocs && sizes[DocEncIntcomp] <= sizes[DocEncUvarint] {
				t.Errorf("%s: intcomp (%d) not larger than uvarint (%d) below %d docs", c.name, sizes[DocEncIntcomp], sizes[DocEncUvarint], intcompMinDocs)
			}
			// AppendDocWindow is the same as the encoder.
			if a, b := AppendDocWindow(nil, c.docs, c.base, withCRC), enc.Append(nil, c.docs, c.base, withCRC); !slices.Equal(a, b) {
				t.Errorf("%s: AppendDocWindow and DocWindowEncoder.Append differ", c.name)
			}
		}
	}
}

func TestDocWindowIntcompChosen(t *testing.T) {
	// Dense windows must pick intcomp, sparse small ones uvarint.
	docs := make([]uint32, 1024)
	for i := range docs {
		docs[i] = uint32(3 * i)
	}
	if w := AppendDocWindow(nil, docs, 0, true); w[0] != DocEncIntcomp {
		t.Errorf("dense 1024 docs: enc %d, want intcomp", w[0])
	}
	if w := AppendDocWindow(nil, docs[:100], 0, true); w[0] != DocEncUvarint {
		t.Errorf("100 docs: enc %d, want uvarint", w[0])
	}
}

func TestDocWindowGolden(t *testing.T) {
	// uvarint gaps, base 10: 10 -> 0, 11 -> 0, 300 -> 288.
	got := AppendDocWindow(nil, []uint32{10, 11, 300}, 10, false)
	want := []byte{DocEncUvarint, 0, 0, 0xa0, 0x02}
	if !slices.Equal(got, want) {
		t.Errorf("got % x, want % x", got, want)
	}
	withCRC := AppendDocWindow(nil, []uint32{10, 11, 300}, 10, true)
	if !slices.Equal(withCRC[:len(want)], want) || len(withCRC) != len(want)+4 {
		t.Errorf("crc form % x", withCRC)
	}
}

func TestDecodeDocWindowNoAllocs(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, force := range []int{DocEncUvarint, DocEncIntcomp} {
		var enc DocWindowEncoder
		docs := randDocs(r, 1024, 0, 5)
		w := enc.append(nil, docs, 0, true, force)
		dst := make([]uint32, 0, len(docs)+len(w)/4)
		allocs := testing.AllocsPerRun(50, func() {
			var err error
			dst, err = DecodeDocWindow(w, len(docs), 0, true, dst)
			if err != nil {
				t.Fatal(err)
			}
		})
		if allocs != 0 {
			t.Errorf("enc %d: %.1f allocs per decode, want 0", force, allocs)
		}
		encAllocs := testing.AllocsPerRun(50, func() { w = enc.append(w[:0], docs, 0, true, force) })
		if encAllocs != 0 {
			t.Errorf("enc %d: %.1f allocs per encode, want 0", force, encAllocs)
		}
	}
}

func TestDecodeDocWindowErrors(t *testing.T) {
	ok := AppendDocWindow(nil, []uint32{1, 2}, 0, false)
	cases := []struct {
		name string
		src  []byte
		n    int
		base uint32
	}{
		{"empty", nil, 1, 0},
		{"enc only", []byte{0}, 1, 0},
		{"zero docs", ok, 0, 0},
		{"negative docs", ok, -1, 0},
		{"unknown enc", []byte{7, 0}, 1, 0},
		{"trailing", append(slices.Clone(ok), 0), 2, 0},
		{"overflow", []byte{0, 0xff, 0xff, 0xff, 0xff, 0x0f}, 1, 1},
		{"overflow 2nd", []byte{0, 0, 0xff, 0xff, 0xff, 0xff, 0x0f}, 2, 0},
		{"truncated varint", []byte{0, 0x80}, 1, 0},
		{"huge n", []byte{0, 1, 2}, 1 << 30, 0},
		{"intcomp huge n", []byte{1, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 1 << 30, 0},
		{"intcomp zero words", []byte{1, 0}, 1, 0},
		{"intcomp bad count", []byte{1, 9, 0, 0, 0, 0}, 1, 0},
		// a header with wordLen 0 would make intcomp's decoder loop forever
		{"intcomp zero wordLen", []byte{1, 3, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 1, 0},
	}
	for _, c := range cases {
		if _, err := DecodeDocWindow(c.src, c.n, c.base, false, nil); !errors.Is(err, errs.Corrupt) {
			t.Errorf("%s: err = %v, want errs.Corrupt", c.name, err)
		}
	}
	crc := AppendDocWindow(nil, []uint32{1, 2}, 0, true)
	crc[1] ^= 1
	if _, err := DecodeDocWindow(crc, 2, 0, true, nil); !errors.Is(err, errs.Corrupt) {
		t.Errorf("crc: err = %v", err)
	}
}

// Every single-byte change and every truncation of a window with CRC fails
// with snii.ErrCorrupt; without CRC nothing panics and any success is a valid window.
func TestDocWindowCorruption(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var enc DocWindowEncoder
	for _, n := range []int{1, 5, 130, 300} {
		docs := randDocs(r, n, 100, 9)
		for _, force := range []int{DocEncUvarint, DocEncIntcomp} {
			for _, withCRC := range []bool{true, false} {
				w := enc.append(nil, docs, 100, withCRC, force)
				check := func(what string, b []byte) {
					got, err := DecodeDocWindow(b, n, 100, withCRC, nil)
					if withCRC && !errors.Is(err, errs.Corrupt) {
						t.Fatalf("n=%d enc=%d %s: err = %v, want errs.Corrupt", n, force, what, err)
					}
					if err == nil {
						checkDocs(t, got, n, 100)
					} else if !errors.Is(err, errs.Corrupt) {
						t.Fatalf("n=%d enc=%d %s: err = %v, want errs.Corrupt", n, force, what, err)
					}
				}
				mutations(w, check)
			}
		}
	}
}

// mutations calls check with every one-byte damage of w (each byte xored with
// 0x01, 0x80 and 0xff) and every truncation.
func mutations(w []byte, check func(what string, b []byte)) {
	for i := range w {
		for _, x := range []byte{0x01, 0x80, 0xff} {
			b := slices.Clone(w)
			b[i] ^= x
			check(fmt.Sprintf("byte %d ^ %#x", i, x), b)
		}
	}
	for l := 0; l < len(w); l++ {
		check(fmt.Sprintf("truncated to %d", l), w[:l])
	}
}

func checkDocs(t testing.TB, docs []uint32, n int, base uint32) {
	t.Helper()
	if len(docs) != n {
		t.Fatalf("decoded %d docs, want %d", len(docs), n)
	}
	for i, d := range docs {
		if d < base || (i > 0 && d <= docs[i-1]) {
			t.Fatalf("doc %d = %d not ascending from base %d", i, d, base)
		}
	}
}

func FuzzDecodeDocWindow(f *testing.F) {
	r := rand.New(rand.NewPCG(7, 8))
	var enc DocWindowEncoder
	for _, n := range []int{1, 3, 128, 200} {
		docs := randDocs(r, n, 7, 4)
		for _, force := range []int{DocEncUvarint, DocEncIntcomp} {
			f.Add(enc.append(nil, docs, 7, false, force), uint16(n), uint32(7), false)
			f.Add(enc.append(nil, docs, 7, true, force), uint16(n), uint32(7), true)
		}
	}
	f.Fuzz(func(t *testing.T, src []byte, n16 uint16, base uint32, withCRC bool) {
		n := int(n16)
		got, err := DecodeDocWindow(src, n, base, withCRC, nil)
		if err != nil {
			if !errors.Is(err, errs.Corrupt) {
				t.Fatalf("err = %v, want errs.Corrupt", err)
			}
			return
		}
		checkDocs(t, got, n, base)
		// What decodes re-encodes to something that decodes the same.
		for _, force := range []int{DocEncUvarint, DocEncIntcomp} {
			w := enc.append(nil, got, base, withCRC, force)
			again, err := DecodeDocWindow(w, n, base, withCRC, nil)
			if err != nil || !slices.Equal(again, got) {
				t.Fatalf("re-encode enc %d: %v", force, err)
			}
		}
	})
}

func BenchmarkDecodeDocWindow(b *testing.B) {
	r := rand.New(rand.NewPCG(9, 10))
	docs := randDocs(r, 1024, 0, 7)
	for _, force := range []int{DocEncUvarint, DocEncIntcomp} {
		b.Run(fmt.Sprint("enc=", force), func(b *testing.B) {
			var enc DocWindowEncoder
			w := enc.append(nil, docs, 0, true, force)
			dst := make([]uint32, 0, 2048+len(w))
			b.SetBytes(int64(4 * len(docs)))
			b.ReportAllocs()
			for b.Loop() {
				dst, _ = DecodeDocWindow(w, len(docs), 0, true, dst)
			}
		})
	}
}

// TestDocWindowMinLen: no window is shorter than DocWindowMinLen of its doc
// count: runs of consecutive docs (intcomp's smallest blocks), spaced and
// random docs, from several bases.
func TestDocWindowMinLen(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	var enc DocWindowEncoder
	var buf []byte
	for _, n := range []int{1, 2, 5, 127, 128, 129, 255, 256, 257, 383, 384, 1000, 4096, 5000, 20000} {
		for _, step := range []uint32{1, 2, 3, 64, 1000} {
			for _, base := range []uint32{0, 7, 1 << 20} {
				docs := make([]uint32, n)
				d := base
				for i := range docs {
					docs[i] = d
					d += step
					if step == 3 {
						d += r.Uint32N(50)
					}
				}
				buf = enc.Append(buf[:0], docs, base, false)
				if lb := DocWindowMinLen(n); len(buf) < lb {
					t.Fatalf("%d docs, step %d, base %d: %d bytes, bound %d", n, step, base, len(buf), lb)
				}
			}
		}
	}
}
