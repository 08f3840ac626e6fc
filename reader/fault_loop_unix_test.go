//go:build unix

package reader_test

import (
	"errors"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/snii-go/snii"
	"github.com/snii-go/snii/internal/testkit/oracle"
	"github.com/snii-go/snii/reader"
)

// faultLoopDuration is how long the rewrite loops run: $SNII_FAULT_LOOP (a
// Go duration; the issue ran 20s), else 5s, or 1s with -short.
func faultLoopDuration(t *testing.T) time.Duration {
	if v := os.Getenv("SNII_FAULT_LOOP"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			t.Fatalf("SNII_FAULT_LOOP=%q: want a positive Go duration (\"20s\")", v)
		}
		return d
	}
	if testing.Short() {
		return time.Second
	}
	return 5 * time.Second
}

// rewriteLoop overwrites and truncates path in place (never by rename) until
// stop is closed, ending with the intact bytes good: cp over it (truncate,
// then write), truncation to a random length and back, and a half-written
// copy. It returns the number of rewrites.
func rewriteLoop(t *testing.T, path string, good []byte, stop <-chan struct{}) int {
	r := rand.New(rand.NewPCG(39, 3))
	n := 0
	for {
		select {
		case <-stop:
			if err := os.WriteFile(path, good, 0o644); err != nil {
				t.Error(err)
			}
			return n
		default:
		}
		var err error
		switch n % 3 {
		case 0: // cp good live.snii
			err = os.WriteFile(path, good, 0o644)
		case 1: // truncate -s N, then the copy again
			if err = os.Truncate(path, r.Int64N(int64(len(good)))); err == nil {
				time.Sleep(time.Millisecond)
				err = os.WriteFile(path, good, 0o644)
			}
		case 2: // a copy that stops half way for a moment
			var f *os.File
			if f, err = os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0); err == nil {
				_, err = f.Write(good[:len(good)/2])
				time.Sleep(time.Millisecond)
				if err == nil {
					_, err = f.Write(good[len(good)/2:])
				}
				if cerr := f.Close(); err == nil {
					err = cerr
				}
			}
		}
		if err != nil {
			t.Error(err)
			return n
		}
		n++
		time.Sleep(time.Duration(r.IntN(3000)) * time.Microsecond) // intact for a moment
	}
}

// Issue 39 item 3: a live segment overwritten and truncated in place while
// goroutines open it, query it, and walk Postings and Terms in a loop. Nothing
// crashes: every call returns an answer or a corruption error.
func TestMappedFileRewriteLoop(t *testing.T) {
	docs := oracle.Generate(39, oracle.GenOptions{Docs: 3000})
	path := build(t, docs, options(-1, "text", "level", "host"))
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c := corpusOf(docs)
	vocab := c.Vocabulary("text")
	var term string
	var df int
	for _, ts := range vocab {
		if ts.DF > df {
			term, df = ts.Term, ts.DF
		}
	}
	phrase := c.Sequence(0, "text")[:2]

	var ops, errs, faults, wrong atomic.Int64
	check := func(err error) bool {
		if err == nil {
			return true
		}
		if !errors.Is(err, snii.ErrCorrupt) {
			t.Errorf("err = %v, want nil or a corruption error", err)
		}
		errs.Add(1)
		if strings.Contains(err.Error(), "memory fault") {
			faults.Add(1)
		}
		return false
	}
	// One round of calls on a freshly opened segment.
	round := func() {
		ops.Add(1)
		s, err := reader.Open(path, reader.Options{})
		if !check(err) {
			return
		}
		defer s.Close()
		if n, err := s.Count(bg, reader.Term("text", term), nil); check(err) && n != uint64(df) {
			wrong.Add(1)
		}
		if _, err := s.Docs(bg, reader.Phrase("text", phrase...), nil); !check(err) {
			return
		}
		if _, err := s.Top(bg, reader.Prefix("text", term[:1], 0), 5, nil); !check(err) {
			return
		}
		p, err := s.Postings(bg, "text", term)
		if !check(err) {
			return
		}
		n := 0
		for p.Next() {
			if _, err := p.Positions(); err != nil {
				break
			}
			n++
		}
		if check(p.Err()) && n != df {
			wrong.Add(1)
		}
		p.Close()
		terms, errf := s.Terms(bg, "text", "", 0)
		for range terms {
		}
		check(errf())
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
					round()
				}
			}
		}()
	}
	rewrites := make(chan int, 1)
	go func() { rewrites <- rewriteLoop(t, path, good, stop) }()
	time.Sleep(faultLoopDuration(t))
	close(stop)
	wg.Wait()
	n := <-rewrites
	t.Logf("%d rounds of calls, %d rewrites: %d corruption errors (%d memory faults), %d answers read from rewritten pages that differ",
		ops.Load(), n, errs.Load(), faults.Load(), wrong.Load())
	if ops.Load() == 0 || n == 0 {
		t.Fatalf("the loop did not run: %d rounds, %d rewrites", ops.Load(), n)
	}
	// Once the file is intact again, the answers are right.
	s := open(t, path)
	if got, err := s.Count(bg, reader.Term("text", term), nil); err != nil || got != uint64(df) {
		t.Errorf("after the loop: count %d, %v; want %d", got, err, df)
	}
}
