package format

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/snii-go/snii/internal/codec/bitpack"

	"github.com/snii-go/snii/internal/errs"
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

// wantBlock is block b's expected directory entry, its impacts computed by
// brute force: the pairs no other pair dominates, then merged as the format
// says while more than MaxImpacts.
func (c *blockedCase) wantBlock(b int) DocBlock {
	lo, hi := b*DocBlockLen, min((b+1)*DocBlockLen, len(c.docs))
	k := DocBlock{Base: c.base, Last: c.docs[hi-1], Ord: int32(lo), Docs: int32(hi - lo)}
	if b > 0 {
		k.Base = c.docs[lo-1] + 1
	}
	var pairs []Impact
	for i := lo; i < hi; i++ {
		p := Impact{TF: c.tf[i]}
		if c.norms != nil {
			p.Norm = c.norms[c.docs[i]]
		}
		pairs = append(pairs, p)
	}
	var front []Impact
	for i, p := range pairs {
		dominated := false
		for j, q := range pairs {
			if q.TF >= p.TF && q.Norm <= p.Norm && (q != p || j < i) {
				dominated = true
			}
		}
		if !dominated {
			front = append(front, p)
		}
	}
	slices.SortFunc(front, func(a, b Impact) int { return int(a.TF) - int(b.TF) })
	for len(front) > MaxImpacts {
		m, gap := 0, uint32(math.MaxUint32)
		for i := 0; i+1 < len(front); i++ {
			if g := front[i+1].TF - front[i].TF; g < gap {
				m, gap = i, g
			}
		}
		front[m+1].Norm = front[m].Norm
		front = append(front[:m], front[m+1:]...)
	}
	k.NImpacts = int32(copy(k.Impacts[:], front))
	return k
}

// TestBlockImpactsBound: every doc's (tf, norm) is dominated by one of its
// block's impacts, which ascend strictly in both.
func TestBlockImpactsBound(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	for range 2000 {
		n := 1 + r.IntN(128)
		docs := make([]uint32, n)
		tf := make([]uint32, n)
		norms := make([]byte, n)
		for i := range docs {
			docs[i] = uint32(i)
			tf[i] = 1 + r.Uint32N(1<<uint(r.IntN(6)))
			norms[i] = byte(r.IntN(1 << uint(r.IntN(9))))
		}
		imp := BlockImpacts(docs, tf, norms, nil)
		if len(imp) < 1 || len(imp) > MaxImpacts {
			t.Fatalf("%d impacts", len(imp))
		}
		for i := 1; i < len(imp); i++ {
			if imp[i].TF <= imp[i-1].TF || imp[i].Norm <= imp[i-1].Norm {
				t.Fatalf("impacts not ascending: %v", imp)
			}
		}
		for i := range docs {
			if !slices.ContainsFunc(imp, func(p Impact) bool { return p.TF >= tf[i] && p.Norm <= norms[i] }) {
				t.Fatalf("doc %d (%d, %d) not bounded by %v", i, tf[i], norms[i], imp)
			}
		}
		if nn := BlockImpacts(docs, tf, nil, nil); len(nn) != 1 || nn[0].TF != slices.Max(tf) || nn[0].Norm != 0 {
			t.Fatalf("no norms: %v", nn)
		}
	}
}

// TestBlockImpactsBruteForce: BlockImpacts gives the brute force's impacts
// (wantBlock) on blocks of few and of many distinct tfs and norms, repeated
// pairs included, with and without norms.
func TestBlockImpactsBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 24))
	var dst []Impact
	for k := range 3000 {
		n := 1 + r.IntN(DocBlockLen)
		c := blockedCase{docCase: docCase{docs: make([]uint32, n)}, tf: make([]uint32, n)}
		if k%5 != 0 {
			c.norms = make([]byte, n)
		}
		tfBits, normBits := uint(r.IntN(9)), uint(r.IntN(9))
		for i := range c.docs {
			c.docs[i] = uint32(i)
			c.tf[i] = 1 + r.Uint32N(1<<tfBits)
			if c.norms != nil {
				c.norms[i] = byte(r.IntN(1 << normBits))
			}
		}
		want := c.wantBlock(0)
		dst = BlockImpacts(c.docs, c.tf, c.norms, dst)
		if !slices.Equal(dst, want.Impacts[:want.NImpacts]) {
			t.Fatalf("case %d: %v, brute force %v", k, dst, want.Impacts[:want.NImpacts])
		}
	}
	if got := BlockImpacts(nil, nil, nil, dst); len(got) != 0 {
		t.Fatalf("no docs: %v", got)
	}
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
			bw, err := ParseBlocked(w, n, c.base, last, withCRC, true, nil)
			if err != nil {
				t.Fatalf("%s: parse: %v", name, err)
			}
			// Without impacts: the same directory, the impacts skipped.
			lean, err := ParseBlocked(w, n, c.base, last, withCRC, false, nil)
			if err != nil {
				t.Fatalf("%s: parse without impacts: %v", name, err)
			}
			for b := range lean.Blocks {
				got, want := lean.Blocks[b], bw.Blocks[b]
				want.Impacts, want.NImpacts = [MaxImpacts]Impact{}, 0
				if got != want {
					t.Fatalf("%s: block %d without impacts = %+v, want %+v", name, b, got, want)
				}
			}
			if err := lean.Locate(); err != nil {
				t.Fatalf("%s: locate: %v", name, err)
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
	// enc 2 | block 0: span 264-4-127 = 133 (85 01), 2 impacts: (tf 1, norm 20) and
	// doc 20's (7, 40): 01 | 00 14 | 05 28 (7-1-1, 40)
	// | block 1: doc 266 (1, 36), doc 268 (3, 38): 01 | 00 24 | 01 26
	// | block 0 packed: gaps 6, then 127 × 1: width 1, one exception (index 0, high 3)
	// | block 1 packed: gaps 1 (266-265), 1: width 1, 2 values.
	head := []byte{DocEncBlocked, 0x85, 0x01, 0x01, 0x00, 0x14, 0x05, 0x28, 0x01, 0x00, 0x24, 0x01, 0x26}
	if !slices.Equal(w[:len(head)], head) {
		t.Errorf("directory % x, want % x", w[:len(head)], head)
	}
	golden(t, "docblocked.bin", w)
	if len(w) != 13+(1+16+2)+(1+1) {
		t.Errorf("%d bytes: % x", len(w), w)
	}
}

// randTF returns n term frequencies in 1..max.
func randTF(r *rand.Rand, n int, max uint32) []uint32 {
	tf := make([]uint32, n)
	for i := range tf {
		tf[i] = 1 + r.Uint32N(max)
	}
	return tf
}

func TestBlockedCorruption(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for _, n := range []int{129, 300, 1024} {
		docs := randDocs(r, n, 100, 9)
		tf := randTF(r, n, 40)
		last := docs[n-1]
		for _, withCRC := range []bool{true, false} {
			w, _ := AppendBlocked(nil, docs, 100, tf, nil, withCRC, nil)
			check := func(what string, b []byte) {
				got, err := DecodeDocWindow(b, n, 100, withCRC, nil)
				if withCRC && !errors.Is(err, errs.Corrupt) {
					t.Fatalf("n=%d %s: err = %v, want errs.Corrupt", n, what, err)
				}
				if err == nil {
					checkDocs(t, got, n, 100)
				} else if !errors.Is(err, errs.Corrupt) {
					t.Fatalf("n=%d %s: err = %v, want errs.Corrupt", n, what, err)
				}
				bw, err := ParseBlocked(b, n, 100, last, withCRC, true, nil)
				if withCRC && !errors.Is(err, errs.Corrupt) {
					t.Fatalf("n=%d %s: parse err = %v, want errs.Corrupt", n, what, err)
				}
				if err != nil {
					if !errors.Is(err, errs.Corrupt) {
						t.Fatalf("n=%d %s: parse err = %v", n, what, err)
					}
					return
				}
				checkBlocks(t, &bw, n)
			}
			mutations(w, check)
		}
	}
}

// checkBlocks decodes every block of a parsed window, in order: each either
// fails with snii.ErrCorrupt or gives ascending docs within its directory range,
// as the reference decoder of a located copy (Locate) says; and some block
// fails exactly when Locate does (the blocks do not fill the body).
func checkBlocks(t testing.TB, bw *BlockedWindow, n int) {
	t.Helper()
	ref := *bw
	ref.Blocks = slices.Clone(bw.Blocks)
	lerr := ref.Locate()
	if lerr != nil && !errors.Is(lerr, errs.Corrupt) {
		t.Fatalf("locate: %v", lerr)
	}
	total, failed := 0, false
	for b := range bw.Blocks {
		k := bw.Blocks[b]
		total += int(k.Docs)
		if k.Docs < 1 || k.Docs > DocBlockLen || k.NImpacts < 1 || k.Impacts[0].TF < 1 {
			t.Fatalf("block %d: %+v", b, k)
		}
		docs, err := bw.Decode(b, nil)
		if lerr == nil {
			rdocs, rerr := refDecode(&ref, b)
			if (err == nil) != (rerr == nil) || (err == nil && !slices.Equal(docs, rdocs)) {
				t.Fatalf("block %d: Decode %v, %v; the reference %v, %v", b, docs, err, rdocs, rerr)
			}
		}
		if err != nil {
			if !errors.Is(err, errs.Corrupt) {
				t.Fatalf("block %d: err = %v", b, err)
			}
			failed = true
			break // the blocks after a malformed one cannot be located
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
	if lerr != nil && !failed {
		t.Fatalf("every block decoded, but Locate says %v", lerr)
	}
	if !failed && total != n {
		t.Fatalf("blocks hold %d docs, want %d", total, n)
	}
}

// refDecode decodes block b of a located window the plain way: prx's packed
// block, then the prefix sum, then the range checks.
func refDecode(bw *BlockedWindow, b int) ([]uint32, error) {
	k := bw.Blocks[b]
	end := len(bw.body)
	if b+1 < len(bw.Blocks) {
		end = int(bw.Blocks[b+1].off)
	}
	gaps := make([]uint32, k.Docs)
	next, ok := bitpack.Unpack(bw.body[:end], int(k.off), gaps)
	if !ok || next != end {
		return nil, errs.Corrupt
	}
	out := make([]uint32, len(gaps))
	d := uint64(k.Base)
	for i, g := range gaps {
		if i > 0 {
			d++
		}
		d += uint64(g)
		if d > uint64(k.Last) {
			return nil, errs.Corrupt
		}
		out[i] = uint32(d)
	}
	if d != uint64(k.Last) && (b+1 < len(bw.Blocks) || k.Last != math.MaxUint32) {
		return nil, errs.Corrupt
	}
	return out, nil
}

func FuzzParseBlocked(f *testing.F) {
	r := rand.New(rand.NewPCG(15, 16))
	for _, n := range []int{129, 256, 1000} {
		docs := randDocs(r, n, 7, 4)
		tf := randTF(r, n, 9)
		w, _ := AppendBlocked(nil, docs, 7, tf, nil, false, nil)
		f.Add(w, uint16(n), uint32(7), docs[n-1])
		// a few large gaps: packed blocks with exceptions
		for i := 50; i < n; i += 97 {
			for j := i; j < n; j++ {
				docs[j] += 5000
			}
		}
		w, _ = AppendBlocked(nil, docs, 7, tf, nil, false, nil)
		f.Add(w, uint16(n), uint32(7), docs[n-1])
	}
	f.Fuzz(func(t *testing.T, src []byte, n16 uint16, base, last uint32) {
		n := int(n16)
		bw, err := ParseBlocked(src, n, base, last, false, true, nil)
		lean, lerr := ParseBlocked(src, n, base, last, false, false, nil)
		if err == nil && lerr != nil {
			t.Fatalf("parsed with impacts, not without: %v", lerr)
		}
		if lerr == nil {
			checkLean(t, &lean)
		}
		if err == nil && lerr == nil {
			sameDirectory(t, &bw, &lean)
		}
		if err != nil {
			if !errors.Is(err, errs.Corrupt) {
				t.Fatalf("err = %v, want errs.Corrupt", err)
			}
			return
		}
		checkBlocks(t, &bw, n)
		if bw.Blocks[0].Base != base || bw.Blocks[len(bw.Blocks)-1].Last != last {
			t.Fatalf("blocks %+v for base %d last %d", bw.Blocks, base, last)
		}
	})
}

// checkLean decodes the blocks of a window parsed without impacts, in order,
// until one fails (with snii.ErrCorrupt): none panics.
func checkLean(t *testing.T, bw *BlockedWindow) {
	for b := range bw.Blocks {
		if bw.Blocks[b].NImpacts != 0 {
			t.Fatalf("block %d: %d impacts read", b, bw.Blocks[b].NImpacts)
		}
		if _, err := bw.Decode(b, nil); err != nil {
			if !errors.Is(err, errs.Corrupt) {
				t.Fatalf("block %d: err = %v", b, err)
			}
			return
		}
	}
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
			bw, err := ParseBlocked(w, len(docs), 0, docs[len(docs)-1], true, false, blks)
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

// sameDirectory fails unless a window parsed without impacts (lean) has the
// directory of the same window parsed with them (full): every block's range,
// ordinals and first offset.
func sameDirectory(t testing.TB, full, lean *BlockedWindow) {
	t.Helper()
	if len(full.Blocks) != len(lean.Blocks) || full.Blocks[0].off != lean.Blocks[0].off {
		t.Fatalf("%d blocks from %d without impacts, %d from %d with them",
			len(lean.Blocks), lean.Blocks[0].off, len(full.Blocks), full.Blocks[0].off)
	}
	for b := range full.Blocks {
		f, l := full.Blocks[b], lean.Blocks[b]
		if f.Base != l.Base || f.Last != l.Last || f.Ord != l.Ord || f.Docs != l.Docs {
			t.Fatalf("block %d: %+v without impacts, %+v with them", b, l, f)
		}
	}
}

// TestParseBlockedLean: a window parsed without impacts (whose common
// directory entries leanEntry reads in place) has the directory of the same
// window parsed with them, for spans of one, two and more bytes and impacts
// whose tf take one byte or more; a truncated directory fails either way.
func TestParseBlockedLean(t *testing.T) {
	r := rand.New(rand.NewPCG(35, 10))
	for range 300 {
		n := 129 + r.IntN(1200)
		gap := []uint32{1, 4, 300, 40000}[r.IntN(4)]
		docs := randDocs(r, n, 7, gap)
		tf := randTF(r, n, []uint32{1, 9, 200, 100000}[r.IntN(4)])
		var norms []byte
		if gap <= 300 && r.IntN(2) == 0 {
			norms = make([]byte, int(docs[n-1])+1)
			for i := range norms {
				norms[i] = byte(r.Uint32())
			}
		}
		w, _ := AppendBlocked(nil, docs, 7, tf, norms, false, nil)
		full, err := ParseBlocked(w, n, 7, docs[n-1], false, true, nil)
		if err != nil {
			t.Fatal(err)
		}
		lean, err := ParseBlocked(w, n, 7, docs[n-1], false, false, nil)
		if err != nil {
			t.Fatal(err)
		}
		sameDirectory(t, &full, &lean)
		checkLean(t, &lean)
		cut := 1 + r.IntN(int(full.Blocks[0].off)-1) // inside the directory
		if _, err := ParseBlocked(w[:cut], n, 7, docs[n-1], false, false, nil); !errors.Is(err, errs.Corrupt) {
			t.Fatalf("directory cut at %d of %d: err = %v, want errs.Corrupt", cut, full.Blocks[0].off, err)
		}
	}
}
