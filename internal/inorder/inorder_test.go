package inorder_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/snii-go/snii/internal/inorder"
)

// counter yields the batches 0..n-1.
func counter(n int) func() (int, bool) {
	i := 0
	return func() (int, bool) {
		if i == n {
			return 0, false
		}
		i++
		return i - 1, true
	}
}

// TestOrder: whatever order the workers finish in, the results come back in
// the order of the batches, each once, and no work is running after Run.
func TestOrder(t *testing.T) {
	for _, workers := range []int{0, 1, 2, 5} {
		r := rand.New(rand.NewPCG(1, uint64(workers)))
		delays := make([]time.Duration, 200)
		for i := range delays {
			delays[i] = time.Duration(r.IntN(200)) * time.Microsecond
		}
		var running, most atomic.Int32
		var got []int
		err := inorder.Run(context.Background(), workers, counter(len(delays)),
			func(_ context.Context, b int) (int, error) {
				n := running.Add(1)
				for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
				}
				time.Sleep(delays[b])
				running.Add(-1)
				return b * 10, nil
			},
			func(r int) error { got = append(got, r); return nil })
		if err != nil {
			t.Fatal(err)
		}
		want := make([]int, len(delays))
		for i := range want {
			want[i] = i * 10
		}
		if !slices.Equal(got, want) {
			t.Fatalf("workers %d: results out of order: %v", workers, got[:20])
		}
		if running.Load() != 0 || int(most.Load()) > max(1, workers) {
			t.Errorf("workers %d: %d running after Run, at most %d at once", workers, running.Load(), most.Load())
		}
	}
}

// TestStop: an error from work or from emit, or a cancelled context, ends
// the run with that error; nothing is emitted after it and every goroutine
// has ended.
func TestStop(t *testing.T) {
	boom := errors.New("boom")
	for _, workers := range []int{1, 3} {
		var running atomic.Int32
		work := func(failAt int) func(context.Context, int) (int, error) {
			return func(_ context.Context, b int) (int, error) {
				running.Add(1)
				defer running.Add(-1)
				if b == failAt {
					return 0, boom
				}
				return b, nil
			}
		}
		var emitted []int
		emit := func(r int) error { emitted = append(emitted, r); return nil }
		err := inorder.Run(context.Background(), workers, counter(100), work(40), emit)
		if !errors.Is(err, boom) || !slices.Equal(emitted, seq(40)) {
			t.Errorf("workers %d: work failing at 40: %v after %d results", workers, err, len(emitted))
		}
		emitted = nil
		err = inorder.Run(context.Background(), workers, counter(100), work(-1), func(r int) error {
			if r == 7 {
				return boom
			}
			return emit(r)
		})
		if !errors.Is(err, boom) || !slices.Equal(emitted, seq(7)) {
			t.Errorf("workers %d: emit failing at 7: %v after %d results", workers, err, len(emitted))
		}
		ctx, cancel := context.WithCancel(context.Background())
		emitted = nil
		err = inorder.Run(ctx, workers, counter(100), work(-1), func(r int) error {
			if r == 3 {
				cancel()
			}
			return emit(r)
		})
		if !errors.Is(err, context.Canceled) || len(emitted) != 4 {
			t.Errorf("workers %d: cancelled at 3: %v after %d results", workers, err, len(emitted))
		}
		if running.Load() != 0 {
			t.Errorf("workers %d: %d works running after Run", workers, running.Load())
		}
	}
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}
