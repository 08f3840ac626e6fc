package grep

import (
	"context"
	"regexp"
	"runtime"

	"github.com/snii-go/snii/internal/inorder"
	"github.com/snii-go/snii/reader"
)

// batchResult is what one batch of records gave: the ids and bytes of the
// selected records (copied out of the store's blocks) and the records read.
type batchResult struct {
	ids   []uint32
	ends  []int // recs[ends[i-1]:ends[i]] is record ids[i]
	recs  []byte
	cands int
}

// scan reads the records of the batches next yields, on up to workers
// goroutines (each decodes its batch's store blocks and matches re there
// with its own matcher from matcherFactory), and calls fn for the selected
// records (re matches, or not when invert) in batch order: ascending ids
// when the batches ascend. next returns nil when there are no more. An error
// from fn or from reading stops the scan; every goroutine has ended when
// scan returns.
func scan(ctx context.Context, seg *reader.Segment, re *regexp.Regexp, invert bool, workers int, next func() []uint32, prof *Profile, fn func(id uint32, rec []byte) error) error {
	matcher := matcherFactory(re)
	matchers := make(chan func([]byte) bool, workers) // one per goroutine at a time
	for range workers {
		matchers <- matcher()
	}
	// results passed on, for reuse by later batches (inorder.Run holds at
	// most workers+1 batches): their buffers grow to the batches' sizes
	// once instead of in fresh memory every batch
	free := make(chan batchResult, workers+1)
	return inorder.Run(ctx, workers,
		func() ([]uint32, bool) {
			ids := next()
			return ids, ids != nil
		},
		func(ctx context.Context, ids []uint32) (batchResult, error) {
			match := <-matchers
			defer func() { matchers <- match }()
			var r batchResult
			select {
			case r = <-free:
				r = batchResult{ids: r.ids[:0], ends: r.ends[:0], recs: r.recs[:0]}
			default:
			}
			err := seg.Records(ctx, ids, func(id uint32, rec []byte) error {
				r.cands++
				if match(rec) != invert {
					r.ids = append(r.ids, id)
					r.recs = append(r.recs, rec...)
					r.ends = append(r.ends, len(r.recs))
				}
				return nil
			})
			return r, err
		},
		func(r batchResult) error {
			prof.Candidates += r.cands
			prof.Batches++
			start := 0
			for i, id := range r.ids {
				prof.Matched++
				if err := fn(id, r.recs[start:r.ends[i]]); err != nil {
					return err
				}
				start = r.ends[i]
			}
			select {
			case free <- r:
			default:
			}
			return nil
		})
}

// scanWorkers is the goroutines a scan uses: one per CPU the runtime may use.
func scanWorkers() int { return max(1, runtime.GOMAXPROCS(0)) }
