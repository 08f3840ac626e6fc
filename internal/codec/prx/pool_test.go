package prx

import (
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"

	"github.com/snii-go/snii/limits"
)

// Sources from one pool decode concurrently (run with -race): every goroutine gets
// the right windows, full and selective, across codecs and multi-unit windows.
func TestPoolConcurrent(t *testing.T) {
	rng := rand.New(rand.NewPCG(51, 52))
	type item struct {
		w     *Window
		frame []byte
		ords  []uint32
	}
	var items []item
	for i := 0; i < 12; i++ {
		w := genWindow(rng, 1+rng.IntN(2500), 1, 1+rng.IntN(9), uint32(rng.IntN(500)))
		items = append(items, item{w, frameOf(t, allCodecs[i%3], w), randomOrds(rng, w.Docs(), 1+rng.IntN(20))})
	}
	pool := NewSourcePool(limits.Limits{})
	var wg sync.WaitGroup
	errc := make(chan string, 64)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			var dst Window
			var st Stats
			for i := 0; i < 60; i++ {
				it := items[(g+i)%len(items)]
				s := pool.Get()
				s.SetStats(&st)
				if _, err := s.Decode(it.frame, true, &dst); err != nil || diffWindow(it.w, &dst) != "" {
					errc <- "full decode differs"
				}
				if _, err := s.DecodeSelected(it.frame, true, it.ords, &dst); err != nil || diffWindow(oracleSelect(it.w, it.ords), &dst) != "" {
					errc <- "selective decode differs"
				}
				pool.Put(s)
			}
			if st.Windows != 120 {
				errc <- "stats lost"
			}
		}(g)
	}
	wg.Wait()
	close(errc)
	for e := range errc {
		t.Fatal(e)
	}
	pool.Close()
	// Get keeps working after Close; a Source put back is closed.
	s := pool.Get()
	var dst Window
	if _, err := s.Decode(items[0].frame, true, &dst); err != nil {
		t.Fatal(err)
	}
	pool.Put(s)
	if _, err := s.Decode(items[0].frame, true, &dst); !isClosedErr(err) {
		t.Fatalf("a Source put back into a closed pool: %v", err)
	}
}

// Put clears the stats pointer, closes foreign Sources, keeps a bounded number of
// idle Sources, and drops huge buffers.
func TestPoolPut(t *testing.T) {
	pool := NewSourcePool(limits.Limits{MaxDocs: 77})
	defer pool.Close()
	s := pool.Get()
	if s.Limits().MaxDocs != 77 {
		t.Fatalf("limits %+v", s.Limits())
	}
	var st Stats
	s.SetStats(&st)
	pool.Put(s)
	if s.stats != nil {
		t.Fatal("stats kept")
	}
	if pool.Get() != s {
		t.Fatal("the idle Source was not reused")
	}
	s.buf = make([]byte, maxPooledBuffer+1)
	pool.Put(s)
	if s.buf != nil {
		t.Fatal("huge buffer kept")
	}
	foreign := NewSource(limits.Limits{})
	pool.Put(foreign)
	if !foreign.closed {
		t.Fatal("foreign Source not closed")
	}
	pool.Put(nil)
	var got []*Source
	max := max(4, 2*runtime.GOMAXPROCS(0))
	for i := 0; i < max+3; i++ {
		got = append(got, pool.Get())
	}
	for _, s := range got {
		pool.Put(s)
	}
	if len(pool.free) != max {
		t.Fatalf("%d idle Sources, want %d", len(pool.free), max)
	}
	closed := 0
	for _, s := range got {
		if s.closed {
			closed++
		}
	}
	if closed != 3 {
		t.Fatalf("%d Sources closed, want 3", closed)
	}
}

// A closed Source refuses to decode; Close is idempotent.
func TestSourceClosed(t *testing.T) {
	s := NewSource(limits.Limits{})
	f := frameOf(t, CodecZstd, tfWindow(600, 3))
	var dst Window
	if _, err := s.Decode(f, true, &dst); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s.Close()
	if _, err := s.Decode(f, true, &dst); !isClosedErr(err) {
		t.Fatal(err)
	}
	if _, err := s.DecodeSelected(f, true, []uint32{0}, &dst); !isClosedErr(err) {
		t.Fatal(err)
	}
}
