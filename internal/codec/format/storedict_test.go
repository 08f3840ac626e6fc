package format

import (
	"bytes"
	"container/heap"
	"encoding/binary"
	"math/rand/v2"
	"testing"
)

// Dictionary content selection (BenchmarkStoreDict). A zstd dictionary
// holds, as its content, the byte strings most shared between the records it is trained
// on: the records are cut into segments of dictSegment bytes, a segment is
// worth the number of other records that hold each of its 8-byte substrings
// (hashed), and segments are taken best first, each substring counting once
// over the whole content (a segment's worth is recomputed without the
// substrings already taken before it is accepted).

const (
	// dictSegment is the length of a candidate segment of dictionary content.
	dictSegment = 1 << 10
	// dictHashBits sizes the substring count table.
	dictHashBits = 18
	dictKmer     = 8
)

// dictCounts counts, per hashed 8-byte substring, the records holding it.
type dictCounts struct {
	n     []uint32 // records holding the substring
	stamp []uint32 // last record (1-based) or segment counted
}

func dictHash(b []byte) uint32 {
	return uint32((binary.LittleEndian.Uint64(b) * 0x9E3779B185EBCA87) >> (64 - dictHashBits))
}

// dictCandidate is a segment of the training records.
type dictCandidate struct {
	rec, off, n int
	worth       uint64
}

type dictHeap []dictCandidate

func (h dictHeap) Len() int { return len(h) }
func (h dictHeap) Less(i, j int) bool {
	if h[i].worth != h[j].worth {
		return h[i].worth > h[j].worth
	}
	if h[i].rec != h[j].rec {
		return h[i].rec < h[j].rec
	}
	return h[i].off < h[j].off
}
func (h dictHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *dictHeap) Push(x any)   { *h = append(*h, x.(dictCandidate)) }
func (h *dictHeap) Pop() any     { o := *h; x := o[len(o)-1]; *h = o[:len(o)-1]; return x }
func (c *dictCounts) worth(seg []byte, mark uint32) uint64 {
	var w uint64
	for p := 0; p+dictKmer <= len(seg); p++ {
		h := dictHash(seg[p:])
		if c.stamp[h] == mark {
			continue
		}
		c.stamp[h] = mark
		if c.n[h] > 1 {
			w += uint64(c.n[h] - 1)
		}
	}
	return w
}

// dictContent returns up to size bytes of dictionary content chosen from
// recs (see above); the bytes depend only on recs and size.
func dictContent(recs [][]byte, size int) []byte {
	c := dictCounts{n: make([]uint32, 1<<dictHashBits), stamp: make([]uint32, 1<<dictHashBits)}
	for i, r := range recs {
		mark := uint32(i + 1)
		for p := 0; p+dictKmer <= len(r); p++ {
			h := dictHash(r[p:])
			if c.stamp[h] != mark {
				c.stamp[h] = mark
				c.n[h]++
			}
		}
	}
	clear(c.stamp)
	mark := uint32(0)
	next := func() uint32 {
		mark++
		return mark
	}
	var h dictHeap
	for i, r := range recs {
		for off := 0; off < len(r); off += dictSegment {
			n := min(dictSegment, len(r)-off)
			if n < dictKmer {
				continue
			}
			w := c.worth(r[off:off+n], next())
			if w > 0 {
				h = append(h, dictCandidate{rec: i, off: off, n: n, worth: w})
			}
		}
	}
	heap.Init(&h)
	var picked []dictCandidate
	total := 0
	for h.Len() > 0 && total < size {
		top := heap.Pop(&h).(dictCandidate)
		seg := recs[top.rec][top.off : top.off+top.n]
		w := c.worth(seg, next())
		if w == 0 {
			continue
		}
		if h.Len() > 0 && w < h[0].worth {
			top.worth = w
			heap.Push(&h, top)
			continue
		}
		for p := 0; p+dictKmer <= len(seg); p++ {
			c.n[dictHash(seg[p:])] = 0
		}
		picked = append(picked, top)
		total += top.n
	}
	// the best segments last: nearest to the frames, at the smallest offsets
	out := make([]byte, 0, total)
	for i := len(picked) - 1; i >= 0; i-- {
		p := picked[i]
		out = append(out, recs[p.rec][p.off:p.off+p.n]...)
	}
	if len(out) > size {
		out = out[len(out)-size:]
	}
	return out
}

// TestDictContent (dictContent, the benchmark's dictionary content): the content holds the strings many records share and
// none of the bytes only one record has, stays within its size, and depends
// only on the records.
func TestDictContent(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	random := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('a' + rng.IntN(26))
		}
		return b
	}
	shared := random(600)
	var recs [][]byte
	for i := 0; i < 200; i++ {
		r := random(300 + rng.IntN(2000))
		if i%3 == 0 {
			r = append(append(append([]byte(nil), r[:100]...), shared...), r[100:]...)
		}
		recs = append(recs, r)
	}
	got := dictContent(recs, 4<<10)
	if len(got) == 0 || len(got) > 4<<10 {
		t.Fatalf("content of %d bytes (size 4096)", len(got))
	}
	for _, probe := range [][]byte{shared[:64], shared[300:364], shared[536:]} {
		if !bytes.Contains(got, probe) {
			t.Errorf("content misses a string %d records share", (len(recs)+2)/3)
		}
	}
	if n := bytes.Count(got, shared[:200]); n != 1 {
		t.Errorf("the shared string is in the content %d times", n)
	}
	if again := dictContent(recs, 4<<10); !bytes.Equal(again, got) {
		t.Error("two calls over the same records differ")
	}
	if small := dictContent(recs, 100); len(small) > 100 {
		t.Errorf("content of %d bytes for size 100", len(small))
	}
}
