package format

import (
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/snii-go/snii/internal/errs"
)

// randWindows returns n windows with ascending last docs.
func randWindows(r *rand.Rand, n int) []WindowRef {
	wins := make([]WindowRef, n)
	last := uint32(r.IntN(1000))
	for i := range wins {
		docs := uint32(1 + r.IntN(1024))
		if i > 0 {
			last += docs + uint32(r.IntN(5000))
		} else {
			last += docs - 1
		}
		wins[i] = WindowRef{LastDoc: last, Docs: docs, DocLen: uint32(6 + r.IntN(5000)), PrxLen: uint32(6 + r.IntN(1<<uint(r.IntN(25)))),
			MaxTF: uint32(1 + r.IntN(1<<uint(r.IntN(20)))), MinNorm: byte(r.IntN(256))}
	}
	return wins
}

// expectedInfos computes what Window(i) must return.
func expectedInfos(wins []WindowRef) []WindowInfo {
	var out []WindowInfo
	var docOff, prxOff uint64
	for i, w := range wins {
		base := uint32(0)
		if i > 0 {
			base = wins[i-1].LastDoc + 1
		}
		out = append(out, WindowInfo{Base: base, LastDoc: w.LastDoc, Docs: w.Docs, DocOff: docOff, DocLen: uint64(w.DocLen), PrxOff: prxOff, PrxLen: uint64(w.PrxLen),
			MaxTF: w.MaxTF, MinNorm: w.MinNorm})
		docOff += uint64(w.DocLen)
		prxOff += uint64(w.PrxLen)
	}
	return out
}

func TestPreludeRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, n := range []int{1, 2, 63, 64, 65, 127, 128, 129, 200, 1000} {
		wins := randWindows(r, n)
		if n == 200 { // last doc at the top of the id space
			shift := math.MaxUint32 - wins[n-1].LastDoc
			for i := range wins {
				wins[i].LastDoc += shift
			}
		}
		want := expectedInfos(wins)
		pre := AppendPrelude([]byte("prefix"), wins)[len("prefix"):]
		span := append(slices.Clone(pre), "doc windows follow"...)
		p, size, err := ParsePrelude(span)
		if err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		if size != len(pre) || p.Size() != size || p.Len() != n {
			t.Fatalf("n=%d: size %d/%d, len %d; want %d, %d", n, size, p.Size(), p.Len(), len(pre), n)
		}
		var docBytes, prxBytes, docCount uint64
		for _, w := range wins {
			docBytes += uint64(w.DocLen)
			prxBytes += uint64(w.PrxLen)
			docCount += uint64(w.Docs)
		}
		if p.DocBytes() != docBytes || p.PrxBytes() != prxBytes || p.DocCount() != docCount {
			t.Errorf("n=%d: totals %d %d %d, want %d %d %d", n, p.DocBytes(), p.PrxBytes(), p.DocCount(), docBytes, prxBytes, docCount)
		}
		for i := range want {
			got, err := p.Window(i)
			if err != nil || got != want[i] {
				t.Fatalf("n=%d: Window(%d) = %+v, %v; want %+v", n, i, got, err, want[i])
			}
		}
		for _, i := range []int{-1, n} {
			if _, err := p.Window(i); !errors.Is(err, errs.InvalidArgument) {
				t.Errorf("Window(%d): err = %v", i, err)
			}
		}
		for _, from := range []int{0, 1, 63, 64, 65, n - 1, n} {
			if from < 0 || from > n {
				continue
			}
			c := p.Cursor(from)
			got := []WindowInfo{}
			for w, ok := c.Next(); ok; w, ok = c.Next() {
				got = append(got, w)
			}
			if diff := cmp.Diff(want[from:], got); diff != "" {
				t.Fatalf("n=%d: Cursor(%d) (-want +got):\n%s", n, from, diff)
			}
		}
		find := func(doc uint32, wantIdx int) {
			t.Helper()
			got, err := p.Find(doc)
			if err != nil || got != wantIdx {
				t.Fatalf("n=%d: Find(%d) = %d, %v; want %d", n, doc, got, err, wantIdx)
			}
		}
		for i, w := range want {
			find(w.Base, i)
			find(w.LastDoc, i)
			if w.LastDoc > w.Base {
				find(w.LastDoc-1, i)
			}
			if w.LastDoc < math.MaxUint32 {
				find(w.LastDoc+1, i+1)
			}
		}
		find(0, 0)
		if wins[n-1].LastDoc < math.MaxUint32 {
			find(math.MaxUint32, n)
		}
		// SeekForward from any cursor: the next window is Find's, or the
		// cursor's own when Find's is behind it; the windows after it follow.
		for k := 0; k < 200; k++ {
			from := r.IntN(n + 1)
			doc := uint32(r.Int64N(int64(wins[n-1].LastDoc) + 2))
			if k%3 == 0 && n > 0 {
				doc = want[r.IntN(n)].LastDoc // at a window's last doc
			}
			c := p.Cursor(from)
			if err := c.SeekForward(doc); err != nil {
				t.Fatal(err)
			}
			j, _ := p.Find(doc)
			j = max(j, from)
			if c.Index() != j {
				t.Fatalf("n=%d: Cursor(%d).SeekForward(%d) at %d, want %d", n, from, doc, c.Index(), j)
			}
			w, ok := c.Next()
			if ok != (j < n) || ok && w != want[j] {
				t.Fatalf("n=%d: Cursor(%d).SeekForward(%d) then Next = %+v, %v; want window %d", n, from, doc, w, ok, j)
			}
		}
	}
}

// resum recomputes the CRC of a prelude of length len(b).
func resumPrelude(b []byte) []byte {
	binary.LittleEndian.PutUint32(b[len(b)-4:], Checksum(b[:len(b)-4]))
	return b
}

func TestParsePreludeInvalid(t *testing.T) {
	good := []WindowRef{{LastDoc: 10, Docs: 3, DocLen: 8, PrxLen: 9, MaxTF: 1}, {LastDoc: 20, Docs: 10, DocLen: 8, PrxLen: 9, MaxTF: 7, MinNorm: 3}}
	mod := func(f func(w []WindowRef)) []byte {
		w := slices.Clone(good)
		f(w)
		return AppendPrelude(nil, w)
	}
	cases := map[string][]byte{
		"empty":               nil,
		"no windows":          AppendPrelude(nil, nil),
		"equal last docs":     mod(func(w []WindowRef) { w[1].LastDoc = 10 }),
		"descending":          mod(func(w []WindowRef) { w[1].LastDoc = 5 }),
		"zero docs":           mod(func(w []WindowRef) { w[0].Docs = 0 }),
		"too many docs":       mod(func(w []WindowRef) { w[1].Docs = 11 }),
		"too many docs first": mod(func(w []WindowRef) { w[0].Docs = 12 }),
		"zero doc len":        mod(func(w []WindowRef) { w[0].DocLen = 0 }),
		"zero prx len":        mod(func(w []WindowRef) { w[1].PrxLen = 0 }),
		"zero max tf":         mod(func(w []WindowRef) { w[1].MaxTF = 0 }),
	}
	sb := AppendPrelude(nil, good)
	sb[2] ^= 1 // super-block lastDoc
	cases["super-block last doc"] = resumPrelude(sb)
	sb = AppendPrelude(nil, good)
	sb[2+8] ^= 1 // super-block docOff
	cases["super-block doc offset"] = resumPrelude(sb)
	sb = AppendPrelude(nil, good)
	sb[2+16] ^= 1 // super-block prxOff
	cases["super-block prx offset"] = resumPrelude(sb)
	sb = AppendPrelude(nil, good)
	sb[2+4] ^= 1 // super-block entryOff
	cases["super-block entry offset"] = resumPrelude(sb)
	sb = AppendPrelude(nil, good)
	sb[1]++ // entriesLen one more: a trailing entry byte
	sb = append(sb[:len(sb)-4], 0, 0, 0, 0, 0)
	cases["trailing entry byte"] = resumPrelude(sb)
	for name, b := range cases {
		if _, _, err := ParsePrelude(b); !errors.Is(err, errs.Corrupt) {
			t.Errorf("%s: err = %v, want errs.Corrupt", name, err)
		}
	}
	// A window ending at 2^32-1 followed by another overflows.
	ov := AppendPrelude(nil, []WindowRef{{LastDoc: math.MaxUint32, Docs: 1, DocLen: 6, PrxLen: 6, MaxTF: 1}, {LastDoc: 0, Docs: 1, DocLen: 6, PrxLen: 6, MaxTF: 1}})
	if _, _, err := ParsePrelude(ov); !errors.Is(err, errs.Corrupt) {
		t.Errorf("overflow: err = %v", err)
	}
}

func TestPreludeCorruption(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for _, n := range []int{1, 65} {
		pre := AppendPrelude(nil, randWindows(r, n))
		good, _, err := ParsePrelude(pre)
		if err != nil {
			t.Fatal(err)
		}
		// The verified form gives the same prelude on the same bytes.
		again, size, err := ParseVerifiedPrelude(pre, good.Sums())
		if err != nil || size != len(pre) || again.Sums() != good.Sums() || again.Len() != good.Len() || again.Size() != good.Size() {
			t.Fatalf("n=%d: verified parse %+v (%d bytes, %v), want %+v", n, again.Sums(), size, err, good.Sums())
		}
		for i := range pre {
			for _, x := range []byte{0x01, 0x80, 0xff} {
				b := slices.Clone(pre)
				b[i] ^= x
				if _, _, err := ParsePrelude(b); !errors.Is(err, errs.Corrupt) {
					t.Fatalf("n=%d byte %d ^ %#x: err = %v", n, i, x, err)
				}
				// Other bytes than those verified fail the verified form too.
				if _, _, err := ParseVerifiedPrelude(b, good.Sums()); !errors.Is(err, errs.Corrupt) {
					t.Fatalf("n=%d byte %d ^ %#x, verified form: err = %v", n, i, x, err)
				}
			}
		}
		for l := 0; l < len(pre); l++ {
			if _, _, err := ParsePrelude(pre[:l]); !errors.Is(err, errs.Corrupt) {
				t.Fatalf("n=%d truncated to %d: err = %v", n, l, err)
			}
			if _, _, err := ParseVerifiedPrelude(pre[:l], good.Sums()); !errors.Is(err, errs.Corrupt) {
				t.Fatalf("n=%d truncated to %d, verified form: err = %v", n, l, err)
			}
		}
	}
}

func FuzzParsePrelude(f *testing.F) {
	r := rand.New(rand.NewPCG(15, 16))
	for _, n := range []int{1, 3, 64, 70} {
		f.Add(AppendPrelude(nil, randWindows(r, n)), uint32(0))
	}
	f.Fuzz(func(t *testing.T, src []byte, doc uint32) {
		// The CRC makes random inputs fail early; also try with a fixed CRC so
		// the fuzzer reaches the structural checks.
		for _, b := range [][]byte{src, fixPreludeCRC(src)} {
			p, n, err := ParsePrelude(b)
			if err != nil {
				if !errors.Is(err, errs.Corrupt) {
					t.Fatalf("err = %v", err)
				}
				continue
			}
			if n != p.Size() || n > len(b) || p.Len() < 1 {
				t.Fatalf("n=%d size=%d len=%d", n, p.Size(), p.Len())
			}
			var wins []WindowRef
			var docCount uint64
			c := p.Cursor(0)
			prev := WindowInfo{}
			for i := 0; ; i++ {
				w, ok := c.Next()
				if !ok {
					break
				}
				if w2, err := p.Window(i); err != nil || w2 != w {
					t.Fatalf("Window(%d) = %+v, %v; cursor %+v", i, w2, err, w)
				}
				if i > 0 && (w.Base != prev.LastDoc+1 || w.DocOff != prev.DocOff+prev.DocLen || w.PrxOff != prev.PrxOff+prev.PrxLen) {
					t.Fatalf("window %d %+v does not follow %+v", i, w, prev)
				}
				if w.Docs == 0 || uint64(w.Docs) > uint64(w.LastDoc-w.Base)+1 || w.LastDoc < w.Base {
					t.Fatalf("window %d %+v invalid", i, w)
				}
				docCount += uint64(w.Docs)
				wins = append(wins, WindowRef{w.LastDoc, w.Docs, uint32(w.DocLen), uint32(w.PrxLen), w.MaxTF, w.MinNorm})
				prev = w
			}
			if len(wins) != p.Len() || docCount != p.DocCount() {
				t.Fatalf("cursor gave %d windows, %d docs; want %d, %d", len(wins), docCount, p.Len(), p.DocCount())
			}
			i, err := p.Find(doc)
			if err != nil || i < 0 || i > p.Len() {
				t.Fatalf("Find(%d) = %d, %v", doc, i, err)
			}
			if i < p.Len() && wins[i].LastDoc < doc || i > 0 && wins[i-1].LastDoc >= doc {
				t.Fatalf("Find(%d) = %d wrong", doc, i)
			}
			// SeekForward from a cursor at any window stops at Find's, or
			// stays where it is when Find's is behind it.
			for _, from := range []int{0, int(doc) % (p.Len() + 1), p.Len()} {
				c := p.Cursor(from)
				if err := c.SeekForward(doc); err != nil || c.Index() != max(i, from) {
					t.Fatalf("Cursor(%d).SeekForward(%d) at %d, %v; want %d", from, doc, c.Index(), err, max(i, from))
				}
			}
			// A valid prelude is canonical up to varint encoding: re-encoding parses the same.
			re := AppendPrelude(nil, wins)
			p2, _, err := ParsePrelude(re)
			if err != nil || p2.Len() != p.Len() {
				t.Fatalf("re-encoded prelude: %v", err)
			}
		}
	})
}

// fixPreludeCRC returns src with the CRC recomputed where the header says
// the prelude ends (or src itself when the header is unreadable).
func fixPreludeCRC(src []byte) []byte {
	r := reader{b: src}
	nw := r.uvarint()
	el := r.uvarint()
	if !r.ok() || nw > 1<<20 || el > uint64(len(src)) {
		return src
	}
	end := uint64(r.off) + (nw+63)/64*24 + el
	if end+4 > uint64(len(src)) {
		return src
	}
	b := slices.Clone(src[:end+4])
	return resumPrelude(b)
}

func BenchmarkPreludeFind(b *testing.B) {
	r := rand.New(rand.NewPCG(17, 18))
	wins := randWindows(r, 4096)
	p, _, err := ParsePrelude(AppendPrelude(nil, wins))
	if err != nil {
		b.Fatal(err)
	}
	last := wins[len(wins)-1].LastDoc
	b.ReportAllocs()
	i := uint32(0)
	for b.Loop() {
		i = i*2654435761 + 1
		if _, err := p.Find(i % last); err != nil {
			b.Fatal(err)
		}
	}
}
