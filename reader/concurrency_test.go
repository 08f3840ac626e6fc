package reader_test

import (
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/snii-go/snii/internal/testkit/oracle"
	"github.com/snii-go/snii/reader"
)

// TestConcurrentQueries runs mixed queries from 8 goroutines on one segment (run
// with -race); every answer must match the oracle.
func TestConcurrentQueries(t *testing.T) {
	docs := oracle.Generate(31, oracle.GenOptions{Docs: 1500})
	c := corpusOf(docs)
	qs := genQueries(c, "text", 77, 12)
	for _, o := range []reader.Options{{}, {NoMmap: true, BlockCacheBytes: 4 << 10}} {
		s, err := reader.Open(build(t, docs, options(-1, "host", "text")), o)
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		errc := make(chan error, 8)
		for g := 0; g < 8; g++ {
			wg.Add(1)
			go func(g int) {
				defer wg.Done()
				for k := 0; k < len(qs.qs); k++ {
					i := (k*7 + g*13) % len(qs.qs)
					r := rq(qs.qs[i])
					var got []uint32
					var err error
					switch (g + k) % 3 {
					case 0:
						got, err = s.Docs(bg, r, nil)
					case 1:
						var p reader.Profile
						got, err = s.Docs(bg, r, &reader.SearchOptions{Profile: &p})
					default:
						var bm interface{ ToArray() []uint32 }
						bm, err = s.Bitmap(bg, r, nil)
						if err == nil {
							got = bm.ToArray()
						}
					}
					if err != nil {
						errc <- fmt.Errorf("goroutine %d: %s: %v", g, qs.qs[i], err)
						return
					}
					if !slices.Equal(got, qs.want[i]) {
						errc <- fmt.Errorf("goroutine %d: %s: got %s, want %s", g, qs.qs[i], oracle.Describe(got), oracle.Describe(qs.want[i]))
						return
					}
					if k%10 == 0 { // postings iterators alongside
						p, err := s.Postings(t.Context(), "text", "the")
						if err != nil {
							errc <- err
							return
						}
						for p.Next() {
							if _, err := p.Positions(); err != nil {
								errc <- err
								return
							}
						}
						p.Close()
					}
				}
			}(g)
		}
		wg.Wait()
		close(errc)
		for err := range errc {
			t.Error(err)
		}
		s.Close()
	}
}
