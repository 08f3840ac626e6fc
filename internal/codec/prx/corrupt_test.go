package prx

import (
	"encoding/binary"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/snii-go/snii/budget"
	"github.com/snii-go/snii/internal/codec/bitpack"
	"github.com/snii-go/snii/internal/codec/zstdopt"
	"github.com/snii-go/snii/internal/testkit"
	"github.com/snii-go/snii/limits"
)

// corruptLimits are small limits, so that "nothing beyond the limits" is checkable.
var corruptLimits = limits.Limits{MaxDocs: 1 << 14, MaxPositions: 1 << 15, MaxBytes: 1 << 17}

// checkDecodeOutcome decodes frame fully and selectively: each either fails with
// snii.ErrCorrupt (dst reset) or returns a valid window; a selective decode after a
// successful full decode returns the oracle's docs; nothing the Source or dst
// holds exceeds the limits.
func checkDecodeOutcome(t *testing.T, src *Source, frame []byte, withCRC bool, rng *rand.Rand) (ok bool) {
	t.Helper()
	var full, sel Window
	n, err := src.Decode(frame, withCRC, &full)
	if err != nil {
		if !isCorrupt(err) {
			t.Fatalf("error of another kind: %v", err)
		}
		if full.Docs() != 0 || src.WindowDocs() != 0 {
			t.Fatal("dst not reset on error")
		}
	} else {
		if verr := full.Validate(); verr != nil || n <= 0 || n > len(frame) {
			t.Fatalf("decoded an invalid window (%v) or consumed %d of %d bytes", verr, n, len(frame))
		}
		sum := 0
		for _, u := range src.Units() {
			sum += u.Hi - u.Lo
		}
		if sum != full.Docs() || full.Docs() == 0 {
			t.Fatalf("units hold %d docs, window %d", sum, full.Docs())
		}
	}
	lim := src.Limits()
	if cap(src.buf) > lim.MaxBytes+zstdopt.DecodeSlack || cap(src.tf) > lim.MaxDocs || cap(src.offs) > lim.MaxDocs+1 ||
		len(full.Positions) > lim.MaxPositions || full.Docs() > lim.MaxDocs {
		t.Fatalf("beyond the limits: buf %d, tf %d, offs %d, positions %d, docs %d", cap(src.buf), cap(src.tf), cap(src.offs), len(full.Positions), full.Docs())
	}
	docs := full.Docs()
	for _, ords := range [][]uint32{nil, {0}, {1, 2}, randomOrds(rng, max(docs, 3), 3)} {
		_, serr := src.DecodeSelected(frame, withCRC, ords, &sel)
		if serr != nil && !isCorrupt(serr) {
			t.Fatalf("selective error of another kind: %v", serr)
		}
		if err == nil {
			inRange := len(ords) == 0 || int(ords[len(ords)-1]) < docs
			if inRange != (serr == nil) {
				t.Fatalf("full decode of %d docs ok, ordinals %v: %v", docs, ords, serr)
			}
			if serr == nil && diffWindow(oracleSelect(&full, ords), &sel) != "" {
				t.Fatalf("selective decode of %v differs from the full decode", ords)
			}
		}
	}
	return err == nil
}

// corruptFrames returns the frames whose every byte is flipped and every
// truncation tried: a single-unit frame of each codec (with two blocks and an
// exception), a multi-unit window mixing codecs, and a multi-unit window of one
// codec.
func corruptFrames(t *testing.T) map[string]Frame {
	rng := rand.New(rand.NewPCG(61, 62))
	w := genWindow(rng, 60, 1, 5, 40) // ~180 values: two blocks
	w.Positions[len(w.Positions)-1] += 1 << 20
	out := map[string]Frame{}
	e := newTestEncoder(t, budget.Policy{Kind: budget.Smallest})
	for _, c := range allCodecs {
		f, err := e.EncodeCodec(w, c)
		if err != nil {
			t.Fatal(err)
		}
		out[c.String()] = cloneFrame(f)
	}
	// Mixed: a short unit (PFOR or RAW), a singleton (RAW) and an eligible unit.
	mixed := tfWindow(append(append(repeatTF(20, 40), 1), 600, 300)...)
	f, err := e.Encode(mixed)
	if err != nil {
		t.Fatal(err)
	}
	out["multi-mixed"] = cloneFrame(f)
	f, err = e.EncodeCodec(genWindow(rng, 70, 1, 30, 30), CodecPFOR)
	if err != nil {
		t.Fatal(err)
	}
	out["multi-pfor"] = cloneFrame(f)
	return out
}

// Flipping any bit pattern of any byte, and truncating anywhere, gives snii.ErrCorrupt or
// a valid decode, never a panic; with CRC form, the CRC catches every flip.
func TestCorruptFlipsAndTruncations(t *testing.T) {
	rng := rand.New(rand.NewPCG(63, 64))
	src := NewSource(corruptLimits)
	defer src.Close()
	for name, f := range corruptFrames(t) {
		frame := f.Bytes
		for i := range frame {
			for _, m := range []byte{0x01, 0x80, 0xff, 0x3c} {
				b := slices.Clone(frame)
				b[i] ^= m
				if checkDecodeOutcome(t, src, b, true, rng) {
					t.Fatalf("%s: byte %d ^ %#x: the CRC did not catch it", name, i, m)
				}
				// The same flip behind a repaired CRC reaches the payload parsers.
				b = repairCRCs(b, f)
				checkDecodeOutcome(t, src, b, true, rng)
				if len(f.Units) == 1 {
					checkDecodeOutcome(t, src, b[:len(b)-CRCSize], false, rng)
				}
			}
		}
		for n := 0; n < len(frame); n++ {
			if checkDecodeOutcome(t, src, frame[:n], true, rng) {
				t.Fatalf("%s: truncated to %d of %d bytes: decoded", name, n, len(frame))
			}
			if len(f.Units) == 1 && n < len(frame)-CRCSize {
				if checkDecodeOutcome(t, src, frame[:n], false, rng) {
					t.Fatalf("%s inline: truncated to %d bytes: decoded", name, n)
				}
			}
		}
		// Trailing bytes after a frame are ignored (the frame's length is returned).
		var got Window
		if n, err := src.Decode(append(slices.Clone(frame), 7, 7, 7), true, &got); err != nil || n != len(frame) {
			t.Fatalf("%s: trailing bytes: %d %v", name, n, err)
		}
	}
}

// repairCRCs recomputes the CRCs of the multi-unit header and of every unit of a
// frame laid out as f (the edit did not move them).
func repairCRCs(b []byte, f Frame) []byte {
	if len(f.Units) == 1 {
		return recrc(b)
	}
	recrc(b[:f.Units[0].Off])
	for _, u := range f.Units {
		recrc(b[u.Off : u.Off+u.Len])
	}
	return b
}

// unitBody builds a unit frame (CRC form) from its parts.
func unitBody(c Codec, docs uint64, rest ...[]byte) []byte {
	b := uv([]byte{byte(c)}, docs)
	for _, r := range rest {
		b = append(b, r...)
	}
	return withCRC(b)
}

// multi builds a multi-unit window from unit frames and their doc counts.
func multi(docs []uint64, units ...[]byte) []byte {
	h := uv([]byte{codecMulti}, uint64(len(units)))
	for i, u := range units {
		h = uv(h, docs[i], uint64(len(u)))
	}
	h = withCRC(h)
	for _, u := range units {
		h = append(h, u...)
	}
	return h
}

// Crafted frames: each must be snii.ErrCorrupt, quickly, without allocating beyond the
// limits.
func TestCorruptCrafted(t *testing.T) {
	good := frameOf(t, CodecRaw, tfWindow(3, 2))            // one unit
	goodMulti := frameOf(t, CodecRaw, tfWindow(1000, 1000)) // two units
	one := unitBody(CodecRaw, 1, []byte{0}, uv(nil, 1), []byte{5})
	zw := tfWindow(repeatTF(120, 4)...)
	zf := frameOf(t, CodecZstd, zw)
	zh := parseHead(t, zf)
	cases := map[string][]byte{
		"empty":                    {},
		"unknown codec":            withCRC([]byte{4, 1, 0, 1, 5}),
		"codec 0x83":               withCRC([]byte{0x83, 1, 0, 1, 5}),
		"zero docs":                unitBody(CodecRaw, 0, uv(nil, 0)),
		"docs over the limit":      unitBody(CodecRaw, 1<<20, make([]byte, 8)),
		"docs huge, bytes tiny":    unitBody(CodecPFOR, 1<<14, []byte{0, 1, 0}),
		"docs huge, raw tf":        unitBody(CodecRaw, 5000, make([]byte, 10)),
		"tf over positions":        unitBody(CodecRaw, 1, uv(nil, 1<<15), uv(nil, 1<<16)),
		"len over MaxBytes":        unitBody(CodecRaw, 1, []byte{0}, uv(nil, 1<<17+1), []byte{5}),
		"len past the frame":       unitBody(CodecRaw, 1, []byte{0}, uv(nil, 50), []byte{5}),
		"raw: fewer bytes than tf": unitBody(CodecRaw, 1, []byte{9}, uv(nil, 3), []byte{1, 2, 3}),
		"raw: value truncated":     unitBody(CodecRaw, 1, []byte{1}, uv(nil, 2), []byte{1, 0x80}),
		"raw: trailing byte":       unitBody(CodecRaw, 1, []byte{0}, uv(nil, 2), []byte{5, 5}),
		"raw: overlong uvarint":    unitBody(CodecRaw, 1, []byte{1}, uv(nil, 3), []byte{1, 0x81, 0x00}),
		"raw: overflow":            unitBody(CodecRaw, 1, []byte{1}, uv(nil, 10), []byte{0xff, 0xff, 0xff, 0xff, 0x0f, 0xff, 0xff, 0xff, 0xff, 0x0f}),
		"raw: negative first":      unitBody(CodecRaw, 2, []byte{0, 0}, uv(nil, 2), []byte{3, 9}),
		"raw: bad directory":       rawDirCorrupt(t),
		"pfor: width 40":           unitBody(CodecPFOR, 1, []byte{0}, uv(nil, 2), []byte{40, 0}),
		"pfor: trailing":           unitBody(CodecPFOR, 1, []byte{0}, uv(nil, 3), []byte{3, 5, 0}),
		"pfor: tf block bad":       unitBody(CodecPFOR, 1, []byte{0x41, 0x00, 0x00}, uv(nil, 2), []byte{3, 5}),
		"pfor: missing block":      unitBody(CodecPFOR, 1, appendPackedColumn(nil, []uint32{200}, nil), uv(nil, 1), []byte{0}),
		"pfor: positions overflow": unitBody(CodecPFOR, 1, []byte{1, 1}, uv(nil, 9), bitpack.AppendBlock(nil, []uint32{maxUint32, 1}, 32, 0)),
		"zstd: fcs mismatch":       zstdFCS(t, zf, zh, -1),
		"zstd: fcs mismatch +1":    zstdFCS(t, zf, zh, +1),
		"zstd: no fcs":             zstdNoFCS(t, zw),
		"zstd: trailing frame":     zstdTrailing(t, zf, zh),
		"zstd: garbage":            unitBody(CodecZstd, 1, []byte{0}, uv(nil, 1, 4), []byte{1, 2, 3, 4}),
		"zstd: unknown table 25":   zstdTable(t, 25),
		"zstd: unknown table 200":  zstdTable(t, 200),
		"zstd: table 15 for 16":    zstdTable(t, 15),
		"zstd: treeless, no table": zstdTable(t, 0),
		"crc truncated":            good[:len(good)-1],
		"multi: inline form":       goodMulti,
		"multi: one unit":          multi([]uint64{1}, one),
		"multi: zero units":        withCRC([]byte{codecMulti, 0}),
		"multi: huge unit count":   withCRC(uv([]byte{codecMulti}, 1<<31)),
		"multi: count over bytes":  withCRC(uv([]byte{codecMulti}, 1000, 1, 5, 1, 5)),
		"multi: docs mismatch":     multi([]uint64{2, 1}, one, one),
		"multi: len mismatch":      multiLen(one),
		"multi: zero docs entry":   multi([]uint64{0, 1}, one, one),
		"multi: header crc":        flipLast(multi([]uint64{1, 1}, one, one), len(multi([]uint64{1, 1}, one, one))-2*len(one)-1),
		"multi: docs over limit":   multi([]uint64{1 << 14, 1}, one, one),
		"multi: units truncated":   multi([]uint64{1, 1}, one, one)[:len(multi([]uint64{1, 1}, one, one))-1],
		"multi: unit crc":          flipLast(multi([]uint64{1, 1}, one, one), -1),
		"multi: positions limit":   frameOf(t, CodecPFOR, tfWindow(repeatTF(40, 1000)...)),
	}
	rng := rand.New(rand.NewPCG(65, 66))
	for name, frame := range cases {
		src := NewSource(corruptLimits)
		withCRC := name != "multi: inline form"
		var dst Window
		var err error
		n := testkit.AllocBytes(func() { _, err = src.Decode(frame, withCRC, &dst) })
		if !isCorrupt(err) {
			t.Errorf("%s: %v", name, err)
		}
		if n > 4<<20 {
			t.Errorf("%s: %d bytes allocated", name, n)
		}
		checkDecodeOutcome(t, src, frame, withCRC, rng)
		src.Close()
	}
}

func flipLast(b []byte, i int) []byte {
	if i < 0 {
		i = len(b) + i
	}
	b[i] ^= 1
	return b
}

// multiLen: a header whose second unit length is one byte short.
func multiLen(one []byte) []byte {
	h := uv([]byte{codecMulti}, 2, 1, uint64(len(one)), 1, uint64(len(one)-1))
	h = withCRC(h)
	return append(append(h, one...), one...)
}

// rawDirCorrupt: a RAW unit of 200 one-byte values whose directory says the first
// block is 127 bytes.
func rawDirCorrupt(t *testing.T) []byte {
	f := frameOf(t, CodecRaw, tfWindow(200))
	h := parseHead(t, f)
	p := slices.Clone(f[:len(f)-CRCSize])
	if p[h.payloadAt] != 128 || p[h.payloadAt+1] != 1 {
		t.Fatalf("directory % x", p[h.payloadAt:h.payloadAt+2])
	}
	p[h.payloadAt] = 127 // 127 = one byte: the payload shrinks by one byte
	p = append(p[:h.payloadAt+1], p[h.payloadAt+2:]...)
	b := append(p[:h.lenAt], uv(nil, uint64(h.plainLen-1))...)
	b = append(b, p[h.lenAt+1+1:]...)
	// lenAt holds a two-byte uvarint (U = 202); the rebuilt frame has U = 201.
	return withCRC(b)
}

type head struct {
	lenAt, payloadAt, plainLen, compLen int
}

// parseHead locates the len field and the payload of a single-unit CRC-form frame.
func parseHead(t *testing.T, f []byte) head {
	t.Helper()
	src := NewSource(limits.Limits{})
	h, err := src.parseUnit(f, true, false, -1)
	if err != nil {
		t.Fatal(err)
	}
	payloadAt := h.frameLen - CRCSize - len(h.payload)
	var lenAt int
	if Codec(f[0]) == CodecZstd {
		lenAt = payloadAt - bitpack.UvarintLen32(uint32(len(h.payload))) - bitpack.UvarintLen32(uint32(h.plainLen))
	} else {
		lenAt = payloadAt - bitpack.UvarintLen32(uint32(h.plainLen))
	}
	return head{lenAt: lenAt, payloadAt: payloadAt, plainLen: h.plainLen, compLen: len(h.payload)}
}

// zstdFCS rewrites the zstd frame's content size to plain+d (same field size).
func zstdFCS(t *testing.T, f []byte, h head, d int) []byte {
	b := slices.Clone(f)
	z := b[h.payloadAt : h.payloadAt+h.compLen]
	fhd := z[4]
	if fhd>>6 != 1 || fhd&0x20 == 0 {
		t.Fatalf("zstd frame header %#x: want a 2-byte content size, single segment", fhd)
	}
	fcs := int(binary.LittleEndian.Uint16(z[5:])) + 256 + d
	binary.LittleEndian.PutUint16(z[5:], uint16(fcs-256))
	return recrc(b)
}

// zstdTable: the shared-table golden unit with its frame naming table id
// instead of 16 (0: naming none, its literals still treeless). Only table 16
// decodes it: another table runs out of bits or produces other bytes than the
// CRC-covered length says, and no table leaves treeless literals without one.
func zstdTable(t *testing.T, id byte) []byte {
	f := readGolden(t, "zstd-shared.golden")
	h := parseHead(t, f)
	z := f[h.payloadAt : h.payloadAt+h.compLen]
	if z[4]&3 != 1 || z[5] != 16 {
		t.Fatalf("zstd frame header % x: want a one-byte dictionary id 16", z[:6])
	}
	var nz []byte
	if id == 0 {
		nz = append(append(slices.Clone(z[:4]), z[4]&^3), z[6:]...)
	} else {
		nz = slices.Clone(z)
		nz[5] = id
	}
	b := slices.Clone(f[:h.payloadAt-bitpack.UvarintLen32(uint32(h.compLen))])
	b = uv(b, uint64(len(nz)))
	b = append(b, nz...)
	return withCRC(b)
}

// zstdNoFCS: a ZSTD unit whose zstd frame does not declare its content size.
func zstdNoFCS(t *testing.T, w *Window) []byte {
	vals, tfs := refStream(w, 0, w.Docs())
	plain := refRawPayload(vals)
	// A zstd frame with no content size: descriptor 0 (window descriptor follows),
	// window 2^10 << ... and one raw block holding plain.
	z := []byte{0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x58} // window 2^(10+11) = 2 MiB
	z = append(z, zstdBlock(0, len(plain), true, plain)...)
	b := uv([]byte{byte(CodecZstd)}, uint64(w.Docs()))
	b = appendPackedColumn(b, tfs, nil)
	b = uv(b, uint64(len(plain)), uint64(len(z)))
	return withCRC(append(b, z...))
}

// zstdTrailing: a second (skippable) zstd frame after the first, inside the payload.
func zstdTrailing(t *testing.T, f []byte, h head) []byte {
	z := slices.Clone(f[h.payloadAt : h.payloadAt+h.compLen])
	z = append(z, 0x50, 0x2a, 0x4d, 0x18, 0, 0, 0, 0)
	b := slices.Clone(f[:h.lenAt])
	b = uv(b, uint64(h.plainLen), uint64(len(z)))
	return withCRC(append(b, z...))
}

// The stored zstd payload decodes with a stock decoder to the RAW payload, and
// the crafted helpers above produce what they claim (a sanity check of the tests).
func TestCraftedHelpers(t *testing.T) {
	w := tfWindow(repeatTF(120, 4)...)
	src := NewSource(limits.Limits{})
	var got Window
	if _, err := src.Decode(zstdNoFCS(t, w), true, &got); !isCorrupt(err) {
		t.Fatalf("no FCS: %v", err)
	}
	f := frameOf(t, CodecZstd, w)
	h := parseHead(t, f)
	if _, err := src.Decode(zstdFCS(t, f, h, 0), true, &got); err != nil {
		t.Fatalf("zstdFCS with no change: %v", err)
	}
	if d := diffWindow(w, &got); d != "" {
		t.Fatal(d)
	}
}
