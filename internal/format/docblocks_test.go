package format

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// blockedCase is a window with term frequencies and (maybe) norms.
type blockedCase struct {
	docCase
	tf    []uint32
	norms []byte // indexed by doc id; nil: no norms
}

func blockedCases() []blockedCase {
	r := rand.New(rand.NewPCG(11, 12))
	var cs []blockedCase
	for _, c := range docCases() {
		if len(c.docs) < BlockedMinDocs {
			continue
		}
		tf := make([]uint32, len(c.docs))
		for i := range tf {
			tf[i] = 1 + r.Uint32N(1<<uint(r.IntN(12)))
		}
		bc := blockedCase{docCase: c, tf: tf}
		if c.docs[len(c.docs)-1] < 1<<22 {
			bc.norms = make([]byte, c.docs[len(c.docs)-1]+1)
			for i := range bc.norms {
				bc.norms[i] = byte(r.Uint32())
			}
		}
		cs = append(cs, bc)
	}
	return cs
}

// wantBlock is block b's expected directory entry.
func (c *blockedCase) wantBlock(b int) DocBlock {
	lo, hi := b*DocBlockLen, min((b+1)*DocBlockLen, len(c.docs))
	k := DocBlock{Base: c.base, Last: c.docs[hi-1], Ord: int32(lo), Docs: int32(hi - lo)}
	if b > 0 {
		k.Base = c.docs[lo-1] + 1
	}
	if c.norms != nil {
		k.MinNorm = 255
	}
	for i := lo; i < hi; i++ {
		k.MaxTF = max(k.MaxTF, c.tf[i])
		if c.norms != nil {
			k.MinNorm = min(k.MinNorm, c.norms[c.docs[i]])
		}
	}
	return k
}

func TestBlockedRoundTrip(t *testing.T) {
	var scratch []uint32
	for _, c := range blockedCases() {
		for _, withCRC := range []bool{false, true} {
			var w []byte
			w, scratch = AppendBlocked(nil, c.docs, c.base, c.tf, c.norms, withCRC, scratch)
			name := fmt.Sprintf("%s crc=%v", c.name, withCRC)
			n := len(c.docs)
			all, err := DecodeDocWindow(w, n, c.base, withCRC, nil)
			if err != nil || !slices.Equal(all, c.docs) {
				t.Fatalf("%s: whole decode: %v", name, err)
			}
			last := c.docs[n-1]
			bw, err := ParseBlocked(w, n, c.base, last, withCRC, nil)
			if err != nil {
				t.Fatalf("%s: parse: %v", name, err)
			}
			if len(bw.Blocks) != (n+DocBlockLen-1)/DocBlockLen {
				t.Fatalf("%s: %d blocks", name, len(bw.Blocks))
			}
			for b := range bw.Blocks {
				got := bw.Blocks[b]
				got.off = 0
				if want := c.wantBlock(b); got != want {
					t.Fatalf("%s: block %d = %+v, want %+v", name, b, got, want)
				}
				docs, err := bw.Decode(b, nil)
				lo := b * DocBlockLen
				if err != nil || !slices.Equal(docs, c.docs[lo:lo+len(docs)]) {
					t.Fatalf("%s: block %d decode: %v", name, b, err)
				}
			}
			// Find: the block of every doc, and of the ids between them.
			for i, d := range c.docs {
				if b := bw.Find(0, d); b != i/DocBlockLen {
					t.Fatalf("%s: Find(%d) = %d, want %d", name, d, b, i/DocBlockLen)
				}
			}
			if last < math.MaxUint32 {
				if b := bw.Find(0, last+1); b != len(bw.Blocks) {
					t.Fatalf("%s: Find past the last doc = %d", name, b)
				}
			}
		}
	}
}

// TestBlockedGolden pins the bytes of a blocked window of 130 docs.
func TestBlockedGolden(t *testing.T) {
	docs := make([]uint32, 130)
	tf := make([]uint32, 130)
	for i := range docs {
		docs[i] = 10 + 2*uint32(i) // 10, 12, ..., 268
		tf[i] = 1
	}
	tf[5], tf[129] = 7, 3
	norms := make([]byte, 300)
	for i := range norms {
		norms[i] = byte(20 + i%50)
	}
	w, _ := AppendBlocked(nil, docs, 4, tf, norms, false, nil)
	// enc 2 | block 0: span 264-4-127 = 133 (85 01), maxTF-1 6, minNorm 20 (14)
	// | block 1: maxTF-1 2, minNorm min(norms[266], norms[268]) = 36 (24)
	// | block 0 packed: gaps 6, then 127 × 1: width 1, one exception (index 0, high 3)
	// | block 1 packed: gaps 1 (266-265), 1: width 1, 2 values.
	head := []byte{DocEncBlocked, 0x85, 0x01, 0x06, 0x14, 0x02, 0x24}
	if !slices.Equal(w[:len(head)], head) {
		t.Errorf("directory % x, want % x", w[:len(head)], head)
	}
	golden(t, "docblocked.bin", w)
	if len(w) != 7+(1+16+2)+(1+1) {
		t.Errorf("%d bytes: % x", len(w), w)
	}
}

func TestBlockedCorruption(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for _, n := range []int{129, 300, 1024} {
		docs := randDocs(r, n, 100, 9)
		tf := make([]uint32, n)
		for i := range tf {
			tf[i] = 1 + r.Uint32N(40)
		}
		last := docs[n-1]
		for _, withCRC := range []bool{true, false} {
			w, _ := AppendBlocked(nil, docs, 100, tf, nil, withCRC, nil)
			check := func(what string, b []byte) {
				got, err := DecodeDocWindow(b, n, 100, withCRC, nil)
				if withCRC && !errors.Is(err, ErrCorrupt) {
					t.Fatalf("n=%d %s: err = %v, want ErrCorrupt", n, what, err)
				}
				if err == nil {
					checkDocs(t, got, n, 100)
				} else if !errors.Is(err, ErrCorrupt) {
					t.Fatalf("n=%d %s: err = %v, want ErrCorrupt", n, what, err)
				}
				bw, err := ParseBlocked(b, n, 100, last, withCRC, nil)
				if withCRC && !errors.Is(err, ErrCorrupt) {
					t.Fatalf("n=%d %s: parse err = %v, want ErrCorrupt", n, what, err)
				}
				if err != nil {
					if !errors.Is(err, ErrCorrupt) {
						t.Fatalf("n=%d %s: parse err = %v", n, what, err)
					}
					return
				}
				checkBlocks(t, &bw, n)
			}
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
	}
}

// checkBlocks decodes every block of a parsed window: each either fails with
// ErrCorrupt or gives ascending docs within its directory range.
func checkBlocks(t testing.TB, bw *BlockedWindow, n int) {
	t.Helper()
	total := 0
	for b := range bw.Blocks {
		k := bw.Blocks[b]
		total += int(k.Docs)
		if k.Docs < 1 || k.Docs > DocBlockLen || k.MaxTF < 1 {
			t.Fatalf("block %d: %+v", b, k)
		}
		docs, err := bw.Decode(b, nil)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("block %d: err = %v", b, err)
			}
			continue
		}
		if len(docs) != int(k.Docs) || docs[0] < k.Base || docs[len(docs)-1] > k.Last {
			t.Fatalf("block %d: %d docs [%d, %d] outside %+v", b, len(docs), docs[0], docs[len(docs)-1], k)
		}
		for i := 1; i < len(docs); i++ {
			if docs[i] <= docs[i-1] {
				t.Fatalf("block %d: not ascending at %d", b, i)
			}
		}
	}
	if total != n {
		t.Fatalf("blocks hold %d docs, want %d", total, n)
	}
}

func FuzzParseBlocked(f *testing.F) {
	r := rand.New(rand.NewPCG(15, 16))
	for _, n := range []int{129, 256, 1000} {
		docs := randDocs(r, n, 7, 4)
		tf := make([]uint32, n)
		for i := range tf {
			tf[i] = 1 + r.Uint32N(9)
		}
		w, _ := AppendBlocked(nil, docs, 7, tf, nil, false, nil)
		f.Add(w, uint16(n), uint32(7), docs[n-1])
	}
	f.Fuzz(func(t *testing.T, src []byte, n16 uint16, base, last uint32) {
		n := int(n16)
		bw, err := ParseBlocked(src, n, base, last, false, nil)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("err = %v, want ErrCorrupt", err)
			}
			return
		}
		checkBlocks(t, &bw, n)
		if bw.Blocks[0].Base != base || bw.Blocks[len(bw.Blocks)-1].Last != last {
			t.Fatalf("blocks %+v for base %d last %d", bw.Blocks, base, last)
		}
	})
}

func BenchmarkBlockedDecode(b *testing.B) {
	r := rand.New(rand.NewPCG(9, 10))
	docs := randDocs(r, 1024, 0, 7)
	tf := make([]uint32, len(docs))
	for i := range tf {
		tf[i] = 1
	}
	w, _ := AppendBlocked(nil, docs, 0, tf, nil, true, nil)
	dst := make([]uint32, 0, 1024)
	b.Run("whole", func(b *testing.B) {
		for b.Loop() {
			if _, err := DecodeDocWindow(w, len(docs), 0, true, dst); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("parse+one block", func(b *testing.B) {
		var blks []DocBlock
		for b.Loop() {
			bw, err := ParseBlocked(w, len(docs), 0, docs[len(docs)-1], true, blks)
			if err != nil {
				b.Fatal(err)
			}
			blks = bw.Blocks
			if _, err := bw.Decode(bw.Find(0, docs[700]), dst); err != nil {
				b.Fatal(err)
			}
		}
	})
}
