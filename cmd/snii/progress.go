package main

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
)

// progress shows bytes read (of the total when known) and documents per second
// on a terminal. The zero of *progress (nil) draws nothing, so callers need no
// checks.
type progress struct {
	mu    sync.Mutex
	bar   *progressbar.ProgressBar
	start time.Time
	docs  int64
	next  time.Time // next description update
	now   func() time.Time
}

// newProgress returns a progress bar writing to w, or nil when show is false.
// total is the number of input bytes, or -1 when unknown (a spinner).
func newProgress(w io.Writer, show bool, total int64, what string) *progress {
	if !show {
		return nil
	}
	bar := progressbar.NewOptions64(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(what),
		progressbar.OptionShowBytes(true),
		progressbar.OptionSetWidth(30),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionShowDescriptionAtLineEnd(),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionUseANSICodes(true),
	)
	return &progress{bar: bar, start: time.Now(), now: time.Now}
}

// addBytes adds n input bytes.
func (p *progress) addBytes(n int64) {
	if p == nil {
		return
	}
	_ = p.bar.Add64(n)
}

// addDoc counts one document and refreshes the rate about four times a second.
func (p *progress) addDoc() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.docs++
	if p.docs%256 != 0 {
		return
	}
	now := p.now()
	if now.Before(p.next) {
		return
	}
	p.next = now.Add(250 * time.Millisecond)
	p.bar.Describe(p.describe(now))
}

func (p *progress) describe(now time.Time) string {
	rate := 0.0
	if el := now.Sub(p.start).Seconds(); el > 0 {
		rate = float64(p.docs) / el
	}
	return fmt.Sprintf("%d docs, %.0f docs/s", p.docs, rate)
}

// status replaces the description (e.g. "writing the segment").
func (p *progress) status(s string) {
	if p == nil {
		return
	}
	p.bar.Describe(s)
}

// finish clears the bar.
func (p *progress) finish() {
	if p == nil {
		return
	}
	_ = p.bar.Finish()
}
