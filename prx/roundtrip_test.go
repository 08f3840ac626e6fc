package prx

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/klauspost/compress/zstd"
	"github.com/snii-go/snii/budget"
)

func sortedNames(ws map[string]*Window) []string {
	names := make([]string, 0, len(ws))
	for n := range ws {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func TestRoundTripEveryCodec(t *testing.T) {
	ws := testWindows()
	src := NewSource(Limits{})
	defer src.Close()
	var got Window
	for _, name := range sortedNames(ws) {
		w := ws[name]
		for _, c := range []Codec{CodecRaw, CodecPFOR, CodecZstd} {
			t.Run(fmt.Sprintf("%s/%s", name, c), func(t *testing.T) {
				if c == CodecPFOR && !pforRepresentable(w) {
					e := newTestEncoder(t, budget.Policy{})
					if _, err := e.EncodeCodec(w, CodecPFOR); !errors.Is(err, ErrInvalidArgument) {
						t.Fatalf("EncodeCodec(pfor) of an overflowing window: %v, want ErrInvalidArgument", err)
					}
					return
				}
				f := frameOf(t, c, w)
				for _, withCRC := range []bool{true, false} {
					b := f
					if !withCRC {
						b = f[:len(f)-CRCSize]
					}
					// Bytes after the frame are not consumed.
					b = append(append([]byte(nil), b...), 0xEE, 0xFF)
					n, err := src.Decode(b, withCRC, &got)
					if err != nil {
						t.Fatalf("Decode(crc=%v): %v", withCRC, err)
					}
					if n != len(b)-2 {
						t.Fatalf("Decode consumed %d bytes, want %d", n, len(b)-2)
					}
					if d := diffWindow(w, &got); d != "" {
						t.Fatalf("Decode(crc=%v) mismatch (-want +got):\n%s", withCRC, d)
					}
					h, err := ParseFrameHeader(b, withCRC, Limits{})
					if err != nil {
						t.Fatal(err)
					}
					if h.Codec != c || h.FrameLen != n {
						t.Fatalf("header %+v, want codec %s and length %d", h, c, n)
					}
				}
			})
		}
	}
}

func TestPlainRoundTripAndSize(t *testing.T) {
	ws := testWindows()
	var got Window
	for _, name := range sortedNames(ws) {
		w := ws[name]
		plain := AppendPlain([]byte{0xAA}, w)[1:]
		if PlainSize(w) != len(plain) {
			t.Errorf("%s: PlainSize %d, AppendPlain wrote %d", name, PlainSize(w), len(plain))
		}
		if err := DecodePlain(plain, Limits{}, &got); err != nil {
			t.Fatalf("%s: DecodePlain: %v", name, err)
		}
		if d := diffWindow(w, &got); d != "" {
			t.Fatalf("%s: mismatch (-want +got):\n%s", name, d)
		}
	}
}

func TestPlainExample(t *testing.T) {
	// The example of doc.go and docs/FORMAT.md.
	w := newWindow([]uint32{3, 3, 7}, []uint32{}, []uint32{300})
	want := []byte{0x03, 0x03, 0x03, 0x00, 0x04, 0x00, 0x01, 0xac, 0x02}
	if d := cmp.Diff(want, AppendPlain(nil, w)); d != "" {
		t.Fatalf("plain payload (-want +got):\n%s", d)
	}
}

func TestExactFrameSizes(t *testing.T) {
	ws := testWindows()
	dec, err := zstd.NewReader(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer dec.Close()
	for _, name := range sortedNames(ws) {
		w := ws[name]
		u := PlainSize(w)
		raw := frameOf(t, CodecRaw, w)
		if len(raw) != 1+uvarintLen32(uint32(u))+u+4 || len(raw) != frameSize(u) {
			t.Errorf("%s: raw frame %d bytes, want 1+vlen(%d)+%d+4", name, len(raw), u, u)
		}
		z := frameOf(t, CodecZstd, w)
		h, err := ParseFrameHeader(z, true, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if len(z) != zstdFrameSize(u, h.PayloadLen) || h.PlainLen != u {
			t.Errorf("%s: zstd frame %d bytes, want 1+vlen(%d)+vlen(%d)+%d+4", name, len(z), u, h.PayloadLen, h.PayloadLen)
		}
		// The payload is a standard zstd frame without a checksum.
		payload := z[h.HeaderLen : h.HeaderLen+h.PayloadLen]
		var fh zstd.Header
		if err := fh.Decode(payload); err != nil || fh.HasCheckSum {
			t.Errorf("%s: zstd header %+v, err %v; want no checksum", name, fh, err)
		}
		if pforRepresentable(w) {
			p := frameOf(t, CodecPFOR, w)
			hp, err := ParseFrameHeader(p, true, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if len(p) != frameSize(hp.PayloadLen) {
				t.Errorf("%s: pfor frame %d bytes, want 1+vlen(%d)+%d+4", name, len(p), hp.PayloadLen, hp.PayloadLen)
			}
		}
	}
}

// The size of small PFOR payloads is computed without building them; it must equal
// the size of the payload built.
func TestSmallPFORSizeFormula(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var b pforBuilder
	for i := 0; i < 3000; i++ {
		docs := rng.IntN(128)
		w := genWindow(rng, docs, 0, 1+rng.IntN(6), uint32(1)<<rng.IntN(31))
		s, err := scanWindow(w)
		if err != nil {
			t.Fatal(err)
		}
		if s.positions >= 128 || !s.pforOK {
			continue
		}
		if got, want := smallPFORSize(&s), b.build(w, &s); got != want {
			t.Fatalf("window %d (%d docs, %d positions): formula %d, built %d", i, s.docs, s.positions, got, want)
		}
		if smallPFORSize(&s) <= s.plain {
			t.Fatalf("small PFOR payload %d not larger than plain %d", smallPFORSize(&s), s.plain)
		}
	}
}

func TestCodecString(t *testing.T) {
	for c, want := range map[Codec]string{CodecRaw: "raw", CodecZstd: "zstd", CodecPFOR: "pfor", 7: "codec(7)"} {
		if c.String() != want {
			t.Errorf("Codec(%d).String() = %q, want %q", c, c.String(), want)
		}
	}
}

func TestWindowHelpers(t *testing.T) {
	var w Window
	if w.Docs() != 0 {
		t.Fatal("zero window has docs")
	}
	w.AppendDoc([]uint32{1, 2})
	w.AppendDoc(nil)
	if w.Docs() != 2 || len(w.Doc(1)) != 0 || w.Doc(0)[1] != 2 {
		t.Fatalf("bad window %+v", w)
	}
	c := cap(w.Positions)
	w.Reset()
	if w.Docs() != 0 || cap(w.Positions) != c {
		t.Fatal("Reset lost capacity or kept docs")
	}
	bad := []*Window{
		{Offsets: []uint32{1, 2}, Positions: []uint32{1, 2}},
		{Offsets: []uint32{0, 2, 1}, Positions: []uint32{1}},
		{Offsets: []uint32{0, 5, 2}, Positions: []uint32{1, 2}},
		{Offsets: []uint32{0, 2}, Positions: []uint32{5, 4}},
		{Offsets: []uint32{0, 1}, Positions: []uint32{5, 4}},
		{Positions: []uint32{1}},
	}
	for i, b := range bad {
		if err := b.Validate(); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("bad window %d: Validate = %v", i, err)
		}
		if PlainSize(b) != -1 || len(AppendPlain(nil, b)) != 0 {
			t.Errorf("bad window %d: PlainSize/AppendPlain accepted it", i)
		}
	}
}
