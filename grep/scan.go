package grep

import (
	"context"
	"regexp"
	"runtime"
	"sync"

	"github.com/snii-go/snii/reader"
)

// batchResult is what one batch of records gave: the ids and bytes of the
// selected records (copied out of the store's blocks) and the records read.
type batchResult struct {
	ids   []uint32
	ends  []int // recs[ends[i-1]:ends[i]] is record ids[i]
	recs  []byte
	cands int
	err   error
}

// scan reads the records of the batches next yields, on up to workers
// goroutines (each decodes its batch's store blocks and matches re there
// with its own matcher from matcherFactory), and calls fn for the selected records (re matches, or not when invert) in
// batch order: ascending ids when the batches ascend. next returns nil when
// there are no more. An error from fn or from reading stops the scan; every
// goroutine has ended when scan returns.
func scan(ctx context.Context, seg *reader.Segment, re *regexp.Regexp, invert bool, workers int, next func() []uint32, prof *Profile, fn func(id uint32, rec []byte) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type job struct {
		ids []uint32
		out chan batchResult
	}
	jobs := make(chan job)
	order := make(chan chan batchResult, 2*workers)
	var wg sync.WaitGroup
	defer wg.Wait() // after cancel (deferred later, run first)
	defer cancel()
	wg.Add(1)
	go func() { // the feeder: batches in order
		defer wg.Done()
		defer close(jobs)
		defer close(order)
		for ids := next(); ids != nil; ids = next() {
			j := job{ids: ids, out: make(chan batchResult, 1)}
			select {
			case order <- j.out:
			case <-ctx.Done():
				return
			}
			select {
			case jobs <- j:
			case <-ctx.Done():
				return
			}
		}
	}()
	matcher := matcherFactory(re)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			match := matcher()
			for j := range jobs {
				var r batchResult
				r.err = seg.Records(ctx, j.ids, func(id uint32, rec []byte) error {
					r.cands++
					if match(rec) != invert {
						r.ids = append(r.ids, id)
						r.recs = append(r.recs, rec...)
						r.ends = append(r.ends, len(r.recs))
					}
					return nil
				})
				j.out <- r
			}
		}()
	}
	for out := range order {
		var r batchResult
		select {
		case r = <-out:
		case <-ctx.Done():
			return ctx.Err()
		}
		if r.err != nil {
			return r.err
		}
		prof.Candidates += r.cands
		start := 0
		for i, id := range r.ids {
			prof.Matched++
			if err := fn(id, r.recs[start:r.ends[i]]); err != nil {
				return err
			}
			start = r.ends[i]
		}
	}
	return ctx.Err()
}

// scanWorkers is the goroutines a scan uses: one per CPU the runtime may use.
func scanWorkers() int { return max(1, runtime.GOMAXPROCS(0)) }
