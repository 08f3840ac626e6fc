package prx

import (
	"errors"
	"math/rand/v2"
	"sync"
	"testing"
)

func TestSourcePoolConcurrent(t *testing.T) {
	rng := rand.New(rand.NewPCG(37, 38))
	type item struct {
		w *Window
		f []byte
	}
	var items []item
	for i := 0; i < 30; i++ {
		w := genWindow(rng, 1+rng.IntN(300), 0, 5, 200)
		items = append(items, item{w, frameOf(t, Codec(i%NumCodecs), w)})
	}
	pool := NewSourcePool(Limits{})
	defer pool.Close()
	var wg sync.WaitGroup
	errc := make(chan error, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			var dst Window
			var st Stats
			for i := 0; i < 200; i++ {
				it := items[(g*7+i)%len(items)]
				s := pool.Get()
				s.SetStats(&st)
				if _, err := s.Decode(it.f, true, &dst); err != nil {
					errc <- err
					return
				}
				if d := diffWindow(it.w, &dst); d != "" {
					errc <- errors.New(d)
					return
				}
				pool.Put(s)
			}
			if st.Frames[0]+st.Frames[1]+st.Frames[2] != 200 {
				errc <- errors.New("stats lost frames")
			}
		}(g)
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Fatal(err)
	}
}

func TestSourcePoolPut(t *testing.T) {
	pool := NewSourcePool(Limits{MaxDocs: 10})
	s := pool.Get()
	if s.Limits().MaxDocs != 10 {
		t.Fatalf("pooled source limits %+v", s.Limits())
	}
	var st Stats
	s.SetStats(&st)
	pool.Put(s)
	if s.stats != nil {
		t.Fatal("Put kept the stats pointer")
	}
	if pool.Get() != s {
		t.Fatal("the pool did not reuse its Source")
	}
	// A foreign Source is closed, not kept.
	foreign := NewSource(Limits{})
	pool.Put(foreign)
	if !foreign.closed || pool.Get() == foreign {
		t.Fatal("a foreign Source entered the pool")
	}
	pool.Put(nil)
	// Closed Sources report ErrClosed.
	var dst Window
	foreign.Close()
	if _, err := foreign.Decode([]byte{0, 1, 0}, false, &dst); !errors.Is(err, ErrClosed) {
		t.Fatalf("closed source: %v", err)
	}
	// After Close, Put closes.
	pool.Close()
	s2 := pool.Get()
	pool.Put(s2)
	if !s2.closed {
		t.Fatal("Put after pool Close kept the Source")
	}
}
