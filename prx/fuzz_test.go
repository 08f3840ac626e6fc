package prx

import (
	"bytes"
	"errors"
	"testing"

	"github.com/snii-go/snii/budget"
)

// fuzzWindows are small windows for seeds: small inputs keep the fuzzer's
// minimization fast. They cover empty docs, repeats, uint32 extremes, PFOR bit-packed
// groups (>= 128 values) with narrow deltas, and compressible eligible windows.
func fuzzWindows() []*Window {
	var ws []*Window
	for _, w := range testWindowsList() {
		if PlainSize(w) <= 400 {
			ws = append(ws, w)
		}
	}
	var a, b, c Window
	for i := 0; i < 130; i++ {
		a.AppendDoc([]uint32{uint32(i % 3)})
	}
	pos := make([]uint32, 200)
	for i := range pos {
		pos[i] = uint32(i / 2)
	}
	b.AppendDoc(pos)
	for i := 0; i < 130; i++ {
		c.AppendDoc([]uint32{1, 2, 3, 4})
	}
	return append(ws, &a, &b, &c)
}

// fuzzSeeds returns real frames of every codec over fuzzWindows.
func fuzzSeeds(f *testing.F) [][]byte {
	e, err := NewEncoder(EncoderOptions{Policy: budget.Policy{}})
	if err != nil {
		f.Fatal(err)
	}
	defer e.Close()
	var out [][]byte
	for _, w := range fuzzWindows() {
		for _, c := range []Codec{CodecRaw, CodecPFOR, CodecZstd} {
			fr, err := e.EncodeCodec(w, c)
			if err != nil || len(fr.Bytes) > 700 {
				continue
			}
			out = append(out, append([]byte(nil), fr.Bytes...))
		}
	}
	return out
}

// checkDecoded asserts the properties of a successful decode of frame.
func checkDecoded(t *testing.T, frame []byte, withCRC bool, n int, w *Window) {
	t.Helper()
	if err := w.Validate(); err != nil {
		t.Fatalf("decoded an invalid window: %v", err)
	}
	if n <= 0 || n > len(frame) {
		t.Fatalf("consumed %d of %d bytes", n, len(frame))
	}
	h, err := ParseFrameHeader(frame, withCRC, Limits{})
	if err != nil || h.FrameLen != n {
		t.Fatalf("header %+v, err %v, consumed %d", h, err, n)
	}
	payload := frame[h.HeaderLen : h.HeaderLen+h.PayloadLen]
	// Plain payloads are canonical: re-encoding gives the same bytes.
	switch h.Codec {
	case CodecRaw:
		if !bytes.Equal(AppendPlain(nil, w), payload) {
			t.Fatal("RAW payload does not re-encode to itself")
		}
	case CodecZstd:
		if PlainSize(w) != h.PlainLen {
			t.Fatalf("ZSTD frame declares %d plain bytes, window re-encodes to %d", h.PlainLen, PlainSize(w))
		}
	case CodecPFOR:
		// The columns are canonical except for bit widths: the counts agree.
		var hh pforHeader
		var sc pforScratch
		lim := DefaultLimits()
		if hh, err = parsePFOR(payload, &lim, &sc); err != nil || hh.docs != w.Docs() || hh.positions != len(w.Positions) {
			t.Fatalf("PFOR header %d/%d, window %d/%d (%v)", hh.docs, hh.positions, w.Docs(), len(w.Positions), err)
		}
	}
}

func FuzzDecodeFrame(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s, true, false)
		f.Add(s[:len(s)-CRCSize], false, false)
	}
	src := NewSource(Limits{})
	f.Fuzz(func(t *testing.T, data []byte, withCRC, fixCRC bool) {
		if withCRC && fixCRC && len(data) > CRCSize {
			// Let the fuzzer reach the payload decoders behind the CRC.
			if h, err := ParseFrameHeader(data, true, Limits{}); err == nil {
				recrc(data[:h.FrameLen])
			}
		}
		var w Window
		n, err := src.Decode(data, withCRC, &w)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("error of another kind: %v", err)
			}
			if w.Docs() != 0 {
				t.Fatal("dst not reset on error")
			}
			return
		}
		checkDecoded(t, data, withCRC, n, &w)
		// Selecting every doc, and every other doc, agrees with the full decode.
		var all, odd []uint32
		for i := 0; i < w.Docs(); i++ {
			all = append(all, uint32(i))
			if i%2 == 1 {
				odd = append(odd, uint32(i))
			}
		}
		var sel Window
		for _, ords := range [][]uint32{all, odd, nil} {
			if _, err := src.DecodeSelected(data, withCRC, ords, &sel); err != nil {
				t.Fatalf("selective decode failed after a full decode succeeded: %v", err)
			}
			if d := diffWindow(oracleSelect(&w, ords), &sel); d != "" {
				t.Fatalf("selective decode differs (-want +got):\n%s", d)
			}
		}
	})
}

func FuzzDecodeSelected(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s, []byte{0, 1, 5, 3})
		f.Add(s, []byte{})
	}
	src := NewSource(Limits{})
	f.Fuzz(func(t *testing.T, frame []byte, sel []byte) {
		if h, err := ParseFrameHeader(frame, true, Limits{}); err == nil {
			recrc(frame[:h.FrameLen])
		}
		// Ordinals: running sums of the selector bytes (strictly ascending).
		var ords []uint32
		next := uint32(0)
		for i, b := range sel {
			if i > 0 {
				next += uint32(b) + 1
			} else {
				next = uint32(b)
			}
			ords = append(ords, next)
		}
		var got, full Window
		_, serr := src.DecodeSelected(frame, true, ords, &got)
		_, ferr := src.Decode(frame, true, &full)
		if serr != nil && !errors.Is(serr, ErrCorrupt) {
			t.Fatalf("selective error of another kind: %v", serr)
		}
		if ferr != nil {
			return // a selective decode may succeed where the full one fails (docs after the last selected one are not parsed)
		}
		inRange := len(ords) == 0 || int(ords[len(ords)-1]) < full.Docs()
		if inRange != (serr == nil) {
			t.Fatalf("full decode of %d docs ok, ordinals %v: selective err %v", full.Docs(), ords, serr)
		}
		if serr == nil {
			if d := diffWindow(oracleSelect(&full, ords), &got); d != "" {
				t.Fatalf("selective decode differs (-want +got):\n%s", d)
			}
		}
	})
}

func FuzzDecodePlain(f *testing.F) {
	for _, w := range fuzzWindows() {
		f.Add(AppendPlain(nil, w))
	}
	src := NewSource(Limits{})
	f.Fuzz(func(t *testing.T, data []byte) {
		var w Window
		err := DecodePlain(data, Limits{}, &w)
		// The same bytes as a RAW frame decode the same way.
		var r Window
		_, rerr := src.Decode(assemble(CodecRaw, data, uint32(len(data))), true, &r)
		if (err == nil) != (rerr == nil) {
			t.Fatalf("DecodePlain err %v, RAW frame err %v", err, rerr)
		}
		if err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("error of another kind: %v", err)
			}
			return
		}
		if err := w.Validate(); err != nil {
			t.Fatalf("decoded an invalid window: %v", err)
		}
		if !bytes.Equal(AppendPlain(nil, &w), data) {
			t.Fatal("plain payload does not re-encode to itself")
		}
		if d := diffWindow(&w, &r); d != "" {
			t.Fatalf("RAW frame decodes differently:\n%s", d)
		}
	})
}
