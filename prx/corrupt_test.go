package prx

import (
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/snii-go/snii/budget"
)

// corpusFrames returns frames of every codec over a few windows.
func corpusFrames(t *testing.T) map[string][]byte {
	rng := rand.New(rand.NewPCG(21, 22))
	ws := map[string]*Window{
		"small":  newWindow([]uint32{1, 5, 5}, []uint32{}, []uint32{300}),
		"medium": genWindow(rng, 140, 0, 4, 300),
		"large":  genWindow(rng, 160, 1, 2, 3000),
	}
	out := map[string][]byte{}
	for n, w := range ws {
		for _, c := range []Codec{CodecRaw, CodecPFOR, CodecZstd} {
			out[n+"/"+c.String()] = frameOf(t, c, w)
		}
	}
	return out
}

func wantCorrupt(t *testing.T, what string, err error) {
	t.Helper()
	if !errors.Is(err, ErrCorrupt) {
		t.Fatalf("%s: %v, want ErrCorrupt", what, err)
	}
}

func TestCorruptFlipEveryByte(t *testing.T) {
	src := NewSource(Limits{})
	defer src.Close()
	var got Window
	for name, f := range corpusFrames(t) {
		b := make([]byte, len(f))
		for i := range f {
			for _, mask := range []byte{0x01, 0xff} {
				copy(b, f)
				b[i] ^= mask
				_, err := src.Decode(b, true, &got)
				wantCorrupt(t, name+" flipped", err)
				_, err = src.DecodeSelected(b, true, []uint32{0}, &got)
				wantCorrupt(t, name+" flipped (selective)", err)
				// Inline form: no CRC; decoding may succeed but must never panic
				// and must fail only with ErrCorrupt.
				if i < len(f)-CRCSize {
					if _, err := src.Decode(b[:len(b)-CRCSize], false, &got); err != nil && !errors.Is(err, ErrCorrupt) {
						t.Fatalf("%s inline flipped at %d: %v", name, i, err)
					}
				}
			}
		}
	}
}

func TestCorruptTruncated(t *testing.T) {
	src := NewSource(Limits{})
	defer src.Close()
	var got Window
	for name, f := range corpusFrames(t) {
		for n := 0; n < len(f); n++ {
			_, err := src.Decode(f[:n], true, &got)
			wantCorrupt(t, name+" truncated", err)
			if n < len(f)-CRCSize {
				_, err := src.Decode(f[:n], false, &got)
				wantCorrupt(t, name+" inline truncated", err)
			}
			if _, err := ParseFrameHeader(f[:n], true, Limits{}); err == nil {
				t.Fatalf("%s: header of %d of %d bytes accepted", name, n, len(f))
			}
		}
	}
}

func TestCorruptHeader(t *testing.T) {
	src := NewSource(Limits{})
	defer src.Close()
	var got Window
	plain := AppendPlain(nil, newWindow([]uint32{1, 2}))
	cases := map[string][]byte{
		"empty":           {},
		"codec 3":         assemble(3, plain, uint32(len(plain))),
		"codec 255":       assemble(255, plain, uint32(len(plain))),
		"overlong len":    append([]byte{0, 0x84, 0x00}, plain...),
		"len too long":    {0, 0x80, 0x80, 0x80, 0x80, 0x10},
		"len over limit":  assemble(CodecRaw, plain, DefaultMaxBytes+1),
		"zstd over limit": assemble(CodecZstd, plain, DefaultMaxBytes+1, 3),
		"zstd comp_len":   assemble(CodecZstd, plain, 4, 1000),
		"bad crc":         append(append([]byte{0, byte(len(plain))}, plain...), 1, 2, 3, 4),
	}
	for name, b := range cases {
		_, err := src.Decode(b, true, &got)
		wantCorrupt(t, name, err)
	}
	if _, err := ParseFrameHeader(cases["codec 3"], true, Limits{MaxBytes: -1}); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("invalid limits: %v", err)
	}
}

// A declared length over the limit is rejected before anything is allocated.
func TestCorruptLengthRejectedBeforeAllocating(t *testing.T) {
	w := eligibleWindows(rand.New(rand.NewPCG(23, 24)), 1)[0]
	z := frameOf(t, CodecZstd, w)
	small := NewSource(Limits{MaxBytes: 64})
	defer small.Close()
	var got Window
	_, err := small.Decode(z, true, &got)
	wantCorrupt(t, "zstd frame over a tiny limit", err)
	if small.dec != nil || cap(small.buf) != 0 {
		t.Fatalf("the Source allocated for a frame over its limit (decoder %v, buffer %d)", small.dec != nil, cap(small.buf))
	}
	// A frame declaring 256 MiB + 1: the rejection allocates only its error.
	huge := assemble(CodecZstd, []byte{1, 2, 3}, DefaultMaxBytes+1, 3)
	src := NewSource(Limits{})
	defer src.Close()
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	const runs = 100
	for i := 0; i < runs; i++ {
		if _, err := src.Decode(huge, true, &got); err == nil {
			t.Fatal("accepted")
		}
	}
	runtime.ReadMemStats(&ms1)
	if perRun := (ms1.TotalAlloc - ms0.TotalAlloc) / runs; perRun > 1024 {
		t.Fatalf("rejecting a 256 MiB declaration allocated %d bytes per call", perRun)
	}
	if cap(src.buf) != 0 || src.dec != nil {
		t.Fatal("the Source allocated its buffer or decoder")
	}
}

func TestCorruptZstdLength(t *testing.T) {
	w := eligibleWindows(rand.New(rand.NewPCG(25, 26)), 1)[0]
	z := frameOf(t, CodecZstd, w)
	h, err := ParseFrameHeader(z, true, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	payload := z[h.HeaderLen : h.HeaderLen+h.PayloadLen]
	src := NewSource(Limits{})
	defer src.Close()
	var got Window
	for _, l := range []int{h.PlainLen - 1, h.PlainLen + 1, h.PlainLen + zstdSlack, h.PlainLen + 1000, 0, 1} {
		_, err := src.Decode(assemble(CodecZstd, payload, uint32(l), uint32(len(payload))), true, &got)
		wantCorrupt(t, "zstd declared "+itoa(l), err)
	}
	// Bytes after the zstd frame: a skippable frame, a stray byte, a second frame.
	skippable := []byte{0x50, 0x2a, 0x4d, 0x18, 0, 0, 0, 0}
	for name, extra := range map[string][]byte{"skippable frame": skippable, "stray byte": {0}, "second frame": payload} {
		p := append(append([]byte{}, payload...), extra...)
		_, err := src.Decode(assemble(CodecZstd, p, uint32(h.PlainLen), uint32(len(p))), true, &got)
		wantCorrupt(t, "zstd then "+name, err)
	}
	// A frame with a checksum is accepted (any conforming writer).
	ck, _ := zstd.NewWriter(nil, zstd.WithEncoderCRC(true))
	defer ck.Close()
	cp := ck.EncodeAll(AppendPlain(nil, w), nil)
	if _, err := src.Decode(assemble(CodecZstd, cp, uint32(h.PlainLen), uint32(len(cp))), true, &got); err != nil {
		t.Fatalf("zstd frame with a checksum: %v", err)
	}
	// A zstd payload of a plain payload with a trailing byte.
	enc, _ := zstd.NewWriter(nil, zstd.WithEncoderCRC(false))
	defer enc.Close()
	plain := append(AppendPlain(nil, w), 0)
	c := enc.EncodeAll(plain, nil)
	_, err = src.Decode(assemble(CodecZstd, c, uint32(len(plain)), uint32(len(c))), true, &got)
	wantCorrupt(t, "zstd trailing byte", err)
	// Garbage that is not zstd.
	_, err = src.Decode(assemble(CodecZstd, []byte{1, 2, 3, 4, 5, 6, 7, 8}, 10, 8), true, &got)
	wantCorrupt(t, "zstd garbage", err)
}

func TestCorruptPlain(t *testing.T) {
	cases := map[string][]byte{
		"empty":               {},
		"doc count truncated": {0x80},
		"missing docs":        {3, 1, 5, 0},
		"positions truncated": {1, 3, 1, 2},
		"trailing byte":       {1, 1, 5, 0},
		"u32 overflow":        {1, 2, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x01},
		"5th byte too big":    {1, 1, 0xff, 0xff, 0xff, 0xff, 0x1f},
		"varint too long":     {1, 1, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01},
		"overlong varint":     {1, 1, 0x85, 0x00},
		"overlong pos_count":  {1, 0x81, 0x00, 5},
		"pos_count > bytes":   {1, 9, 1, 2},
		"doc count > bytes":   {5, 0, 0},
	}
	src := NewSource(Limits{})
	defer src.Close()
	var got Window
	for name, p := range cases {
		wantCorrupt(t, "DecodePlain "+name, DecodePlain(p, Limits{}, &got))
		if got.Docs() != 0 {
			t.Fatalf("%s: dst not reset", name)
		}
		_, err := src.Decode(assemble(CodecRaw, p, uint32(len(p))), true, &got)
		wantCorrupt(t, "RAW "+name, err)
	}
	// Limits: doc and position counts over the limits.
	p := AppendPlain(nil, newWindow([]uint32{1}, []uint32{2, 3}, []uint32{4}))
	wantCorrupt(t, "docs over limit", DecodePlain(p, Limits{MaxDocs: 2}, &got))
	wantCorrupt(t, "positions over limit", DecodePlain(p, Limits{MaxPositions: 3}, &got))
	wantCorrupt(t, "bytes over limit", DecodePlain(p, Limits{MaxBytes: len(p) - 1}, &got))
	if err := DecodePlain(p, Limits{MaxDocs: 3, MaxPositions: 4, MaxBytes: len(p)}, &got); err != nil {
		t.Fatalf("at the limits: %v", err)
	}
	if err := DecodePlain(p, Limits{MaxBytes: DefaultMaxBytes + 1}, &got); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("invalid limits: %v", err)
	}
	// Selective decode checks what it parses.
	_, err := src.DecodeSelected(assemble(CodecRaw, cases["u32 overflow"], 8), true, []uint32{0}, &got)
	wantCorrupt(t, "selective overflow", err)
}

// pforPayload packs arbitrary columns the way the encoder does.
func pforPayload(n, t int, offs, runs []uint32) []byte {
	b := appendUvarint(nil, uint32(n))
	b = appendUvarint(b, uint32(t))
	b = appendWords(b, packColumn(offs, nil))
	return appendWords(b, packColumn(runs, nil))
}

func TestCorruptPFOR(t *testing.T) {
	seq := func(n int, f func(i int) uint32) []uint32 {
		s := make([]uint32, n)
		for i := range s {
			s[i] = f(i)
		}
		return s
	}
	ones := func(n int) []uint32 { return seq(n, func(i int) uint32 { return uint32(i + 1) }) }
	zeros := func(n int) []uint32 { return make([]uint32, n) }
	good := pforPayload(200, 200, ones(200), seq(200, func(i int) uint32 { return uint32(3 * i) }))
	bitpackedOnly := pforPayload(128, 128, ones(128), zeros(128))
	cases := map[string][]byte{
		"count sum below total":   pforPayload(3, 4, []uint32{1, 2, 3}, []uint32{1, 2, 3, 4}),
		"count sum above total":   pforPayload(3, 2, []uint32{1, 2, 3}, []uint32{1, 2}),
		"offsets decrease":        pforPayload(3, 3, []uint32{2, 1, 3}, []uint32{1, 2, 3}),
		"runs decrease":           pforPayload(2, 3, []uint32{1, 3}, []uint32{5, 4, 6}),
		"runs decrease bitpacked": pforPayload(130, 130, ones(130), seq(130, func(i int) uint32 { return uint32(1000 - i) })),
		"trailing word":           append(append([]byte{}, good...), 0, 0, 0, 0),
		"trailing byte":           append(append([]byte{}, good...), 0),
		"missing word":            good[:len(good)-4],
		"doc count over limit":    pforPayload(DefaultMaxDocs+1, 0, nil, nil),
		"total over limit":        pforPayload(0, DefaultMaxPositions+1, nil, nil),
		"no counts":               {},
		"column of 5 bytes":       append(appendUvarint(appendUvarint(nil, 1), 0), 1, 2, 3, 4, 5),
	}
	// Structural damage to the intcomp words of the bit-packed group (offsets column).
	edit := func(name string, base []byte, word int, f func(uint32) uint32) {
		b := append([]byte{}, base...)
		at := 4 + 4*word // after the two 2-byte uvarints
		binary.LittleEndian.PutUint32(b[at:], f(binary.LittleEndian.Uint32(b[at:])))
		cases[name] = b
	}
	edit("group count", bitpackedOnly, 0, func(uint32) uint32 { return 256 })
	edit("group length short", bitpackedOnly, 1, func(v uint32) uint32 { return v - 1 })
	edit("group length long", bitpackedOnly, 1, func(v uint32) uint32 { return v + 1 })
	edit("group length huge", bitpackedOnly, 1, func(uint32) uint32 { return 1 << 31 })
	edit("bit width 33", bitpackedOnly, 3, func(v uint32) uint32 { return v&^0x7f | 33 })
	edit("bit width 127", bitpackedOnly, 3, func(v uint32) uint32 { return v | 0x7f000000 })
	// Variable-byte damage (both columns of 3 values).
	vb := pforPayload(3, 3, []uint32{1, 2, 3}, []uint32{7, 8, 300})
	vbEdit := func(name string, word int, f func(uint32) uint32) {
		b := append([]byte{}, vb...)
		at := 2 + 4*word
		binary.LittleEndian.PutUint32(b[at:], f(binary.LittleEndian.Uint32(b[at:])))
		cases[name] = b
	}
	vbEdit("varbyte count", 0, func(uint32) uint32 { return 2 })
	vbEdit("varbyte length 1", 1, func(uint32) uint32 { return 1 })
	vbEdit("varbyte length huge", 1, func(uint32) uint32 { return 1 << 30 })
	vbEdit("varbyte bad padding", 2, func(v uint32) uint32 { return v&^0xff | 0x05 })
	vbEdit("varbyte missing terminator", 2, func(v uint32) uint32 { return v | 0x80808080 })
	vbEdit("varbyte overlong", 2, func(uint32) uint32 { return 0x01800002 }) // 01, 80 00 (overlong), 02
	src := NewSource(Limits{})
	defer src.Close()
	var got Window
	if _, err := src.Decode(assemble(CodecPFOR, good, uint32(len(good))), true, &got); err != nil {
		t.Fatalf("good payload: %v", err)
	}
	for name, p := range cases {
		f := assemble(CodecPFOR, p, uint32(len(p)))
		_, err := src.Decode(f, true, &got)
		wantCorrupt(t, name, err)
		_, err = src.DecodeSelected(f, true, []uint32{0}, &got)
		if !errors.Is(err, ErrCorrupt) {
			t.Fatalf("%s (selective): %v", name, err)
		}
	}
}

// Random damage to PFOR payloads with a valid CRC must never panic.
func TestCorruptPFORRandomNoPanic(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 28))
	src := NewSource(Limits{})
	defer src.Close()
	var got Window
	enc := newTestEncoder(t, budget.Policy{})
	for i := 0; i < 2000; i++ {
		w := genWindow(rng, 1+rng.IntN(300), 0, 3, uint32(1)<<rng.IntN(24))
		fr, err := enc.EncodeCodec(w, CodecPFOR)
		if err != nil {
			t.Fatal(err)
		}
		f := fr.Bytes
		h, _ := ParseFrameHeader(f, true, Limits{})
		for k := 0; k < 1+rng.IntN(4); k++ {
			f[h.HeaderLen+rng.IntN(h.PayloadLen)] ^= byte(1 + rng.IntN(255))
		}
		recrc(f)
		if _, err := src.Decode(f, true, &got); err != nil && !errors.Is(err, ErrCorrupt) {
			t.Fatal(err)
		} else if err == nil {
			if err := got.Validate(); err != nil {
				t.Fatalf("decoded an invalid window: %v", err)
			}
		}
		if _, err := src.DecodeSelected(f, true, []uint32{0}, &got); err != nil && !errors.Is(err, ErrCorrupt) {
			t.Fatal(err)
		}
	}
}
