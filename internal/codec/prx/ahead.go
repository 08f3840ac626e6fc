package prx

import (
	"fmt"

	"github.com/klauspost/compress/zstd"
	"github.com/snii-go/snii/internal/codec/zstdopt"
)

// ahead builds the zstd payloads of the later units of a multi-unit window
// on a goroutine of its own (EncoderOptions.Parallel) while the Encoder's
// goroutine encodes the earlier ones. A payload is the one compress builds
// for the unit (its own zstd encoder has the Encoder's options, and
// EncodeAll and Share carry nothing from one unit to the next), so the
// frames do not depend on which goroutine compressed a unit.
type ahead struct {
	level int
	zenc  *zstd.Encoder
	share zstdopt.Sharer
	vals  []uint32
	tfs   []uint32
	raw   []byte
	zcomp []byte
	zsh   []byte

	first int      // the window's first unit compressed here (set by start)
	out   [][]byte // per unit from first: its payload
	has   []bool   // per unit from first: out holds its payload (an eligible unit)

	req  chan aheadJob
	done chan error
	busy bool
}

type aheadJob struct {
	w     *Window
	cuts  []int
	first int
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

// start compresses units first.. of w (cut at cuts) until wait. w and cuts
// must not change before wait.
func (a *ahead) start(w *Window, cuts []int, first int) {
	a.first, a.busy = first, true
	a.req <- aheadJob{w: w, cuts: cuts, first: first}
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
	if a.busy || u < a.first || u-a.first >= len(a.has) || !a.has[u-a.first] {
		return nil, false
	}
	return a.out[u-a.first], true
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

func (a *ahead) run(j aheadJob) error {
	n := len(j.cuts) - 1 - j.first
	a.has = append(a.has[:0], make([]bool, n)...)
	for len(a.out) < n {
		a.out = append(a.out, nil)
	}
	for i := range n {
		lo, hi := j.cuts[j.first+i], j.cuts[j.first+i+1]
		if hi-lo == 1 && j.w.Offsets[hi]-j.w.Offsets[lo] == 1 {
			continue // a singleton
		}
		a.vals, a.tfs = unitStream(j.w, lo, hi, a.vals, a.tfs)
		if rawPositionsSize(a.vals) < ZstdMinPlain {
			continue
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
	}
	return nil
}
