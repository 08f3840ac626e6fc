package writer

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/maphash"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/snii-go/snii/internal/errs"
	"github.com/snii-go/snii/internal/tmpfile"
)

// TestPoolStreams interleaves writes to many streams (crossing slice levels
// and blocks) and reads each back.
func TestPoolStreams(t *testing.T) {
	var cache blockCache
	p := bytePool{cache: &cache}
	r := rand.New(rand.NewPCG(1, 2))
	const n = 200
	streams := make([]stream, n)
	want := make([][]byte, n)
	for i := range streams {
		if !p.newStream(&streams[i]) {
			t.Fatal("newStream")
		}
	}
	for k := 0; k < 20000; k++ {
		i := r.IntN(n)
		if i%10 == 0 { // a few big streams reach the top slice level
			i = 0
		}
		b := make([]byte, 1+r.IntN(40))
		for j := range b {
			b[j] = byte(r.Uint32())
		}
		if !p.write(&streams[i], b) {
			t.Fatal("write")
		}
		want[i] = append(want[i], b...)
	}
	for i := range streams {
		rd := p.reader(&streams[i])
		var got []byte
		for c := rd.chunk(); c != nil; c = rd.chunk() {
			got = append(got, c...)
		}
		if !bytes.Equal(got, want[i]) {
			t.Fatalf("stream %d: read %d bytes, wrote %d", i, len(got), len(want[i]))
		}
	}
	if len(p.blocks) < 2 || streams[0].level != maxLevel {
		t.Errorf("test did not cross blocks (%d) or reach the top level (%d)", len(p.blocks), streams[0].level)
	}
	used := len(p.blocks)
	p.reset()
	if int64(len(cache.free))*blockSize != cache.allocated || len(cache.free) < used {
		t.Errorf("reset: %d free blocks of %d mapped bytes, %d were used", len(cache.free), cache.allocated, used)
	}
	if err := cache.close(); err != nil || cache.allocated != 0 {
		t.Errorf("close: %v, %d bytes still mapped", err, cache.allocated)
	}
}

// fillBuffer adds docs to a term buffer: doc i has the terms of terms(i).
func fillBuffer(t *testing.T, b *termBuffer, first, n int, terms func(doc int) []string) {
	t.Helper()
	for d := first; d < first+n; d++ {
		for pos, term := range terms(d) {
			if _, ok := b.add([]byte(term), termHash(&b.seed, []byte(term)), uint32(pos*3)); !ok {
				t.Fatal("add")
			}
		}
		if _, ok := b.finishDoc(uint32(d)); !ok {
			t.Fatal("finishDoc")
		}
	}
}

func drain(t *testing.T, s PostingSource) string {
	t.Helper()
	var sb bytes.Buffer
	for {
		term, df, ok, err := s.NextTerm()
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			return sb.String()
		}
		fmt.Fprintf(&sb, "%s/%d:", term, df)
		for {
			doc, pos, ok, err := s.NextDoc()
			if err != nil {
				t.Fatal(err)
			}
			if !ok {
				break
			}
			fmt.Fprintf(&sb, " %d%v", doc, pos)
		}
		sb.WriteByte('\n')
	}
}

func docTerms(d int) []string {
	ts := []string{"all", fmt.Sprintf("t%d", d%7), fmt.Sprintf("u%d", d)}
	if d%3 == 0 {
		ts = append(ts, "all", fmt.Sprintf("t%d", d%7))
	}
	return ts
}

// TestRunsAndMerge: the merge of spilled runs and the in-memory remainder
// yields exactly what one unspilled buffer yields.
func TestRunsAndMerge(t *testing.T) {
	var cache blockCache
	seed := maphash.MakeSeed()
	ref := newTermBuffer(&cache, seed)
	fillBuffer(t, ref, 0, 300, docTerms)
	want := drain(t, newMemSource(ref, ref.sortedIDs(nil)))

	f, err := testTemp(t)
	if err != nil {
		t.Fatal(err)
	}
	defer f.remove()
	b := newTermBuffer(&cache, seed)
	var srcs []PostingSource
	for start := 0; start < 300; start += 70 {
		fillBuffer(t, b, start, min(70, 300-start), docTerms)
		if start+70 >= 300 {
			srcs = append(srcs, newMemSource(b, b.sortedIDs(nil)))
			break
		}
		off := f.size
		if _, err := writeRunSection(newBlockWriter(f, nil), b, nil); err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, newRunSource(f, section{off, f.size - off}, fmt.Sprintf("run %d", len(srcs))))
		b.reset()
	}
	if got := drain(t, newMergeSource(srcs)); got != want {
		t.Errorf("merged runs differ:\n%s\nwant\n%s", got, want)
	}
}

// TestRunCorruption flips every byte of a small run in turn: each flip is
// reported as corruption (never a panic, never silently accepted).
func TestRunCorruption(t *testing.T) {
	var cache blockCache
	b := newTermBuffer(&cache, maphash.MakeSeed())
	fillBuffer(t, b, 0, 20, docTerms)
	f, err := testTemp(t)
	if err != nil {
		t.Fatal(err)
	}
	defer f.remove()
	if _, err := writeRunSection(newBlockWriter(f, nil), b, nil); err != nil {
		t.Fatal(err)
	}
	orig := make([]byte, f.size)
	if _, err := f.ReadAt(orig, 0); err != nil {
		t.Fatal(err)
	}
	read := func(data []byte) error {
		s := newRunSource(bytes.NewReader(data), section{0, int64(len(data))}, "run")
		for {
			_, _, ok, err := s.NextTerm()
			if err != nil || !ok {
				return err
			}
			for {
				_, _, ok, err := s.NextDoc()
				if err != nil {
					return err
				}
				if !ok {
					break
				}
			}
		}
	}
	if err := read(orig); err != nil {
		t.Fatal(err)
	}
	for i := range orig {
		data := bytes.Clone(orig)
		data[i] ^= 0x10
		if err := read(data); !errors.Is(err, errs.Corrupt) {
			t.Fatalf("flip at %d: %v", i, err)
		}
	}
	for n := 0; n < len(orig); n += 7 {
		if err := read(orig[:n]); !errors.Is(err, errs.Corrupt) {
			t.Fatalf("truncated to %d: %v", n, err)
		}
	}
}

// TestMergeOrderCheck: sources whose doc ranges overlap are rejected.
func TestMergeOrderCheck(t *testing.T) {
	var cache blockCache
	seed := maphash.MakeSeed()
	a, b := newTermBuffer(&cache, seed), newTermBuffer(&cache, seed)
	fillBuffer(t, a, 5, 3, docTerms)
	fillBuffer(t, b, 0, 3, docTerms)
	m := newMergeSource([]PostingSource{newMemSource(a, a.sortedIDs(nil)), newMemSource(b, b.sortedIDs(nil))})
	for {
		_, _, ok, err := m.NextTerm()
		if err != nil {
			if !errors.Is(err, errs.Corrupt) {
				t.Fatalf("error %v, want corruption", err)
			}
			return
		}
		if !ok {
			t.Fatal("overlapping sources merged without an error")
		}
		for {
			_, _, ok, err := m.NextDoc()
			if err != nil {
				if !errors.Is(err, errs.Corrupt) {
					t.Fatalf("error %v, want corruption", err)
				}
				return
			}
			if !ok {
				break
			}
		}
	}
}

// TestTermBufferMemory: the accounting grows with the data and a reset
// returns the pool to the cache.
func TestTermBufferMemory(t *testing.T) {
	var cache blockCache
	b := newTermBuffer(&cache, maphash.MakeSeed())
	m0 := b.memory()
	fillBuffer(t, b, 0, 5000, docTerms)
	m1 := b.memory()
	if m1 <= m0 || b.pool.size() < 5000*16 {
		t.Errorf("memory %d → %d, pool %d", m0, m1, b.pool.size())
	}
	b.reset()
	if b.pool.size() != 0 || !b.empty() || len(cache.free) == 0 || len(b.slots) != 0 || len(b.pages) != 0 || b.memory() > m1/10 {
		t.Errorf("after reset: pool %d, empty %v, free blocks %d", b.pool.size(), b.empty(), len(cache.free))
	}
}

// testTemp creates a run file in a fresh temp dir.
func testTemp(t *testing.T) (*tempFile, error) {
	t.Helper()
	o, err := tmpfile.Claim(t.TempDir())
	if err != nil {
		return nil, err
	}
	t.Cleanup(func() { o.Release() })
	return createTemp(o, runPrefix, scratchPerm, nil)
}

// TestTermBufferLookup: terms around the state's inline length (shorter,
// equal, longer; sharing prefixes; with zero bytes, which the inline padding
// also holds) get one id each, the same on every lookup, and read back as
// themselves, in byte order from sortedIDs.
func TestTermBufferLookup(t *testing.T) {
	var cache blockCache
	defer cache.close()
	b := newTermBuffer(&cache, maphash.MakeSeed())
	r := rand.New(rand.NewPCG(5, 6))
	ids := make(map[string]uint32)
	var terms []string
	for len(terms) < 100_000 {
		n := r.IntN(2 * inlineTerm)
		if r.IntN(4) == 0 {
			n = inlineTerm - 1 + r.IntN(3)
		}
		buf := make([]byte, n)
		for i := range buf {
			buf[i] = "ab\x00"[r.IntN(3)]
			if i > 5 && r.IntN(2) == 0 {
				buf[i] = byte(r.Uint32())
			}
		}
		term := string(buf)
		id, ok := b.lookup(buf)
		if !ok {
			t.Fatal("lookup")
		}
		if want, seen := ids[term]; seen {
			if id != want {
				t.Fatalf("%q: id %d, first %d", term, id, want)
			}
			continue
		}
		if int(id) != len(terms) {
			t.Fatalf("new term %q: id %d, want %d", term, id, len(terms))
		}
		ids[term] = id
		terms = append(terms, term)
		if got := string(b.termBytes(id)); got != term {
			t.Fatalf("term %d: %q, want %q", id, got, term)
		}
	}
	for id, term := range terms {
		if got, ok := b.lookup([]byte(term)); !ok || got != uint32(id) || string(b.termBytes(got)) != term {
			t.Fatalf("%q: id %d %v, want %d", term, got, ok, id)
		}
	}
	for id := range terms { // sortedIDs lists the terms with postings
		b.state(uint32(id)).df = 1
	}
	sorted := b.sortedIDs(nil)
	want := slices.Clone(terms)
	slices.Sort(want)
	if len(sorted) != len(want) {
		t.Fatalf("%d sorted ids, %d terms", len(sorted), len(want))
	}
	for i, id := range sorted {
		if terms[id] != want[i] {
			t.Fatalf("sorted %d: %q, want %q", i, terms[id], want[i])
		}
	}
}

// TestTermBufferLookupCollision: a term whose 32-bit hash meets another
// term's slot is told apart by its bytes: length, the inline prefix (zero
// padding included) and the bytes past it.
func TestTermBufferLookupCollision(t *testing.T) {
	pairs := [][2]string{
		{"a", "a\x00"}, {"", "\x00"}, {"abcdefgh", "abcdefgh\x00"}, {"abcdefgh", "abcdefghi"},
		{"abcdefghX", "abcdefghY"}, {"abcdefghXYZ", "abcdefghXYW"}, {"abcdefgX", "abcdefgY"},
	}
	for _, p := range pairs {
		var cache blockCache
		b := newTermBuffer(&cache, maphash.MakeSeed())
		idA, ok := b.lookup([]byte(p[0]))
		if !ok {
			t.Fatal("lookup")
		}
		// A slot with p[1]'s hash pointing at p[0], where p[1]'s probe starts.
		h32 := termHash(&b.seed, []byte(p[1]))
		mask := uint32(len(b.slots) - 1)
		i := h32 & mask
		for b.slots[i] != 0 {
			i = (i + 1) & mask
		}
		b.slots[i] = uint64(h32)<<32 | uint64(idA+1)
		idB, ok := b.lookup([]byte(p[1]))
		if !ok || idB == idA || string(b.termBytes(idB)) != p[1] {
			t.Errorf("%q after %q: id %d (%q), %q has %d", p[1], p[0], idB, b.termBytes(idB), p[0], idA)
		}
		cache.close()
	}
}

// TestTermKey: a term's key is its first bytes zero-padded, whatever the
// bytes past it in its slice's capacity.
func TestTermKey(t *testing.T) {
	buf := []byte("abcdefghij")
	for n := 0; n <= len(buf); n++ {
		var want [inlineTerm]byte
		copy(want[:], buf[:n])
		for _, term := range [][]byte{buf[:n], buf[:n:n], bytes.Clone(buf[:n])} {
			if got := termKey(term); got != binary.LittleEndian.Uint64(want[:]) {
				t.Errorf("%q (cap %d): key %#x, want %#x", term, cap(term), got, want)
			}
		}
	}
}

// TestTermHashSpreads: short terms (hashed by their key) and long ones (by
// maphash) fill the low bits of a table's slots as random values would:
// 4096 numbers and 4096 long words over 8192 slots leave about 8192·(1−e^−½)
// = 3223 slots taken each; a hash of poor low bits takes far fewer.
func TestTermHashSpreads(t *testing.T) {
	seed := newHashSeed(maphash.MakeSeed())
	for _, format := range []string{"%d", "%08d", "word-%07d"} {
		taken := map[uint32]bool{}
		for i := range 4096 {
			taken[termHash(&seed, fmt.Appendf(nil, format, i*16))&(8192-1)] = true
		}
		if len(taken) < 3000 {
			t.Errorf("%q: 4096 terms take %d of 8192 slots, want about 3223", format, len(taken))
		}
	}
}
