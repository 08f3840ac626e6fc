package prx

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/snii-go/snii/budget"
	"github.com/snii-go/snii/internal/codec/bitpack"
	"github.com/snii-go/snii/limits"

	"github.com/snii-go/snii"
)

// fuzzWindows are small windows for seeds (small inputs keep minimization fast):
// block edges, zigzag deltas, extremes, exceptions, a multi-unit window.
func fuzzWindows() []*Window {
	rng := rand.New(rand.NewPCG(71, 72))
	ws := []*Window{
		newWindow([]uint32{42}),
		newWindow([]uint32{100, 127}, []uint32{40}),
		newWindow([]uint32{MaxPosition}, []uint32{0}, []uint32{MaxPosition - 1, MaxPosition}),
		newWindow([]uint32{5}, []uint32{6}, []uint32{4}, []uint32{8}),
		tfWindow(130),
		tfWindow(repeatTF(130, 1)...),
		genWindow(rng, 50, 1, 4, 30),
		descending(70, 100000, 1000),
		tfWindow(1024, 1), // multi-unit: a PFOR unit of zeros and a singleton
	}
	var z Window
	for i := 0; i < 130; i++ {
		z.AppendDoc([]uint32{1, 2, 3, 4})
	}
	return append(ws, &z)
}

// fuzzSeeds returns frames of every codec (and the chosen mix) over fuzzWindows.
func fuzzSeeds(f *testing.F) [][]byte {
	e, err := NewEncoder(EncoderOptions{Policy: budget.Policy{Kind: budget.Smallest}})
	if err != nil {
		f.Fatal(err)
	}
	defer e.Close()
	var out [][]byte
	for _, w := range fuzzWindows() {
		for _, c := range allCodecs {
			fr, err := e.EncodeCodec(w, c)
			if err == nil && len(fr.Bytes) <= 800 {
				out = append(out, slices.Clone(fr.Bytes))
			}
		}
		if fr, err := e.Encode(w); err == nil && len(fr.Bytes) <= 800 {
			out = append(out, slices.Clone(fr.Bytes))
		}
	}
	// ZSTD units whose frames name a shared literal table: literals in one
	// stream and in four.
	return append(out, readGolden(f, "zstd-shared.golden"), readGolden(f, "zstd-4x.golden"))
}

// fixCRCs recomputes, in place and best-effort, the CRCs of the multi-unit header
// and of the unit frames of data, so that the fuzzer reaches the parsers behind them.
func fixCRCs(data []byte) {
	if len(data) == 0 {
		return
	}
	fixUnit := func(b []byte) {
		if len(b) == 0 || b[0] >= NumCodecs {
			return
		}
		src := NewSource(limits.Limits{})
		if h, err := src.parseUnit(b, false, false, -1); err == nil && h.frameLen+CRCSize <= len(b) {
			recrc(b[:h.frameLen+CRCSize])
		}
	}
	if data[0] != codecMulti {
		fixUnit(data)
		return
	}
	nu, p, ok := bitpack.ReadUvarint32(data, 1)
	if !ok || nu > 1<<12 {
		return
	}
	var lens []int
	for u := 0; u < int(nu); u++ {
		var d, l uint32
		var ok1, ok2 bool
		d, p, ok1 = bitpack.ReadUvarint32(data, p)
		l, p, ok2 = bitpack.ReadUvarint32(data, p)
		if !ok1 || !ok2 || d == 0 {
			return
		}
		lens = append(lens, int(l))
	}
	if p+CRCSize > len(data) {
		return
	}
	recrc(data[:p+CRCSize])
	off := p + CRCSize
	for _, l := range lens {
		if off+l > len(data) {
			return
		}
		fixUnit(data[off : off+l])
		off += l
	}
}

// checkFuzzDecode asserts the properties of a successful full decode of frame: a
// valid window whose docs all have positions, Units() that add up to its docs in
// order, selective decodes (all, every other, none) that agree with it, and, when
// the encoder accepts the window, a re-encoding that decodes to the same window.
func checkFuzzDecode(t *testing.T, src *Source, frame []byte, withCRC bool, n int, w *Window) {
	t.Helper()
	if err := w.Validate(); err != nil || n <= 0 || n > len(frame) {
		t.Fatalf("decoded an invalid window (%v), consumed %d of %d", err, n, len(frame))
	}
	lo := 0
	for _, u := range src.Units() {
		if u.Lo != lo || u.Hi <= u.Lo || u.Positions != int(w.Offsets[u.Hi]-w.Offsets[u.Lo]) {
			t.Fatalf("unit %+v after doc %d", u, lo)
		}
		lo = u.Hi
	}
	if lo != w.Docs() || w.Docs() == 0 || src.WindowDocs() != w.Docs() {
		t.Fatalf("units end at %d, window %d docs", lo, w.Docs())
	}
	for i := 0; i < w.Docs(); i++ {
		if len(w.Doc(i)) == 0 {
			t.Fatalf("doc %d has no positions", i)
		}
	}
	full := canon(w)
	var odd []uint32
	for i := 1; i < full.Docs(); i += 2 {
		odd = append(odd, uint32(i))
	}
	var sel Window
	for _, ords := range [][]uint32{allOrds(full.Docs()), odd, nil} {
		if _, err := src.DecodeSelected(frame, withCRC, ords, &sel); err != nil {
			t.Fatalf("selective decode failed after a full decode succeeded: %v", err)
		}
		if d := diffWindow(oracleSelect(full, ords), &sel); d != "" {
			t.Fatalf("selective decode differs (-want +got):\n%s", d)
		}
	}
	if len(full.Positions) > 1<<16 {
		return
	}
	e, err := NewEncoder(EncoderOptions{Policy: budget.Policy{Kind: budget.Smallest}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	f, err := e.Encode(full)
	if err != nil {
		if errors.Is(err, snii.ErrInvalidArgument) { // positions above MaxPosition
			return
		}
		t.Fatalf("re-encode: %v", err)
	}
	var again Window
	if _, err := src.Decode(f.Bytes, true, &again); err != nil || diffWindow(full, &again) != "" {
		t.Fatalf("re-encoded window does not decode to itself: %v", err)
	}
}

func FuzzDecodeFrame(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s, true, false)
		if s[0] != codecMulti {
			f.Add(s[:len(s)-CRCSize], false, false)
		}
	}
	src := NewSource(limits.Limits{MaxDocs: 1 << 16, MaxPositions: 1 << 18, MaxBytes: 1 << 20})
	f.Fuzz(func(t *testing.T, data []byte, withCRC, fixCRC bool) {
		if withCRC && fixCRC {
			fixCRCs(data)
		}
		var w Window
		n, err := src.Decode(data, withCRC, &w)
		if err != nil {
			if !errors.Is(err, snii.ErrCorrupt) {
				t.Fatalf("error of another kind: %v", err)
			}
			if w.Docs() != 0 {
				t.Fatal("dst not reset on error")
			}
			return
		}
		checkFuzzDecode(t, src, data, withCRC, n, &w)
	})
}

func FuzzDecodeSelected(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s, []byte{0, 1, 5, 3})
		f.Add(s, []byte{})
	}
	src := NewSource(limits.Limits{MaxDocs: 1 << 16, MaxPositions: 1 << 18, MaxBytes: 1 << 20})
	f.Fuzz(func(t *testing.T, frame []byte, sel []byte) {
		fixCRCs(frame)
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
		if serr != nil && !errors.Is(serr, snii.ErrCorrupt) {
			t.Fatalf("selective error of another kind: %v", serr)
		}
		if serr == nil {
			if err := got.Validate(); err != nil || got.Docs() != len(ords) {
				t.Fatalf("selective decode: %d docs for %d ordinals (%v)", got.Docs(), len(ords), err)
			}
			for _, u := range src.Units() { // only units holding a selected doc, unless single
				if len(src.Units()) > 1 || frame[0] == codecMulti {
					hit := false
					for _, o := range ords {
						hit = hit || int(o) >= u.Lo && int(o) < u.Hi
					}
					if !hit {
						t.Fatalf("unit %+v read without a selected doc", u)
					}
				}
			}
		}
		if _, ferr := src.Decode(frame, true, &full); ferr != nil {
			return // a selective decode may succeed where the full one fails (units and blocks not read)
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
	f.Add([]byte{2, 0, 1, 5})
	src := NewSource(limits.Limits{})
	f.Fuzz(func(t *testing.T, data []byte) {
		var w Window
		err := DecodePlain(data, limits.Limits{MaxDocs: 1 << 16, MaxPositions: 1 << 18, MaxBytes: 1 << 20}, &w)
		if err != nil {
			if !errors.Is(err, snii.ErrCorrupt) {
				t.Fatalf("error of another kind: %v", err)
			}
			if w.Docs() != 0 {
				t.Fatal("dst not reset on error")
			}
			return
		}
		if err := w.Validate(); err != nil {
			t.Fatalf("decoded an invalid window: %v", err)
		}
		if !bytes.Equal(AppendPlain(nil, &w), data) || PlainSize(&w) != len(data) {
			t.Fatal("plain payload does not re-encode to itself")
		}
		// A window the encoder accepts (docs with positions up to MaxPosition)
		// round-trips through every codec.
		e, err := NewEncoder(EncoderOptions{Policy: budget.Policy{Kind: budget.Smallest}})
		if err != nil {
			t.Fatal(err)
		}
		defer e.Close()
		for _, c := range allCodecs {
			fr, err := e.EncodeCodec(&w, c)
			if err != nil {
				if !errors.Is(err, snii.ErrInvalidArgument) {
					t.Fatalf("%s: %v", c, err)
				}
				return
			}
			var got Window
			if _, err := src.Decode(fr.Bytes, true, &got); err != nil || diffWindow(&w, &got) != "" {
				t.Fatalf("%s: does not round-trip: %v", c, err)
			}
		}
	})
}

// FuzzCursor walks arbitrary frames with a Cursor (the phrase verifier's
// reader): documents picked by the selector's running sums, each read whole or
// by its first position only (the selector byte's low bit). It must never
// panic or fail with another kind than snii.ErrCorrupt, and when the frame decodes
// whole, every frequency and position the cursor returns must equal the full
// decode's.
func FuzzCursor(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s, []byte{0, 1, 5, 3})
		f.Add(s, []byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1})
	}
	src := NewSource(limits.Limits{MaxDocs: 1 << 16, MaxPositions: 1 << 18, MaxBytes: 1 << 20})
	f.Fuzz(func(t *testing.T, frame []byte, sel []byte) {
		fixCRCs(frame)
		var full Window
		_, ferr := src.Decode(frame, true, &full)
		docs := 1 << 16
		if ferr == nil {
			docs = full.Docs()
		}
		// Opened twice at one offset of a Verified: the second open trusts
		// the multi-unit header the first recorded, and reads on.
		var c Cursor
		v := &mapVerified{}
		err := src.OpenAt(&c, frame, true, docs, v, 0)
		if err == nil {
			if err = src.OpenAt(&c, frame, true, docs, v, 0); err != nil {
				t.Fatalf("OpenAt failed trusting the header it recorded: %v", err)
			}
		}
		if err != nil {
			if !errors.Is(err, snii.ErrCorrupt) {
				t.Fatalf("Open: error of another kind: %v", err)
			}
			return
		}
		ord := 0
		for i, b := range sel {
			if i > 0 {
				ord += int(b>>1) + 1
			} else {
				ord = int(b >> 1)
			}
			tf := c.TF(ord)
			if tf == 0 {
				var err error
				if tf, err = c.Seek(ord); err != nil {
					if !errors.Is(err, snii.ErrCorrupt) {
						t.Fatalf("Seek(%d): error of another kind: %v", ord, err)
					}
					if ferr == nil && ord < docs {
						t.Fatalf("Seek(%d) failed on a frame that decodes: %v", ord, err)
					}
					return
				}
			}
			var got []uint32
			if b&1 == 0 {
				var err error
				if got, err = c.AppendPositions(nil); err != nil {
					if ferr == nil {
						t.Fatalf("doc %d: AppendPositions failed on a frame that decodes: %v", ord, err)
					}
					return
				}
			} else {
				p, ok := c.Pos()
				if !ok {
					if ferr == nil {
						t.Fatalf("doc %d: Pos failed on a frame that decodes: %v", ord, c.Err())
					}
					return
				}
				got = []uint32{p}
				// Odd selectors from 9 on also skip ahead: every position at
				// least step past the last one returned.
				step := uint32(b >> 3)
				for ok && step > 0 && uint64(p)+uint64(step) <= 1<<32-1 {
					if p, ok = c.NextAtLeast(p + step); ok {
						got = append(got, p)
					} else if c.Err() != nil && ferr == nil {
						t.Fatalf("doc %d: NextAtLeast failed on a frame that decodes: %v", ord, c.Err())
					}
				}
			}
			if ferr != nil {
				continue
			}
			want := full.Positions[full.Offsets[ord]:full.Offsets[ord+1]]
			if tf != len(want) {
				t.Fatalf("doc %d: tf %d, want %d", ord, tf, len(want))
			}
			if b&1 == 1 {
				// The first position, then each first one at least step past the last kept.
				kept := want[:1]
				if step := uint32(b >> 3); step > 0 {
					for _, q := range want[1:] {
						if l := uint64(kept[len(kept)-1]) + uint64(step); l > 1<<32-1 {
							break
						} else if uint64(q) >= l {
							kept = append(kept, q)
						}
					}
				}
				want = kept
			}
			if !slices.Equal(got, want) {
				t.Fatalf("doc %d: positions %v, want %v", ord, got, want)
			}
		}
	})
}
