package prx

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/snii-go/snii/budget"
	"github.com/snii-go/snii/limits"
)

// decodeAll decodes frame fully and checks the length consumed and the units read.
func decodeAll(t *testing.T, src *Source, frame []byte, withCRC bool) *Window {
	t.Helper()
	var got Window
	n, err := src.Decode(frame, withCRC, &got)
	if err != nil {
		t.Fatalf("Decode: %v", err)
	}
	if n != len(frame) {
		t.Fatalf("Decode consumed %d of %d bytes", n, len(frame))
	}
	if src.WindowDocs() != got.Docs() {
		t.Fatalf("WindowDocs %d, decoded %d docs", src.WindowDocs(), got.Docs())
	}
	return &got
}

// checkUnits checks that Units() after a full decode describes the encoder's units
// (codec, docs, positions, plain length, frame length).
func checkUnits(t *testing.T, src *Source, f Frame, inline bool) {
	t.Helper()
	got := src.Units()
	if len(got) != len(f.Units) {
		t.Fatalf("Units(): %d units, the encoder wrote %d", len(got), len(f.Units))
	}
	for i, u := range f.Units {
		g := got[i]
		wantLen := u.Len
		if inline {
			wantLen -= CRCSize
		}
		wantPlain := u.PlainLen
		if u.Codec == CodecPFOR {
			wantPlain = 0
		}
		if g != (Unit{Codec: u.Codec, Lo: u.Lo, Hi: u.Hi, Positions: u.Positions, PlainLen: wantPlain, Len: wantLen}) {
			t.Fatalf("unit %d: decoder %+v, encoder %+v", i, g, u)
		}
	}
}

// Every codec, forced (EncodeCodec) and chosen (Encode, under several policies),
// round-trips every test window, in CRC and inline form; the bytes are those of the
// reference encoder; the frame's unit table is consistent.
func TestRoundTrip(t *testing.T) {
	src := NewSource(limits.Limits{})
	defer src.Close()
	for _, nw := range testWindows() {
		t.Run(nw.name, func(t *testing.T) {
			w := nw.w
			cuts := refCuts(w)
			if b := UnitBounds(w); !slices.Equal(b, cuts) {
				t.Fatalf("UnitBounds %v, greedy rule %v", b, cuts)
			}
			e := newTestEncoder(t, budget.Policy{Kind: budget.Smallest})
			for _, c := range allCodecs {
				f, err := e.EncodeCodec(w, c)
				if err != nil {
					t.Fatalf("%s: %v", c, err)
				}
				checkFrameShape(t, w, f, cuts)
				for _, u := range f.Units {
					if u.Codec != c || u.Eligible {
						t.Fatalf("%s: unit %+v", c, u)
					}
				}
				if want := refFrame(t, w, func(int) Codec { return c }); !bytes.Equal(f.Bytes, want) {
					t.Fatalf("%s: encoder bytes differ from the reference encoder:\n%s", c, cmp.Diff(want, f.Bytes))
				}
				got := decodeAll(t, src, f.Bytes, true)
				if d := diffWindow(w, got); d != "" {
					t.Fatalf("%s: (-want +got)\n%s", c, d)
				}
				checkUnits(t, src, f, false)
				if in := f.Inline(); len(f.Units) == 1 {
					got := decodeAll(t, src, in, false)
					if d := diffWindow(w, got); d != "" {
						t.Fatalf("%s inline: (-want +got)\n%s", c, d)
					}
					checkUnits(t, src, f, true)
				} else if in != nil {
					t.Fatalf("%s: a multi-unit window has an inline form", c)
				}
			}
			for _, p := range []budget.Policy{{Kind: budget.Smallest}, {}, {Kind: budget.FixedShare, Percent: 50}} {
				e := newTestEncoder(t, p)
				f, err := e.Encode(w)
				if err != nil {
					t.Fatal(err)
				}
				checkFrameShape(t, w, f, cuts)
				want := refFrame(t, w, func(u int) Codec { return f.Units[u].Codec })
				if !bytes.Equal(f.Bytes, want) {
					t.Fatalf("policy %s: encoder bytes differ from the reference encoder", p)
				}
				got := decodeAll(t, src, f.Bytes, true)
				if d := diffWindow(w, got); d != "" {
					t.Fatalf("policy %s: (-want +got)\n%s", p, d)
				}
				checkUnits(t, src, f, false)
			}
		})
	}
}

// checkFrameShape checks the unit table of a frame against the cut rule and the bytes.
func checkFrameShape(t *testing.T, w *Window, f Frame, cuts []int) {
	t.Helper()
	if len(f.Units) != len(cuts)-1 {
		t.Fatalf("%d units, want %d (cuts %v)", len(f.Units), len(cuts)-1, cuts)
	}
	end := 0
	if len(f.Units) > 1 {
		if f.Bytes[0] != codecMulti {
			t.Fatalf("multi-unit window starts with %d", f.Bytes[0])
		}
		end = f.Units[0].Off
	}
	for i, u := range f.Units {
		if u.Lo != cuts[i] || u.Hi != cuts[i+1] {
			t.Fatalf("unit %d holds docs %d..%d, want %d..%d", i, u.Lo, u.Hi, cuts[i], cuts[i+1])
		}
		if u.Positions != int(w.Offsets[u.Hi]-w.Offsets[u.Lo]) {
			t.Fatalf("unit %d: %d positions", i, u.Positions)
		}
		vals, _ := refStream(w, u.Lo, u.Hi)
		if u.PlainLen != len(refRawPayload(vals)) {
			t.Fatalf("unit %d: PlainLen %d, RAW payload %d", i, u.PlainLen, len(refRawPayload(vals)))
		}
		if u.Off != end || u.Len <= CRCSize || f.Bytes[u.Off] != byte(u.Codec) {
			t.Fatalf("unit %d at %d+%d, previous ends at %d", i, u.Off, u.Len, end)
		}
		end = u.Off + u.Len
	}
	if end != len(f.Bytes) {
		t.Fatalf("units end at %d of %d bytes", end, len(f.Bytes))
	}
	if f.Codec != f.Units[0].Codec {
		t.Fatalf("Frame.Codec %s, first unit %s", f.Codec, f.Units[0].Codec)
	}
}

// Random windows of every shape, with units mixing codecs under the default budget.
func TestRoundTripRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	src := NewSource(limits.Limits{})
	defer src.Close()
	e := newTestEncoder(t, budget.Policy{})
	fe := newTestEncoder(t, budget.Policy{Kind: budget.Smallest})
	iters := 300
	if testing.Short() {
		iters = 60
	}
	var mixed int
	for it := 0; it < iters; it++ {
		docs := 1 + rng.IntN(1500)
		tfMax := 1 + rng.IntN(40)
		if it%8 == 0 {
			tfMax = 2500
		}
		gap := uint32(rng.IntN(5000))
		if it%5 == 0 {
			gap = 1 << 28
		}
		w := genWindow(rng, docs, 1, tfMax, gap)
		f, err := e.Encode(w)
		if err != nil {
			t.Fatal(err)
		}
		var seen [NumCodecs]bool
		for _, u := range f.Units {
			seen[u.Codec] = true
		}
		if seen[0] && seen[1] || seen[1] && seen[2] || seen[0] && seen[2] {
			mixed++
		}
		got := decodeAll(t, src, f.Bytes, true)
		if d := diffWindow(w, got); d != "" {
			t.Fatalf("it %d: (-want +got)\n%s", it, d)
		}
		for _, c := range allCodecs {
			f, err := fe.EncodeCodec(w, c)
			if err != nil {
				t.Fatal(err)
			}
			got := decodeAll(t, src, f.Bytes, true)
			if d := diffWindow(w, got); d != "" {
				t.Fatalf("it %d %s: (-want +got)\n%s", it, c, d)
			}
		}
	}
	if mixed == 0 {
		t.Fatal("coverage: no window mixed codecs across its units")
	}
}

// UnitBounds follows the greedy rule, including a doc over UnitValues alone in its
// unit and a window of no docs.
func TestUnitBounds(t *testing.T) {
	cases := []struct {
		tfs  []int
		want []int
	}{
		{[]int{1}, []int{0, 1}},
		{repeatTF(UnitValues, 1), []int{0, UnitValues}},
		{repeatTF(UnitValues+1, 1), []int{0, UnitValues, UnitValues + 1}},
		{[]int{UnitValues, 1}, []int{0, 1, 2}},
		{[]int{UnitValues - 1, 1}, []int{0, 2}},
		{[]int{UnitValues - 1, 2}, []int{0, 1, 2}},
		{[]int{5000}, []int{0, 1}},
		{[]int{1, 5000, 1}, []int{0, 1, 2, 3}},
		{[]int{10, 10, 3000, 10, 10}, []int{0, 2, 3, 5}},
		{[]int{UnitValues / 2, UnitValues / 2, UnitValues / 2}, []int{0, 2, 3}},
		{[]int{UnitValues/2 + 88, UnitValues/2 + 88, UnitValues/2 + 88}, []int{0, 1, 2, 3}},
	}
	for _, c := range cases {
		w := tfWindow(c.tfs...)
		if got := UnitBounds(w); !slices.Equal(got, c.want) {
			t.Errorf("tfs %v: UnitBounds %v, want %v", c.tfs[:min(len(c.tfs), 6)], got, c.want)
		}
	}
	if got := UnitBounds(&Window{}); !slices.Equal(got, []int{0, 0}) {
		t.Errorf("empty window: %v", got)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for it := 0; it < 500; it++ {
		w := genWindow(rng, 1+rng.IntN(400), 1, 1+rng.IntN(1500), 10)
		b := UnitBounds(w)
		if !slices.Equal(b, refCuts(w)) {
			t.Fatalf("UnitBounds %v, greedy %v", b, refCuts(w))
		}
		// Maximality: every unit but a single-doc one is within UnitValues, and
		// adding the next doc would overflow it.
		for u := 0; u+1 < len(b); u++ {
			n := int(w.Offsets[b[u+1]] - w.Offsets[b[u]])
			if b[u+1]-b[u] > 1 && n > UnitValues {
				t.Fatalf("unit %d: %d docs, %d positions", u, b[u+1]-b[u], n)
			}
			if u+2 < len(b) && n+len(w.Doc(b[u+1])) <= UnitValues {
				t.Fatalf("unit %d could take the next doc", u)
			}
		}
	}
}

// The encoder is deterministic: the same windows through fresh encoders under the
// same policy give the same bytes and outcomes, and a reused encoder gives the same
// bytes for the same window (EncodeCodec does not depend on history).
func TestDeterminism(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var ws []*Window
	for i := 0; i < 40; i++ {
		ws = append(ws, genWindow(rng, 1+rng.IntN(1200), 1, 1+rng.IntN(20), uint32(rng.IntN(400))))
	}
	run := func() ([][]byte, Outcome) {
		e := newTestEncoder(t, budget.Policy{})
		var out [][]byte
		for _, w := range ws {
			f, err := e.Encode(w)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, slices.Clone(f.Bytes))
		}
		return out, e.Outcome()
	}
	a, oa := run()
	b, ob := run()
	if !cmp.Equal(a, b) || oa != ob {
		t.Fatal("two runs differ")
	}
	e := newTestEncoder(t, budget.Policy{Kind: budget.Smallest})
	for _, c := range allCodecs {
		first, _ := e.EncodeCodec(ws[3], c)
		keep := slices.Clone(first.Bytes)
		for _, w := range ws {
			if _, err := e.EncodeCodec(w, c); err != nil {
				t.Fatal(err)
			}
		}
		again, _ := e.EncodeCodec(ws[3], c)
		if !bytes.Equal(keep, again.Bytes) {
			t.Fatalf("%s: the same window encodes differently later", c)
		}
	}
}

// A unit frame read alone is the frame of its docs as a window of their own: the
// unit frames of a multi-unit window are the single-unit windows of their docs.
func TestUnitIsItsOwnWindow(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	w := genWindow(rng, 3000, 1, 6, 100)
	e := newTestEncoder(t, budget.Policy{Kind: budget.Smallest})
	for _, c := range allCodecs {
		f, err := e.EncodeCodec(w, c)
		if err != nil {
			t.Fatal(err)
		}
		whole := slices.Clone(f.Bytes)
		units := slices.Clone(f.Units)
		if len(units) < 3 {
			t.Fatalf("%d units", len(units))
		}
		var sub Window
		for _, u := range units {
			g, err := e.EncodeCodec(w.Slice(u.Lo, u.Hi, &sub), c)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(g.Bytes, whole[u.Off:u.Off+u.Len]) {
				t.Fatalf("%s: unit %d..%d differs from its docs' own window", c, u.Lo, u.Hi)
			}
		}
	}
}

// Plain payloads (the capture format) still round-trip.
func TestPlainRoundTrip(t *testing.T) {
	for _, nw := range testWindows() {
		p := AppendPlain(nil, nw.w)
		if len(p) != PlainSize(nw.w) {
			t.Fatalf("%s: PlainSize %d, payload %d", nw.name, PlainSize(nw.w), len(p))
		}
		var got Window
		if err := DecodePlain(p, limits.Limits{}, &got); err != nil {
			t.Fatalf("%s: %v", nw.name, err)
		}
		if d := diffWindow(nw.w, &got); d != "" {
			t.Fatalf("%s: (-want +got)\n%s", nw.name, d)
		}
	}
	// The documented example: docs {3, 3, 7} and {300}.
	if got := AppendPlain(nil, newWindow([]uint32{3, 3, 7}, []uint32{300})); !bytes.Equal(got, []byte{2, 3, 3, 0, 4, 1, 0xac, 2}) {
		t.Fatalf("plain example: % x", got)
	}
}

// The encoder rejects invalid windows with snii.ErrInvalidArgument and counts nothing.
func TestEncodeInvalid(t *testing.T) {
	e := newTestEncoder(t, budget.Policy{Kind: budget.Smallest})
	bad := []*Window{
		{},                                   // no docs
		newWindow([]uint32{}),                // a doc without positions
		newWindow([]uint32{1}, []uint32{}),   // a later doc without positions
		newWindow([]uint32{MaxPosition + 1}), // above MaxPosition
		newWindow([]uint32{5, 3}),            // not ascending
		{Offsets: []uint32{1, 2}, Positions: []uint32{1, 2}},
		{Offsets: []uint32{0, 3}, Positions: []uint32{1}},
		{Positions: []uint32{1}},
	}
	for i, w := range bad {
		if _, err := e.Encode(w); !isInvalid(err) {
			t.Errorf("window %d: Encode err %v", i, err)
		}
		for _, c := range allCodecs {
			if _, err := e.EncodeCodec(w, c); !isInvalid(err) {
				t.Errorf("window %d: EncodeCodec(%s) err %v", i, c, err)
			}
		}
	}
	if _, err := e.EncodeCodec(newWindow([]uint32{1}), NumCodecs); !isInvalid(err) {
		t.Errorf("unknown codec: %v", err)
	}
	if o := e.Outcome(); o != (Outcome{Budget: budget.Outcome{Policy: o.Budget.Policy}}) {
		t.Errorf("outcome after failures: %+v", o)
	}
	e.Close()
	if _, err := e.Encode(newWindow([]uint32{1})); !isClosedErr(err) {
		t.Errorf("after Close: %v", err)
	}
	e.Close() // idempotent
}
