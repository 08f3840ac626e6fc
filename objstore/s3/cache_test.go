package s3

import (
	"bytes"
	"math/rand/v2"
	"testing"

	lru "github.com/hashicorp/golang-lru/v2"
)

// TestCacheSpans: reads return exactly the bytes added, across adjacent
// spans; missing lists what is not held; overlapping adds keep spans
// disjoint; the bytes held never exceed the bound; drop forgets an object.
func TestCacheSpans(t *testing.T) {
	const size = 1 << 16
	data := make([]byte, size)
	for i := range data {
		data[i] = byte(i * 7)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for _, bound := range []int64{1 << 10, 8 << 10, 1 << 20} {
		c := NewCache(bound)
		for range 2000 {
			off := r.Int64N(size)
			n := r.Int64N(min(size-off, 4096)) + 1
			if off+n > size {
				n = size - off
			}
			obj := uint64(r.IntN(3))
			if r.IntN(2) == 0 {
				c.add(obj, off, bytes.Clone(data[off:off+n]))
			}
			p := make([]byte, n)
			got := c.read(obj, p, off)
			if !bytes.Equal(p[:got], data[off:off+int64(got)]) {
				t.Fatalf("bound %d: read [%d, +%d) of %d: wrong bytes", bound, off, n, obj)
			}
			var held int64
			for _, m := range c.missing(nil, obj, off, n) {
				if m.off < off || m.end() > off+n || m.n <= 0 {
					t.Fatalf("missing %+v outside [%d, +%d)", m, off, n)
				}
				held -= m.n
			}
			held += n
			if int64(got) > held {
				t.Fatalf("read %d bytes of [%d, +%d), but only %d are held", got, off, n, held)
			}
			if u := c.Used(); u > bound {
				t.Fatalf("bound %d: %d bytes held", bound, u)
			}
			for _, ss := range c.objs {
				for i := 1; i < len(ss.spans); i++ {
					if ss.spans[i-1].end() > ss.spans[i].off {
						t.Fatalf("spans overlap: [%d, %d) and [%d, ...)", ss.spans[i-1].off, ss.spans[i-1].end(), ss.spans[i].off)
					}
				}
			}
		}
		for obj := range uint64(3) {
			c.drop(obj)
		}
		if c.Used() != 0 || len(c.objs) != 0 || c.lru.Len() != 0 {
			t.Fatalf("after drop: %d bytes, %d objects, %d spans", c.Used(), len(c.objs), c.lru.Len())
		}
	}
}

// BenchmarkCacheHit compares the hand-written span cache with
// hashicorp/golang-lru/v2 keyed by (object, offset), on hits of 4 KiB
// reads from 16 goroutines over 1,000 objects of 16 spans. golang-lru bounds
// a count of entries, not bytes, and finds only the exact key, not a span
// covering a range: the figures compare the cost of one hit, the rest is
// what the library would not do.
func BenchmarkCacheHit(b *testing.B) {
	const objs, spans, spanLen = 1000, 16, 4096
	type key struct {
		obj uint64
		off int64
	}
	b.Run("hand-written", func(b *testing.B) {
		c := NewCache(objs * spans * spanLen)
		for o := range uint64(objs) {
			for s := range int64(spans) {
				c.add(o, s*spanLen, make([]byte, spanLen))
			}
		}
		b.SetBytes(spanLen)
		b.RunParallel(func(pb *testing.PB) {
			p := make([]byte, spanLen)
			i := 0
			for pb.Next() {
				i++
				if c.read(uint64(i%objs), p, int64(i%spans)*spanLen) != spanLen {
					panic("miss")
				}
			}
		})
	})
	b.Run("golang-lru", func(b *testing.B) {
		c, _ := lru.New[key, []byte](objs * spans)
		for o := range uint64(objs) {
			for s := range int64(spans) {
				c.Add(key{o, s * spanLen}, make([]byte, spanLen))
			}
		}
		b.SetBytes(spanLen)
		b.RunParallel(func(pb *testing.PB) {
			p := make([]byte, spanLen)
			i := 0
			for pb.Next() {
				i++
				v, ok := c.Get(key{uint64(i % objs), int64(i%spans) * spanLen})
				if !ok {
					panic("miss")
				}
				copy(p, v)
			}
		})
	})
}
