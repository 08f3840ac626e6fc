package inorder

import (
	"context"
	"sync"
)

// Run calls work for each batch next yields (ok false: no more), on up to
// workers goroutines, and emit with each result on the calling goroutine in
// the order next yielded the batches. At most workers+1 batches are in
// flight (taken from next and not yet emitted). The first error, from work or emit, or the end of ctx stops the
// run and is returned; every goroutine Run started has ended when it
// returns. With workers <= 1 everything runs on the calling goroutine.
func Run[B, R any](ctx context.Context, workers int, next func() (B, bool), work func(ctx context.Context, b B) (R, error), emit func(R) error) error {
	if workers <= 1 {
		for b, ok := next(); ok; b, ok = next() {
			if err := ctx.Err(); err != nil {
				return err
			}
			r, err := work(ctx, b)
			if err != nil {
				return err
			}
			if err := emit(r); err != nil {
				return err
			}
		}
		return ctx.Err()
	}
	type result struct {
		r   R
		err error
	}
	type job struct {
		b   B
		out chan result
	}
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer wg.Wait() // after cancel (deferred later, run first)
	defer cancel()
	jobs := make(chan job)
	order := make(chan chan result, workers)
	wg.Add(1)
	go func() { // the feeder: batches in order
		defer wg.Done()
		defer close(jobs)
		defer close(order)
		for b, ok := next(); ok; b, ok = next() {
			j := job{b: b, out: make(chan result, 1)}
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
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				r, err := work(ctx, j.b)
				j.out <- result{r, err}
			}
		}()
	}
	for out := range order {
		var res result
		select {
		case res = <-out:
		case <-ctx.Done():
			return ctx.Err()
		}
		if res.err != nil {
			return res.err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := emit(res.r); err != nil {
			return err
		}
	}
	return ctx.Err()
}
