package prx

import (
	"fmt"
	"sync"

	"github.com/klauspost/compress/zstd"
	"github.com/snii-go/snii/internal/codec/zstdopt"
)

// ahead builds the zstd payloads of units of a multi-unit window on a
// goroutine of its own (EncoderOptions.Parallel) while the Encoder's
// goroutine encodes the window. The two share the units: the goroutine
// claims them from the last one down, the Encoder from the first one up,
// until they meet, so the faster side takes more of them. A payload is the
// one compress builds for the unit (its own zstd encoder has the Encoder's
// options, and EncodeAll and Share carry nothing from one unit to the next),
// so the frames do not depend on which goroutine compressed a unit.
type ahead struct {
	level int
	zenc  *zstd.Encoder
	share zstdopt.Sharer
	vals  []uint32
	tfs   []uint32
	raw   []byte
	zcomp []byte
	zsh   []byte

	out [][]byte // per unit of the window: its payload
	has []bool   // per unit of the window: out holds its payload (an eligible unit the goroutine took)

	mu   sync.Mutex
	low  int // the lowest unit the goroutine claimed (units low.. are its)
	mine int // units below mine are the Encoder's

	req  chan aheadJob
	done chan error
	busy bool
}

type aheadJob struct {
	w    *Window
	cuts []int
}

func newAhead(level int) *ahead {
	a := &ahead{level: level, req: make(chan aheadJob), done: make(chan error)}
	go func() {
		for j := range a.req {
			a.done <- a.run(j)
		}
	}()
	return a
}

// start shares the units of w (cut at cuts) with the goroutine until wait.
// w and cuts must not change before wait.
func (a *ahead) start(w *Window, cuts []int) {
	n := len(cuts) - 1
	a.has = append(a.has[:0], make([]bool, n)...)
	for len(a.out) < n {
		a.out = append(a.out, nil)
	}
	a.low, a.mine, a.busy = n, 0, true
	a.req <- aheadJob{w: w, cuts: cuts}
}

// claim reports whether unit u is the Encoder's; the Encoder claims its
// units in order. A unit it does not get is the goroutine's: its payload is
// there after wait.
func (a *ahead) claim(u int) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if u >= a.low {
		return false
	}
	a.mine = u + 1
	return true
}

// wait waits for the units started and returns the first error.
func (a *ahead) wait() error {
	if !a.busy {
		return nil
	}
	a.busy = false
	return <-a.done
}

// payload returns the payload of unit u of the window, if it was built here.
func (a *ahead) payload(u int) ([]byte, bool) {
	if a.busy || u >= len(a.has) || !a.has[u] {
		return nil, false
	}
	return a.out[u], true
}

// reset ends the last window and forgets its payloads. An Encoder that
// claimed every unit of a window does not wait for the goroutine, which
// then ends that window without claiming a unit (and without an error).
func (a *ahead) reset() {
	_ = a.wait()
	a.has = a.has[:0]
}

// close ends the goroutine and frees the zstd encoder.
func (a *ahead) close() {
	_ = a.wait()
	close(a.req)
	if a.zenc != nil {
		_ = a.zenc.Close()
		a.zenc = nil
	}
}

// run compresses units from the window's last one down while the Encoder
// has not claimed them.
func (a *ahead) run(j aheadJob) error {
	for i := len(j.cuts) - 2; i >= 0; i-- {
		a.mu.Lock()
		if i < a.mine {
			a.mu.Unlock()
			return nil
		}
		a.low = i
		a.mu.Unlock()
		if err := a.unit(j, i); err != nil {
			return err
		}
	}
	return nil
}

// unit builds the payload of unit i of the job's window, if it is eligible.
func (a *ahead) unit(j aheadJob, i int) error {
	lo, hi := j.cuts[i], j.cuts[i+1]
	if hi-lo == 1 && j.w.Offsets[hi]-j.w.Offsets[lo] == 1 {
		return nil // a singleton
	}
	a.vals, a.tfs = unitStream(j.w, lo, hi, a.vals, a.tfs)
	if rawPositionsSize(a.vals) < ZstdMinPlain {
		return nil
	}
	if a.zenc == nil {
		z, err := zstdopt.NewEncoder(a.level)
		if err != nil {
			return fmt.Errorf("prx: %w", err)
		}
		a.zenc = z
	}
	a.raw = appendRawPositions(a.raw[:0], a.vals)
	a.zcomp = a.zenc.EncodeAll(a.raw, a.zcomp[:0])
	shared, err := a.share.Share(a.zcomp, a.zsh)
	if err != nil {
		return fmt.Errorf("prx: %w", err)
	}
	if &shared[0] != &a.zcomp[0] {
		a.zsh = shared
	}
	a.out[i] = append(a.out[i][:0], shared...)
	a.has[i] = true
	return nil
}
