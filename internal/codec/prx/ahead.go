package prx

import (
	"fmt"
	"sync"

	"github.com/klauspost/compress/zstd"
	"github.com/snii-go/snii/internal/codec/zstdopt"
)

// ahead builds the zstd payloads of units on a goroutine of its own
// (EncoderOptions.Parallel) while the Encoder's goroutine does other work:
//   - a window prepared (Encoder.Prepare): all its units, while the caller
//     encodes the window before it;
//   - otherwise a multi-unit window being encoded: the goroutine claims its
//     units from the last one down, the Encoder from the first one up, until
//     they meet, so the faster side takes more of them.
//
// A payload is the one compress builds for the unit (its own zstd encoder has
// the Encoder's options, and EncodeAll and Share carry nothing from one unit
// to the next), so the frames do not depend on which goroutine compressed a
// unit.
type ahead struct {
	level int
	zenc  *zstd.Encoder
	share zstdopt.Sharer
	vals  []uint32
	tfs   []uint32
	raw   []byte
	zcomp []byte
	zsh   []byte

	sets [2]aheadSet
	fill int // the set of the last job

	mu   sync.Mutex
	low  int // the lowest unit the goroutine claimed (units low.. are its)
	mine int // units below mine are the Encoder's

	req  chan int // the set to fill
	done chan error
	busy bool
}

// aheadSet holds the payloads of one window's units.
type aheadSet struct {
	w    *Window // the window of the units
	key  *Window // the window prepared, until its Encode takes the set (nil: none)
	cuts []int
	out  [][]byte // per unit: its payload
	has  []bool   // per unit: out holds its payload (an eligible unit the goroutine took)
}

func newAhead(level int) *ahead {
	a := &ahead{level: level, req: make(chan int), done: make(chan error)}
	go func() {
		for s := range a.req {
			a.done <- a.run(&a.sets[s])
		}
	}()
	return a
}

// begin waits for the last job and points the next one at w, cut at a copy
// of cuts (nil: cut here).
func (a *ahead) begin(w *Window, cuts []int) *aheadSet {
	_ = a.wait() // (an error of a job is returned by the Encode that waited for it)
	a.fill ^= 1
	s := &a.sets[a.fill]
	s.w, s.key = w, nil
	if cuts == nil {
		s.cuts = cutUnits(w.Offsets, s.cuts)
	} else {
		s.cuts = append(s.cuts[:0], cuts...)
	}
	n := len(s.cuts) - 1
	s.has = append(s.has[:0], make([]bool, n)...)
	for len(s.out) < n {
		s.out = append(s.out, nil)
	}
	a.low, a.mine, a.busy = n, 0, true
	return s
}

// prepare compresses every unit of w on the goroutine. w must not change
// before the Encode of w or the next prepare.
func (a *ahead) prepare(w *Window) {
	a.begin(w, nil).key = w
	a.req <- a.fill
}

// start shares the units of w (cut at cuts), being encoded, with the
// goroutine until wait. w and cuts must not change before wait.
func (a *ahead) start(w *Window, cuts []int) {
	a.begin(w, cuts)
	a.req <- a.fill
}

// take returns the set of w's payloads if w was prepared, after its job.
// The set is then spent: a later Encode of the same window takes nothing.
func (a *ahead) take(w *Window) (*aheadSet, error) {
	for i := range a.sets {
		s := &a.sets[i]
		if s.key == nil || s.key != w {
			continue
		}
		s.key = nil
		if i == a.fill {
			if err := a.wait(); err != nil {
				return nil, err
			}
		}
		return s, nil
	}
	return nil, nil
}

// claim reports whether unit u of the window started is the Encoder's; the
// Encoder claims its units in order. A unit it does not get is the
// goroutine's: its payload is there after wait.
func (a *ahead) claim(u int) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if u >= a.low {
		return false
	}
	a.mine = u + 1
	return true
}

// wait waits for the last job and returns its first error.
func (a *ahead) wait() error {
	if !a.busy {
		return nil
	}
	a.busy = false
	return <-a.done
}

// payload returns the payload of unit u in set s, if it was built here.
func (s *aheadSet) payload(u int) ([]byte, bool) {
	if u >= len(s.has) || !s.has[u] {
		return nil, false
	}
	return s.out[u], true
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

// run compresses units of s from its window's last one down while the
// Encoder has not claimed them.
func (a *ahead) run(s *aheadSet) error {
	for i := len(s.cuts) - 2; i >= 0; i-- {
		a.mu.Lock()
		if i < a.mine {
			a.mu.Unlock()
			return nil
		}
		a.low = i
		a.mu.Unlock()
		if err := a.unit(s, i); err != nil {
			return err
		}
	}
	return nil
}

// unit builds the payload of unit i of s, if it is eligible. A unit with a
// document without positions (a window Encode refuses) is left to Encode.
func (a *ahead) unit(s *aheadSet, i int) error {
	w, lo, hi := s.w, s.cuts[i], s.cuts[i+1]
	for d := lo; d < hi; d++ {
		if w.Offsets[d] >= w.Offsets[d+1] || int(w.Offsets[d+1]) > len(w.Positions) {
			return nil
		}
	}
	if hi-lo == 1 && w.Offsets[hi]-w.Offsets[lo] == 1 {
		return nil // a singleton
	}
	a.vals, a.tfs = unitStream(w, lo, hi, a.vals, a.tfs)
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
	s.out[i] = append(s.out[i][:0], shared...)
	s.has[i] = true
	return nil
}
