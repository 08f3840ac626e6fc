package format

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/snii-go/snii/internal/errs"
)

type termEntry struct {
	term  []byte
	entry Entry
}

// randTerms returns n distinct sorted terms with many shared prefixes.
func randTerms(r *rand.Rand, n int) [][]byte {
	set := map[string]bool{}
	prefixes := []string{"", "a", "ab", "abc", "error", "err", "http", "user_", "zzzz", "é", "\x00", "\xff"}
	for len(set) < n {
		var sb strings.Builder
		sb.WriteString(prefixes[r.IntN(len(prefixes))])
		switch r.IntN(4) {
		case 0:
			fmt.Fprintf(&sb, "%d", r.IntN(100000))
		case 1:
			for k := r.IntN(8); k > 0; k-- {
				sb.WriteByte(byte('a' + r.IntN(3)))
			}
		case 2:
			sb.WriteString(strings.Repeat("x", r.IntN(300)))
		default:
			for k := r.IntN(5); k > 0; k-- {
				sb.WriteByte(byte(r.IntN(256)))
			}
		}
		if sb.Len() > 0 {
			set[sb.String()] = true
		}
	}
	var out [][]byte
	for s := range set {
		out = append(out, []byte(s))
	}
	slices.SortFunc(out, bytes.Compare)
	return out
}

func randTermEntries(r *rand.Rand, terms [][]byte) []termEntry {
	out := make([]termEntry, len(terms))
	for i, t := range terms {
		out[i] = termEntry{t, randEntry(r, Class(r.IntN(3)))}
	}
	return out
}

func newZstd(t testing.TB) (compress func(dst, src []byte) []byte, decompress func(dst, src []byte) ([]byte, error)) {
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderCRC(false), zstd.WithEncoderConcurrency(1))
	if err != nil {
		t.Fatal(err)
	}
	dec, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(MaxBlockPlainLen))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(dec.Close)
	return func(dst, src []byte) []byte { return enc.EncodeAll(src, dst) },
		func(dst, src []byte) ([]byte, error) { return dec.DecodeAll(src, dst) }
}

func buildBlock(b *BlockBuilder, tes []termEntry, compress func(dst, src []byte) []byte) ([]byte, BlockInfo) {
	b.Reset()
	for i := range tes {
		b.Add(tes[i].term, &tes[i].entry)
	}
	stored, info := b.Finish(compress)
	return slices.Clone(stored), info
}

func TestBlockRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	comp, decomp := newZstd(t)
	var bb BlockBuilder
	for _, n := range []int{1, 2, 15, 16, 17, 31, 32, 33, 100, 1000} {
		terms := randTerms(r, n)
		tes := randTermEntries(r, terms)
		for _, compressed := range []bool{false, true} {
			name := fmt.Sprintf("n=%d compressed=%v", n, compressed)
			var c func(dst, src []byte) []byte
			if compressed {
				c = comp
			}
			bb.Reset()
			for i := range tes {
				bb.Add(tes[i].term, &tes[i].entry)
				if bb.Count() != i+1 {
					t.Fatalf("%s: Count %d", name, bb.Count())
				}
			}
			if !bytes.Equal(bb.FirstTerm(), terms[0]) {
				t.Fatalf("%s: builder FirstTerm %q", name, bb.FirstTerm())
			}
			plainLen := bb.PlainLen()
			stored, info := bb.Finish(c)
			stored = slices.Clone(stored)
			if int(info.PlainLen) != plainLen || int(info.Entries) != n || int(info.StoredLen) != len(stored) || info.CRC != Checksum(stored) {
				t.Fatalf("%s: info %+v, plain len %d, stored %d", name, info, plainLen, len(stored))
			}
			if compressed && n >= 100 && info.Flags != BlockFlagZstd {
				t.Errorf("%s: not compressed (%d bytes)", name, info.PlainLen)
			}
			if info.Flags == BlockFlagZstd && info.StoredLen >= info.PlainLen {
				t.Errorf("%s: compressed but not smaller", name)
			}
			blk, err := DecodeBlock(stored, info, decomp, nil)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			checkBlock(t, name, &blk, tes)
		}
		// Reset and reuse gives the same bytes as a fresh builder.
		a, ai := buildBlock(&bb, tes, nil)
		var fresh BlockBuilder
		b2, bi := buildBlock(&fresh, tes, nil)
		if !bytes.Equal(a, b2) || ai != bi {
			t.Fatalf("n=%d: reused builder differs from a fresh one", n)
		}
	}
}

func checkBlock(t *testing.T, name string, blk *Block, tes []termEntry) {
	t.Helper()
	if blk.Len() != len(tes) {
		t.Fatalf("%s: Len %d", name, blk.Len())
	}
	if err := blk.Check(); err != nil {
		t.Fatalf("%s: Check: %v", name, err)
	}
	if ft, err := blk.FirstTerm(); err != nil || !bytes.Equal(ft, tes[0].term) {
		t.Fatalf("%s: FirstTerm %q, %v", name, ft, err)
	}
	it := blk.Iter()
	for i := 0; ; i++ {
		var e Entry
		term, ok, err := it.Next(&e)
		if err != nil {
			t.Fatalf("%s: Next: %v", name, err)
		}
		if !ok {
			if i != len(tes) {
				t.Fatalf("%s: iterator stopped at %d", name, i)
			}
			break
		}
		if !bytes.Equal(term, tes[i].term) || !entryEqual(&e, &tes[i].entry) {
			t.Fatalf("%s: entry %d = %q %+v, want %q %+v", name, i, term, e, tes[i].term, tes[i].entry)
		}
	}
	present := map[string]int{}
	for i, te := range tes {
		present[string(te.term)] = i
		var e Entry
		found, err := blk.Seek(te.term, &e)
		if err != nil || !found || !entryEqual(&e, &te.entry) {
			t.Fatalf("%s: Seek(%q) = %v, %v, %+v", name, te.term, found, err, e)
		}
	}
	var probes [][]byte
	for _, te := range tes {
		tm := te.term
		probes = append(probes, tm, append(slices.Clone(tm), 0), append(slices.Clone(tm), 0xff))
		if len(tm) > 0 {
			probes = append(probes, tm[:len(tm)-1])
			up := slices.Clone(tm)
			up[len(up)-1]++
			probes = append(probes, up)
			dn := slices.Clone(tm)
			dn[len(dn)-1]--
			probes = append(probes, dn)
		}
	}
	probes = append(probes, nil, []byte{}, []byte{0}, bytes.Repeat([]byte{0xff}, 300))
	for _, p := range probes {
		want, isPresent := present[string(p)]
		var e Entry
		found, err := blk.Seek(p, &e)
		if err != nil || found != isPresent || (found && !entryEqual(&e, &tes[want].entry)) {
			t.Fatalf("%s: Seek(%q) = %v, %v; want %v", name, p, found, err, isPresent)
		}
		// SeekGE positions at the first term >= p and walks to the end.
		ge := sort.Search(len(tes), func(i int) bool { return bytes.Compare(tes[i].term, p) >= 0 })
		it, err := blk.SeekGE(p)
		if err != nil {
			t.Fatalf("%s: SeekGE(%q): %v", name, p, err)
		}
		for i := ge; ; i++ {
			term, ok, err := it.Next(&e)
			if err != nil {
				t.Fatalf("%s: SeekGE(%q) Next: %v", name, p, err)
			}
			if !ok {
				if i != len(tes) {
					t.Fatalf("%s: SeekGE(%q) ended at %d", name, p, i)
				}
				break
			}
			if i >= len(tes) || !bytes.Equal(term, tes[i].term) || !entryEqual(&e, &tes[i].entry) {
				t.Fatalf("%s: SeekGE(%q) entry %d = %q", name, p, i, term)
			}
			if i > ge+40 { // enough
				break
			}
		}
	}
}

func TestBlockEmptyTerm(t *testing.T) {
	r := rand.New(rand.NewPCG(33, 34))
	terms := [][]byte{{}, []byte("a"), []byte("b")}
	tes := randTermEntries(r, terms)
	var bb BlockBuilder
	stored, info := buildBlock(&bb, tes, nil)
	blk, err := DecodeBlock(stored, info, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkBlock(t, "empty term", &blk, tes)
}

func TestBlockAnchors(t *testing.T) {
	// 17 entries: two anchors, the second with shared=0 although it shares a prefix.
	var terms [][]byte
	for i := 0; i < 17; i++ {
		terms = append(terms, []byte(fmt.Sprintf("prefix%02d", i)))
	}
	r := rand.New(rand.NewPCG(35, 36))
	tes := randTermEntries(r, terms)
	var bb BlockBuilder
	stored, info := buildBlock(&bb, tes, nil)
	rd := reader{b: stored}
	if n, na := rd.uvarint(), rd.uvarint(); n != 17 || na != 2 {
		t.Fatalf("header %d entries %d anchors", n, na)
	}
	a0, a1 := rd.u32(), rd.u32()
	ents := stored[rd.off:]
	if a0 != 0 {
		t.Fatalf("anchor 0 at %d", a0)
	}
	// Entry 16 starts with shared=0 and the full key.
	if ents[a1] != 0 || ents[a1+1] != 8 || string(ents[a1+2:a1+10]) != "prefix16" {
		t.Fatalf("anchor 1 bytes % x", ents[a1:a1+10])
	}
	// Entry 1 shares "prefix0".
	var e Entry
	n, _ := DecodeEntry(ents[2+8:], &e)
	if ents[2+8+n] != 7 || ents[2+8+n+1] != 1 {
		t.Fatalf("entry 1 shared/suffix % x", ents[2+8+n:2+8+n+2])
	}
	if _, err := DecodeBlock(stored, info, nil, nil); err != nil {
		t.Fatal(err)
	}
}

func TestBlockTargetGrowth(t *testing.T) {
	// PlainLen tracks the bytes Finish produces as entries are added.
	r := rand.New(rand.NewPCG(37, 38))
	var bb BlockBuilder
	terms := randTerms(r, 3000)
	for i, tm := range terms {
		e := randEntry(r, ClassInline)
		bb.Add(tm, &e)
		if i%97 == 0 {
			want := bb.PlainLen()
			stored, info := bb.Finish(nil)
			if len(stored) != want || int(info.PlainLen) != want {
				t.Fatalf("after %d entries: PlainLen %d, Finish %d", i+1, want, len(stored))
			}
		}
	}
}

func TestDecodeBlockInfoMismatch(t *testing.T) {
	r := rand.New(rand.NewPCG(39, 40))
	comp, decomp := newZstd(t)
	tes := randTermEntries(r, randTerms(r, 200))
	var bb BlockBuilder
	plain, pinfo := buildBlock(&bb, tes, nil)
	zst, zinfo := buildBlock(&bb, tes, comp)
	if zinfo.Flags != BlockFlagZstd {
		t.Fatal("not compressed")
	}
	type tc struct {
		name   string
		stored []byte
		info   BlockInfo
		dec    func(dst, src []byte) ([]byte, error)
		kind   error
	}
	mod := func(i BlockInfo, f func(*BlockInfo)) BlockInfo { f(&i); return i }
	cases := []tc{
		{"stored len", plain, mod(pinfo, func(i *BlockInfo) { i.StoredLen-- }), nil, errs.Corrupt},
		{"crc", plain, mod(pinfo, func(i *BlockInfo) { i.CRC++ }), nil, errs.Corrupt},
		{"plain len", plain, mod(pinfo, func(i *BlockInfo) { i.PlainLen++ }), nil, errs.Corrupt},
		{"plain len zero", plain, mod(pinfo, func(i *BlockInfo) { i.PlainLen = 0 }), nil, errs.Corrupt},
		{"plain len huge", zst, mod(zinfo, func(i *BlockInfo) { i.PlainLen = MaxBlockPlainLen + 1 }), decomp, errs.Corrupt},
		{"entries", plain, mod(pinfo, func(i *BlockInfo) { i.Entries++ }), nil, errs.Corrupt},
		{"flags", plain, mod(pinfo, func(i *BlockInfo) { i.Flags = 2 }), nil, errs.Corrupt},
		{"zstd plain len", zst, mod(zinfo, func(i *BlockInfo) { i.PlainLen-- }), decomp, errs.Corrupt},
		{"zstd flag on plain", plain, mod(pinfo, func(i *BlockInfo) { i.Flags = BlockFlagZstd }), decomp, errs.Corrupt},
		{"no decompressor", zst, zinfo, nil, errs.InvalidArgument},
		{"decompress error", zst, zinfo, func(dst, src []byte) ([]byte, error) { return nil, errors.New("boom") }, errs.Corrupt},
		{"decompress long", zst, zinfo, func(dst, src []byte) ([]byte, error) { return make([]byte, zinfo.PlainLen+1), nil }, errs.Corrupt},
	}
	for _, c := range cases {
		if _, err := DecodeBlock(c.stored, c.info, c.dec, nil); !errors.Is(err, c.kind) {
			t.Errorf("%s: err = %v, want %v", c.name, err, c.kind)
		}
	}
	// The scratch buffer is used when large enough.
	scratch := make([]byte, 0, zinfo.PlainLen)
	blk, err := DecodeBlock(zst, zinfo, decomp, scratch)
	if err != nil {
		t.Fatal(err)
	}
	full := scratch[:cap(scratch)]
	if got := blk.plain[:cap(blk.plain)]; &got[len(got)-1] != &full[len(full)-1] {
		t.Error("DecodeBlock did not decompress into scratch")
	}
}

// Every single-byte change and truncation of a stored block fails the CRC.
func TestBlockCorruption(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 42))
	comp, decomp := newZstd(t)
	tes := randTermEntries(r, randTerms(r, 40))
	var bb BlockBuilder
	for _, c := range []func(dst, src []byte) []byte{nil, comp} {
		stored, info := buildBlock(&bb, tes, c)
		for i := range stored {
			b := slices.Clone(stored)
			b[i] ^= 0x10
			if _, err := DecodeBlock(b, info, decomp, nil); !errors.Is(err, errs.Corrupt) {
				t.Fatalf("byte %d: err = %v", i, err)
			}
		}
		for l := 0; l < len(stored); l++ {
			in := info
			in.StoredLen = uint32(l)
			in.CRC = Checksum(stored[:l])
			if _, err := DecodeBlock(stored[:l], in, decomp, nil); !errors.Is(err, errs.Corrupt) {
				t.Fatalf("truncated to %d (consistent info): err = %v", l, err)
			}
			if _, err := DecodeBlock(stored[:l], info, decomp, nil); !errors.Is(err, errs.Corrupt) {
				t.Fatalf("truncated to %d: err = %v", l, err)
			}
		}
	}
}

// Structural corruption behind a valid CRC: every single-byte change of the
// plain block must give snii.ErrCorrupt (from DecodeBlock, Check, Seek or SeekGE)
// or a block that still verifies; never a panic.
func TestBlockStructuralCorruption(t *testing.T) {
	r := rand.New(rand.NewPCG(43, 44))
	var terms [][]byte
	for _, tm := range randTerms(r, 200) {
		if len(tm) <= 12 && len(terms) < 40 {
			terms = append(terms, tm)
		}
	}
	tes := randTermEntries(r, terms)
	probes := []termEntry{tes[0], tes[17], tes[len(tes)-1], {term: []byte("m")}}
	var bb BlockBuilder
	stored, _ := buildBlock(&bb, tes, nil)
	for i := range stored {
		for _, x := range []byte{0x01, 0x80, 0xff} {
			b := slices.Clone(stored)
			b[i] ^= x
			exerciseBlock(t, b, probes)
		}
	}
}

// exerciseBlock decodes plain with a matching info and runs every read path.
func exerciseBlock(t *testing.T, plain []byte, tes []termEntry) {
	t.Helper()
	r := reader{b: plain}
	n := r.uvarint()
	info := BlockInfo{StoredLen: uint32(len(plain)), PlainLen: uint32(len(plain)), Entries: uint32(n), CRC: Checksum(plain)}
	blk, err := DecodeBlock(plain, info, nil, nil)
	if err != nil {
		if !errors.Is(err, errs.Corrupt) {
			t.Fatalf("DecodeBlock: %v", err)
		}
		return
	}
	checkErr := func(what string, err error) {
		if err != nil && !errors.Is(err, errs.Corrupt) {
			t.Fatalf("%s: %v", what, err)
		}
	}
	checkErr("Check", blk.Check())
	_, err = blk.FirstTerm()
	checkErr("FirstTerm", err)
	var e Entry
	for _, te := range tes {
		_, err := blk.Seek(te.term, &e)
		checkErr("Seek", err)
		it, err := blk.SeekGE(te.term)
		checkErr("SeekGE", err)
		for k := 0; k < 20; k++ {
			_, ok, err := it.Next(&e)
			checkErr("Next", err)
			if !ok {
				break
			}
		}
	}
	// Iterating a block that passed Check yields strictly ascending terms.
	if blk.Check() == nil {
		it := blk.Iter()
		var prev []byte
		for i := 0; ; i++ {
			term, ok, err := it.Next(&e)
			if err != nil {
				t.Fatalf("Next after Check: %v", err)
			}
			if !ok {
				if i != blk.Len() {
					t.Fatalf("Iter gave %d of %d entries", i, blk.Len())
				}
				break
			}
			if i > 0 && bytes.Compare(prev, term) >= 0 {
				t.Fatalf("entry %d %q not after %q", i, term, prev)
			}
			prev = append(prev[:0], term...)
			// A term found by iteration is found by Seek with the same entry.
			var e2 Entry
			found, err := blk.Seek(term, &e2)
			if err != nil || !found || !entryEqual(&e, &e2) {
				t.Fatalf("Seek(%q) after Check: %v %v", term, found, err)
			}
		}
	}
}

func FuzzDecodeBlock(f *testing.F) {
	r := rand.New(rand.NewPCG(45, 46))
	var bb BlockBuilder
	// Small seeds: the fuzzer minimizes every interesting input, which is
	// slow for inputs of kilobytes.
	for _, n := range []int{1, 3, 17, 33} {
		var terms [][]byte
		for i := 0; i < n; i++ {
			terms = append(terms, []byte(fmt.Sprintf("t%02d", i)))
		}
		tes := randTermEntries(r, terms)
		for i := range tes {
			e := &tes[i].entry
			if e.Class == ClassInline {
				e.Docs, e.Frame = e.Docs[:1], e.Frame[:1]
			}
		}
		stored, _ := buildBlock(&bb, tes, nil)
		f.Add(stored, []byte("t05"))
	}
	f.Fuzz(func(t *testing.T, plain []byte, probe []byte) {
		exerciseBlock(t, plain, []termEntry{{term: probe}, {term: nil}})
	})
}

func BenchmarkBlockSeek(b *testing.B) {
	r := rand.New(rand.NewPCG(47, 48))
	var bb BlockBuilder
	var tes []termEntry
	for _, tm := range randTerms(r, 100000) {
		e := randEntry(r, Class(r.IntN(3)))
		bb.Add(tm, &e)
		tes = append(tes, termEntry{tm, e})
		if bb.PlainLen() >= BlockTarget {
			break
		}
	}
	stored, info := bb.Finish(nil)
	blk, err := DecodeBlock(stored, info, nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("%d entries, %d bytes", blk.Len(), len(stored))
	b.ReportAllocs()
	var e Entry
	i := 0
	for b.Loop() {
		if found, err := blk.Seek(tes[i%len(tes)].term, &e); !found || err != nil {
			b.Fatal("not found")
		}
		i += 7919
	}
}

func TestBlockSeekNoAllocs(t *testing.T) {
	r := rand.New(rand.NewPCG(49, 50))
	tes := randTermEntries(r, randTerms(r, 300))
	var bb BlockBuilder
	stored, info := buildBlock(&bb, tes, nil)
	blk, err := DecodeBlock(stored, info, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var e Entry
	i := 0
	allocs := testing.AllocsPerRun(200, func() {
		if found, err := blk.Seek(tes[i%len(tes)].term, &e); !found || err != nil {
			t.Fatal("not found")
		}
		i += 7
	})
	if allocs != 0 {
		t.Errorf("%.1f allocs per Seek, want 0", allocs)
	}
	if allocs := testing.AllocsPerRun(20, func() { _, _ = DecodeBlock(stored, info, nil, nil) }); allocs != 0 {
		t.Errorf("%.1f allocs per DecodeBlock of a plain block, want 0", allocs)
	}
}
