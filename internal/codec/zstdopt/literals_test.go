package zstdopt

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/klauspost/compress/huff0"
	"github.com/klauspost/compress/zstd"
)

// positionsPayload returns uvarints shaped like a .prx unit's RAW payload of a
// log: per document a first position, then deltas taken from a few templates
// (lines copied from the same format string) with some noise, so that zstd
// finds matches and the literals are skewed, as on real units.
func positionsPayload(rng *rand.Rand, n int) []byte {
	var b []byte
	templates := make([][]uint64, 1+rng.IntN(6))
	for i := range templates {
		for k := 1 + rng.IntN(10); k > 0; k-- {
			templates[i] = append(templates[i], 1+uint64(rng.ExpFloat64()*float64(1+rng.IntN(300))))
		}
	}
	for len(b) < n {
		b = binary.AppendUvarint(b, uint64(rng.IntN(60)))
		for _, d := range templates[rng.IntN(len(templates))] {
			if rng.IntN(4) == 0 {
				d += uint64(rng.IntN(40))
			}
			b = binary.AppendUvarint(b, d)
		}
	}
	return b
}

// tableSample returns about n bytes whose literals follow the distribution
// table k codes best (byte c with probability 2^-len(c), len(c) its code
// length): runs of fresh bytes drawn from it, with copies of earlier stretches
// after each run so that zstd finds matches (fresh sets the run: the shorter,
// the more sequences) (klauspost stores a block with almost no
// match as raw literals). A frame of them is smaller with the shared table
// than with its own.
func tableSample(t *testing.T, rng *rand.Rand, k, n, fresh int) []byte {
	s, _, err := huff0.ReadTable(Tables[k][8:], nil)
	if err != nil {
		t.Fatal(err)
	}
	var cum [257]float64
	for c := 0; c < 256; c++ {
		var h [256]uint32
		h[c] = 8
		bits := s.EstimateSize(&h) // (7 + 8·len) >> 3 = len
		cum[c+1] = cum[c] + 1/float64(uint64(1)<<bits)
	}
	var b []byte
	for len(b) < n {
		for i := 0; i < fresh; i++ {
			x := rng.Float64() * cum[256]
			c := 0
			for cum[c+1] < x {
				c++
			}
			b = append(b, byte(c))
		}
		if len(b) > 100 {
			at := rng.IntN(len(b) - 60)
			b = append(b, b[at:at+20+rng.IntN(40)]...)
		}
	}
	return b
}

// TestTables: every shared table is a zstd dictionary with its ID, zstd's
// default repeat offsets, 8 zero bytes of content, and a code for every byte
// value (so any literals can use it).
func TestTables(t *testing.T) {
	var all [256]uint32
	for i := range all {
		all[i] = 1
	}
	for i, d := range Tables {
		info, err := zstd.InspectDictionary(d)
		if err != nil {
			t.Fatalf("table %d: %v", i+1, err)
		}
		if info.ID() != uint32(i+1) || info.Offsets() != [3]int{1, 4, 8} || !bytes.Equal(info.Content(), make([]byte, 8)) {
			t.Errorf("table %d: id %d, offsets %v, content %x", i+1, info.ID(), info.Offsets(), info.Content())
		}
		s, _, err := huff0.ReadTable(d[8:], nil)
		if err != nil {
			t.Fatalf("table %d: %v", i+1, err)
		}
		if !s.CanUseTable(&all) {
			t.Errorf("table %d has no code for some byte value", i+1)
		}
	}
}

// TestShareRoundTrip: a recoded frame decodes (with the tables, and through
// Unshare without them) to the same bytes; its Huffman literals are in four
// streams exactly from FourStreamsMin bytes; it names a table exactly when
// its literals are treeless; it is at most SharedSlack bytes longer than the
// input when the stream count stays (a few more for three more streams), and
// returned as it was when nothing changes. Many of the frames are shared and
// many change their stream count (else this test would prove little).
func TestShareRoundTrip(t *testing.T) {
	enc, err := NewEncoder(0)
	if err != nil {
		t.Fatal(err)
	}
	dec := tablesDecoder(t)
	plainDec, err := NewDecoder(1 << 20)
	if err != nil {
		t.Fatal(err)
	}
	var s Sharer
	rng := rand.New(rand.NewPCG(7, 8))
	shared, restreamed, huffman := 0, 0, 0
	var buf []byte
	for i := 0; i < 400; i++ {
		plain := positionsPayload(rng, 512+rng.IntN(5000))
		switch i % 4 {
		case 1, 3:
			plain = tableSample(t, rng, i%NumTables, 512+rng.IntN(5000), 40)
		case 2:
			plain = tableSample(t, rng, i%NumTables, 2000+rng.IntN(4000), 3)
		}
		fr := enc.EncodeAll(plain, nil)
		in, ok := literalsOf(fr)
		if ok && in.typ == 2 {
			huffman++
		}
		orig := bytes.Clone(fr)
		got, err := s.Share(fr, buf)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(fr, orig) {
			t.Fatal("Share changed its input")
		}
		var h zstd.Header
		if err := h.Decode(got); err != nil {
			t.Fatal(err)
		}
		out, ok := literalsOf(got)
		if !ok {
			t.Fatalf("frame %d: Share gave a frame without one block", i)
		}
		if out.typ >= 2 {
			if want := out.regen >= FourStreamsMin; (out.streams == 4) != want {
				t.Fatalf("frame %d: %d literals in %d streams", i, out.regen, out.streams)
			}
		}
		if (out.typ == 3) != (h.DictionaryID != 0) || h.DictionaryID > NumTables {
			t.Fatalf("frame %d: literals type %d, dictionary %d", i, out.typ, h.DictionaryID)
		}
		slack := SharedSlack
		if in.streams != out.streams {
			slack += 16 // a jump table, three more paddings and header bits
			restreamed++
		}
		if len(got) > len(fr)+slack {
			t.Fatalf("frame %d: %d bytes, from %d", i, len(got), len(fr))
		}
		if &got[0] == &fr[0] {
			if in.typ == 2 && (in.regen >= FourStreamsMin) != (in.streams == 4) {
				t.Fatalf("frame %d: kept with %d literals in %d streams", i, in.regen, in.streams)
			}
		} else {
			buf = got
		}
		if h.DictionaryID != 0 {
			shared++
			if _, err := plainDec.DecodeAll(got, make([]byte, 0, len(plain))); err == nil {
				t.Fatal("a decoder without the tables decoded a shared frame")
			}
		}
		// A standard decoder holding the tables as dictionaries, and the
		// reader's way: Unshare, then a decoder without dictionaries.
		dout, err := dec.DecodeAll(got, make([]byte, 0, len(plain)))
		if err != nil || !bytes.Equal(dout, plain) {
			t.Fatalf("frame %d: decode %v, equal %v", i, err, bytes.Equal(dout, plain))
		}
		un, err := Unshare(got, nil, len(plain))
		if err != nil {
			t.Fatalf("frame %d: unshare: %v", i, err)
		}
		if h.DictionaryID == 0 && &un[0] != &got[0] {
			t.Fatal("Unshare copied a frame naming no table")
		}
		if dout, err = plainDec.DecodeAll(un, make([]byte, 0, len(plain))); err != nil || !bytes.Equal(dout, plain) {
			t.Fatalf("frame %d: decode after Unshare %v, equal %v", i, err, bytes.Equal(dout, plain))
		}
		if h.DictionaryID != 0 {
			if _, err := Unshare(got, nil, 1); !errors.Is(err, ErrSharedFrame) {
				t.Fatalf("frame %d: literals over maxLits: %v", i, err)
			}
		}
	}
	t.Logf("%d frames, %d with Huffman literals of their own, %d shared, %d with their stream count changed", 400, huffman, shared, restreamed)
	if shared < 120 || restreamed < 40 {
		t.Errorf("only %d of %d frames with Huffman literals shared, %d with their stream count changed", shared, huffman, restreamed)
	}
}

// litsInfo is what a test reads of a one-block frame's literals section.
type litsInfo struct {
	typ, streams, regen int
}

// literalsOf parses the literals header of a frame of one compressed block
// (with or without a one-byte dictionary ID); ok is false for other frames.
func literalsOf(fr []byte) (litsInfo, bool) {
	if len(fr) < 6 {
		return litsInfo{}, false
	}
	_, lit, ok := singleBlock(fr, int(fr[4]&3))
	if !ok {
		return litsInfo{}, false
	}
	b := fr[lit:]
	if typ := int(b[0] & 3); typ < 2 {
		return litsInfo{typ: typ}, true
	}
	h, ok := parseHuffLits(b)
	return litsInfo{int(b[0] & 3), h.streams, h.regen}, ok
}

// TestShareOthers: frames Share does not apply to come back unchanged: raw
// literals, a dictionary already named, a checksum, several blocks, garbage.
func TestShareOthers(t *testing.T) {
	var s Sharer
	enc, _ := NewEncoder(0)
	rng := rand.New(rand.NewPCG(9, 10))
	plain := tableSample(t, rng, 0, 3000, 40)
	fr := enc.EncodeAll(plain, nil)
	shared, err := s.Share(fr, nil)
	if err != nil || len(shared) >= len(fr) || shared[4]&3 == 0 {
		t.Fatalf("setup: the frame should be shared (%d -> %d, %v)", len(fr), len(shared), err)
	}
	shared = bytes.Clone(shared)
	crcEnc, _ := zstd.NewWriter(nil, zstd.WithEncoderCRC(true), zstd.WithSingleSegment(true))
	multi, _ := zstd.NewWriter(nil, zstd.WithEncoderCRC(false), zstd.WithWindowSize(1<<10), zstd.WithSingleSegment(false))
	big := positionsPayload(rng, 300<<10)
	for name, in := range map[string][]byte{
		"already shared": shared,
		"checksum":       crcEnc.EncodeAll(plain, nil),
		"several blocks": multi.EncodeAll(big, nil),
		"raw literals":   enc.EncodeAll(bytes.Repeat([]byte("abcdefgh"), 100), nil),
		"empty":          nil,
		"short":          fr[:7],
		"truncated":      fr[:len(fr)-3],
		"not zstd":       plain,
	} {
		got, err := s.Share(in, nil)
		if err != nil || !bytes.Equal(got, in) {
			t.Errorf("%s: got %d bytes (%v), want the input back", name, len(got), err)
		}
	}
}

// FuzzShare: whatever the bytes, Share neither panics nor returns a frame
// that decodes differently from its input; a payload's frame round-trips.
func FuzzShare(f *testing.F) {
	encs := levelEncoders(f)
	enc := encs[1]
	rng := rand.New(rand.NewPCG(11, 12))
	for i := 0; i < 4; i++ {
		p := positionsPayload(rng, 600+i*700)
		f.Add(p)
		f.Add(enc.EncodeAll(p, nil))
	}
	// A payload whose literals, stored raw by Unshare, overflow the content
	// size at level 3 (TestShareEveryLevel).
	f.Add(scatteredPayload(rand.New(rand.NewPCG(21, 22)), 1300))
	dec := tablesDecoder(f)
	plainDec, _ := NewDecoder(1 << 20)
	f.Fuzz(func(t *testing.T, b []byte) {
		var s Sharer
		// b as a frame: Share returns it, or a frame decoding to the same
		// bytes when b decodes (Share reads only the literals section: a
		// frame whose sequences are broken may be recoded, broken still).
		got, err := s.Share(b, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, b) {
			want, err1 := dec.DecodeAll(b, make([]byte, 0, 1<<20))
			have, err2 := dec.DecodeAll(got, make([]byte, 0, 1<<20))
			if err1 == nil && (err2 != nil || !bytes.Equal(want, have)) {
				t.Fatalf("rewrote a frame: %v, %d -> %d bytes", err2, len(b), len(got))
			}
		}
		// b as a frame naming a table: Unshare fails, or gives a frame that
		// decodes (without tables) as b does with them.
		if un, err := Unshare(b, nil, 1<<20); err == nil {
			want, err1 := dec.DecodeAll(b, make([]byte, 0, 1<<20))
			have, err2 := plainDec.DecodeAll(un, make([]byte, 0, 1<<20))
			if err2 == nil && (err1 != nil || !bytes.Equal(want, have)) {
				t.Fatalf("Unshare: the frame decodes to other bytes (%v)", err1)
			}
		} else if !errors.Is(err, ErrSharedFrame) {
			t.Fatalf("Unshare: %v", err)
		}
		// b as a payload, at every level.
		for level, enc := range encs {
			fr := enc.EncodeAll(b, nil)
			got, err = s.Share(fr, nil)
			if err != nil {
				t.Fatal(err)
			}
			out, err := dec.DecodeAll(got, make([]byte, 0, len(b)))
			if err != nil || !bytes.Equal(out, b) {
				t.Fatalf("level %d: payload of %d bytes: %v", level+1, len(b), err)
			}
			un, err := Unshare(got, nil, len(b))
			if err != nil {
				t.Fatal(err)
			}
			if len(un) > len(got)+len(b)+UnshareGrowth {
				t.Fatalf("level %d: Unshare made %d bytes of a %d-byte frame of %d", level+1, len(un), len(got), len(b))
			}
			if out, err = plainDec.DecodeAll(un, make([]byte, 0, len(b))); err != nil || !bytes.Equal(out, b) {
				t.Fatalf("level %d: payload of %d bytes after Unshare: %v", level+1, len(b), err)
			}
		}
	})
}

// TestTablesDocumented: docs/FORMAT.md gives exactly the bytes of Tables:
// per table its Huffman table description, and the common tail after it.
func TestTablesDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../../docs/FORMAT.md")
	if err != nil {
		t.Fatal(err)
	}
	hexLines := func(b []byte) string {
		var s strings.Builder
		for j := 0; j < len(b); j += 32 {
			fmt.Fprintf(&s, "% x\n", b[j:min(j+32, len(b))])
		}
		return s.String()
	}
	var tail []byte
	for i, d := range Tables {
		if binary.LittleEndian.Uint32(d) != 0xEC30A437 || binary.LittleEndian.Uint32(d[4:]) != uint32(i+1) {
			t.Fatalf("table %d: header % x", i+1, d[:8])
		}
		_, rest, err := huff0.ReadTable(d[8:], nil)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			tail = rest
			if want := "```\n" + hexLines(tail) + "```"; !strings.Contains(string(doc), want) {
				t.Errorf("docs/FORMAT.md does not give the common tail as:\n%s", want)
			}
		} else if !bytes.Equal(rest, tail) {
			t.Errorf("table %d: its tail differs from table 1's", i+1)
		}
		desc := d[8 : len(d)-len(rest)]
		want := fmt.Sprintf("table %d (%d bytes):\n", i+1, len(desc)) + hexLines(desc)
		if !strings.Contains(string(doc), want) {
			t.Errorf("docs/FORMAT.md does not list table %d as:\n%s", i+1, want)
		}
	}
}

// tablesDecoder is a stock decoder holding the shared tables as dictionaries:
// what any zstd decoder would need to read the frames Share writes.
func tablesDecoder(t testing.TB) *zstd.Decoder {
	d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderDicts(Tables[:]...))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestUnshareBad: a frame naming a table that breaks the format's rules is an
// ErrSharedFrame, whatever is wrong with it.
func TestUnshareBad(t *testing.T) {
	enc, _ := NewEncoder(0)
	var s Sharer
	plain := tableSample(t, rand.New(rand.NewPCG(13, 14)), 2, 3000, 40)
	fr, err := s.Share(enc.EncodeAll(plain, nil), nil)
	if err != nil || fr[4]&3 != 1 {
		t.Fatalf("setup: the frame should be shared (%v)", err)
	}
	mod := func(f func(b []byte) []byte) []byte { return f(bytes.Clone(fr)) }
	blk := 6 + [4]int{1, 2, 4, 8}[fr[4]>>6] // the block header's offset
	for name, in := range map[string][]byte{
		"table 0":          mod(func(b []byte) []byte { b[5] = 0; return b }),
		"table 25":         mod(func(b []byte) []byte { b[5] = NumTables + 1; return b }),
		"two-byte id":      mod(func(b []byte) []byte { b[4] = b[4]&^3 | 2; return b }),
		"not single":       mod(func(b []byte) []byte { b[4] &^= 0x20; return b }),
		"checksum flag":    mod(func(b []byte) []byte { b[4] |= 0x04; return b }),
		"block too long":   mod(func(b []byte) []byte { return b[:len(b)-1] }),
		"raw block":        mod(func(b []byte) []byte { b[blk] &^= 6; return b }),
		"header only":      fr[:blk+1],
		"literals garbage": mod(func(b []byte) []byte { b[blk+6] ^= 0xff; b[blk+7] ^= 0xff; return b }),
	} {
		if _, err := Unshare(in, nil, len(plain)); !errors.Is(err, ErrSharedFrame) {
			t.Errorf("%s: %v, want ErrSharedFrame", name, err)
		}
	}
}
