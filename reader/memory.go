package reader

import (
	"context"
	"fmt"
	"sync"

	"github.com/snii-go/snii/internal/codec/prx"
	"github.com/snii-go/snii/internal/errs"
	"github.com/snii-go/snii/limits"
)

// Decode memory: a ZSTD unit of a .prx window is inflated into a buffer of the
// length its header declares, which the format lets reach limits.DefaultMaxBytes
// (256 MiB). A crafted segment of a few kilobytes can declare that much in a
// frame of RLE blocks that really inflates to it. Two bounds keep such a unit
// from costing what it declares:
//
//   - Options.MaxUnitBytes caps the RAW payload one ZSTD unit may declare
//     (default DefaultMaxUnitBytes, 16 MiB). A unit over it fails with an error
//     of kind snii.ErrLimit, placed at its segment, index, term and window,
//     before anything is allocated.
//   - A DecodeBudget bounds the inflation buffers allocated by all the queries
//     that share it. Each query charges the buffers it allocates (the growth of
//     its decode source's buffer and of its cursors') and gives them back when
//     it ends; buffers larger than a pooled source keeps (64 KiB) are dropped
//     then, so idle pools stay outside the bound but small (a pooled query
//     context also keeps up to eight store-block buffers of at most 1 MiB
//     each and 4 MiB in all, uncharged, for the records of its next query). By default every
//     Segment opened without one shares one budget of DefaultDecodeMemory
//     (256 MiB), so the bound holds for a process with a thousand segments as
//     for one.

const (
	// DefaultMaxUnitBytes is the default of Options.MaxUnitBytes: the largest RAW
	// payload one ZSTD unit of a .prx window may declare (16 MiB). A unit holds
	// at most 512 positions (about 2.6 KiB of RAW payload at most; 1024 and 5 KiB
	// in segment formats 5 and 6) unless it is a single document with more; 16 MiB is a document with more than 3.3 million
	// positions of one term. Open a segment holding such documents with a larger
	// MaxUnitBytes (snii --max-unit-bytes), up to limits.DefaultMaxBytes.
	DefaultMaxUnitBytes = 16 << 20
	// DefaultDecodeMemory is the bound of the budget shared by the segments
	// opened without Options.DecodeBudget (256 MiB): one unit
	// of the format's maximum size fits, and sixteen of the default ceiling.
	DefaultDecodeMemory = limits.DefaultMaxBytes
)

// DecodeBudget bounds the memory the queries sharing it may hold in inflation
// buffers at once. Create one with NewDecodeBudget and pass it in
// Options.DecodeBudget to every segment that should share it (a server: one
// budget for all its segments). It is safe for concurrent use.
//
// A query asks for the bytes of each buffer before allocating it. When they are
// not free it waits, in arrival order, until queries end and give theirs back,
// or until its context is done (the query then returns an error wrapping the
// context's error). It fails at once with an error of kind snii.ErrLimit when
// what it would hold exceeds the whole bound (waiting cannot help), and when it
// already holds buffers and every other query holding some waits too (waiting
// would never end). A query that holds nothing never fails for lack of memory:
// it waits.
type DecodeBudget struct {
	limit   int64
	mu      sync.Mutex
	used    int64
	peak    int64
	running int // queries holding bytes that are not waiting
	waiters []*budgetWaiter
}

type budgetWaiter struct {
	n      int64
	held   int64 // what the query already holds
	holder bool
	ready  chan error // receives nil when granted, or the failure
}

// NewDecodeBudget returns a budget of bytes; bytes <= 0 means DefaultDecodeMemory.
func NewDecodeBudget(bytes int64) *DecodeBudget {
	if bytes <= 0 {
		bytes = DefaultDecodeMemory
	}
	return &DecodeBudget{limit: bytes}
}

// defaultBudget is the budget shared by the segments opened without
// Options.DecodeBudget.
var defaultBudget = NewDecodeBudget(DefaultDecodeMemory)

// acquire grants n more bytes to a query that holds held, waiting if needed.
func (b *DecodeBudget) acquire(ctx context.Context, held, n int64) error {
	if held+n > b.limit {
		return errs.Limitf("decode memory: the query needs %d bytes of inflation buffers (%d held, %d more), over the whole bound of %d "+
			"(reader.Options.DecodeBudget, snii --max-decode-memory)", held+n, held, n, b.limit)
	}
	b.mu.Lock()
	if len(b.waiters) == 0 && b.used+n <= b.limit {
		b.grant(n)
		if held == 0 { // a new holder, running
			b.running++
		}
		b.mu.Unlock()
		return nil
	}
	w := &budgetWaiter{n: n, held: held, holder: held > 0, ready: make(chan error, 1)}
	b.waiters = append(b.waiters, w)
	if w.holder {
		b.running--
	}
	b.settle()
	b.mu.Unlock()
	select {
	case err := <-w.ready:
		return err
	case <-ctx.Done():
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	select {
	case err := <-w.ready: // granted or failed meanwhile
		return err
	default:
	}
	for i, o := range b.waiters {
		if o == w {
			b.waiters = append(b.waiters[:i], b.waiters[i+1:]...)
			break
		}
	}
	if w.holder {
		b.running++
	}
	b.settle()
	return fmt.Errorf("waiting for %d bytes of decode memory: %w", n, ctx.Err())
}

// tryAcquire grants n more bytes to a query that holds held when they are
// free now and no query waits; it never waits (false: not granted).
func (b *DecodeBudget) tryAcquire(held, n int64) bool {
	if held+n > b.limit {
		return false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.waiters) > 0 || b.used+n > b.limit {
		return false
	}
	b.grant(n)
	if held == 0 { // a new holder, running
		b.running++
	}
	return true
}

// grant gives n bytes to a query (locked).
func (b *DecodeBudget) grant(n int64) {
	b.used += n
	b.peak = max(b.peak, b.used)
}

// settle serves the waiters in order while the head fits, then breaks a
// standstill: when no query holding memory runs, the memory held will never
// be given back, so the last waiting holder fails (locked).
func (b *DecodeBudget) settle() {
	for len(b.waiters) > 0 {
		w := b.waiters[0]
		if b.used+w.n > b.limit {
			break
		}
		b.waiters[0] = nil
		b.waiters = b.waiters[1:]
		b.grant(w.n)
		b.running++ // a holder again running, or a new one
		w.ready <- nil
	}
	if len(b.waiters) == 0 || b.running > 0 {
		return
	}
	for i := len(b.waiters) - 1; i >= 0; i-- {
		w := b.waiters[i]
		if !w.holder {
			continue
		}
		b.waiters = append(b.waiters[:i], b.waiters[i+1:]...)
		b.running++
		w.ready <- errs.Limitf("decode memory bound of %d bytes reached: the query holds %d bytes of inflation buffers and needs %d more, "+
			"and every other query holding some waits too (raise reader.Options.DecodeBudget, snii --max-decode-memory, or run fewer queries at once)",
			b.limit, w.held, w.n)
		return
	}
}

// release gives back the n bytes a query held when it ends.
func (b *DecodeBudget) release(n int64) {
	if n <= 0 {
		return
	}
	b.mu.Lock()
	b.used -= n
	b.running--
	b.settle()
	b.mu.Unlock()
}

// Reserve implements prx.Memory for the query's decode source: it enforces the
// unit ceiling and charges the buffers allocated to the segment's budget.
func (x *qctx) Reserve(plain, alloc int) error {
	s := x.s
	if plain > s.maxUnit {
		return errs.Limitf("over the ceiling of %d bytes per unit (reader.Options.MaxUnitBytes, snii --max-unit-bytes)", s.maxUnit)
	}
	if alloc <= 0 {
		return nil
	}
	ctx := x.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	if err := s.budget.acquire(ctx, x.held, int64(alloc)); err != nil {
		return err
	}
	x.held += int64(alloc)
	return nil
}

// releaseMemory gives the query's decode memory back (when it ends, after its
// source and cursors dropped their large buffers).
func (x *qctx) releaseMemory() {
	if x.held > 0 {
		x.s.budget.release(x.held)
		x.held = 0
	}
}

var _ prx.Memory = (*qctx)(nil)
