package s3_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/snii-go/snii"
	"github.com/snii-go/snii/internal/testkit/s3test"
	"github.com/snii-go/snii/objstore"
	"github.com/snii-go/snii/objstore/s3"
)

func randomBytes(n int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, 1))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// TestObjectRanges: Open costs one round of two requests; reads return the
// object's bytes; a prefetch of many ranges is one round, after which reading
// them costs nothing; reading past the end is io.EOF.
func TestObjectRanges(t *testing.T) {
	srv := s3test.Shared(t)
	srv.MakeBucket(t, "ranges")
	data := randomBytes(1<<20+123, 1)
	srv.Put(t, "ranges", "a/blob", data)
	ctx := t.Context()
	c := client(t, srv.Endpoint, s3.Config{Gap: 1024}, nil)
	o, err := c.Open(ctx, "ranges", "a/blob", 64<<10)
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	if o.Size() != int64(len(data)) {
		t.Fatalf("size %d, want %d", o.Size(), len(data))
	}
	if f := o.OpenCost(); f.Rounds != 1 || f.Requests != 2 || f.Bytes != 16+64<<10 {
		t.Errorf("open cost %+v, want 1 round, 2 requests, %d bytes", f, 16+64<<10)
	}
	// Head and suffix are held.
	for _, r := range []objstore.Range{rr(0, 16), rr(int64(len(data))-64<<10, 64<<10), rr(int64(len(data))-32, 32)} {
		p := make([]byte, r.Len)
		f, err := o.ReadAtContext(ctx, p, r.Off)
		if err != nil || f != (objstore.Cost{}) || !bytes.Equal(p, data[r.Off:r.Off+r.Len]) {
			t.Errorf("read %+v: cost %+v, %v (equal %v), want from the cache", r, f, err, bytes.Equal(p, data[r.Off:r.Off+r.Len]))
		}
	}
	rg := rand.New(rand.NewPCG(2, 2))
	for range 50 {
		off := rg.Int64N(int64(len(data)))
		n := rg.Int64N(min(int64(len(data))-off, 100000) + 1)
		p := make([]byte, n)
		if _, err := o.ReadAt(p, off); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(p, data[off:off+n]) {
			t.Fatalf("read [%d, +%d): wrong bytes", off, n)
		}
	}
	// A stage: 40 ranges, some within Gap of each other: one round.
	var rs []objstore.Range
	for i := range 40 {
		rs = append(rs, objstore.Range{Off: 100000 + int64(i)*9000 + int64(i%3)*10, Len: 500 + int64(i%7)*100})
	}
	f, err := o.Prefetch(ctx, rs)
	if err != nil {
		t.Fatal(err)
	}
	if f.Rounds != 1 || f.Requests < 1 || f.Requests > 40 {
		t.Errorf("prefetch cost %+v, want 1 round of at most 40 requests", f)
	}
	for _, r := range rs {
		p := make([]byte, r.Len)
		f, err := o.ReadAtContext(ctx, p, r.Off)
		if err != nil || f != (objstore.Cost{}) || !bytes.Equal(p, data[r.Off:r.Off+r.Len]) {
			t.Fatalf("read %+v after prefetch: cost %+v, %v", r, f, err)
		}
	}
	if f, _ := o.Prefetch(ctx, rs); f != (objstore.Cost{}) {
		t.Errorf("second prefetch of the same ranges cost %+v, want nothing", f)
	}
	if _, err := o.ReadAt(make([]byte, 10), int64(len(data))-5); !errors.Is(err, io.EOF) {
		t.Errorf("read past the end: %v, want io.EOF", err)
	}
	// A tiny object: Open reads it whole.
	srv.Put(t, "ranges", "tiny", []byte("0123456789"))
	o2, err := c.Open(ctx, "ranges", "tiny", 0)
	if err != nil {
		t.Fatal(err)
	}
	p := make([]byte, 10)
	if f, err := o2.ReadAtContext(ctx, p, 0); err != nil || f != (objstore.Cost{}) || string(p) != "0123456789" {
		t.Errorf("tiny object: %q, %+v, %v", p, f, err)
	}
	o2.Close()
	o.Close()
	if _, err := o.ReadAt(p, 0); !errors.Is(err, snii.ErrClosed) {
		t.Errorf("read after Close: %v, want ErrClosed", err)
	}
	checkNoLeaks(t)
}

// readsExact reads n random ranges of o, each of minLen to minLen+spread
// bytes, checking them against data, then prefetches rs: all must succeed
// under the proxy's fault k.
func readsExact(t *testing.T, o *s3.Object, data []byte, k s3test.Fault, n int, minLen, spread int64, rs []objstore.Range) {
	t.Helper()
	rg := rand.New(rand.NewPCG(uint64(k), uint64(n)))
	for range n {
		off := rg.Int64N(int64(len(data)) - minLen - spread)
		m := minLen + rg.Int64N(spread+1)
		p := make([]byte, m)
		if _, err := o.ReadAt(p, off); err != nil {
			t.Fatalf("fault %d: read: %v", k, err)
		}
		if !bytes.Equal(p, data[off:off+m]) {
			t.Fatalf("fault %d: read [%d, +%d): wrong bytes", k, off, m)
		}
	}
	if _, err := o.Prefetch(t.Context(), rs); err != nil {
		t.Fatalf("fault %d: prefetch: %v", k, err)
	}
}

// TestObjectErrors: missing bucket and key are ErrNotFound, bad
// configuration ErrInvalidArgument, wrong credentials a clear error; a
// replaced object fails its next read with ErrCorrupt.
func TestObjectErrors(t *testing.T) {
	srv := s3test.Shared(t)
	srv.MakeBucket(t, "errs")
	srv.Put(t, "errs", "k", randomBytes(1000, 3))
	ctx := t.Context()
	c := client(t, srv.Endpoint, s3.Config{}, nil)
	if _, err := c.Open(ctx, "nobucket", "k", 0); !errors.Is(err, snii.ErrNotFound) {
		t.Errorf("missing bucket: %v, want ErrNotFound", err)
	}
	if _, err := c.Open(ctx, "errs", "nokey", 0); !errors.Is(err, snii.ErrNotFound) {
		t.Errorf("missing key: %v, want ErrNotFound", err)
	}
	if _, err := c.Open(ctx, "errs", "", 0); !errors.Is(err, snii.ErrInvalidArgument) {
		t.Errorf("empty key: %v, want ErrInvalidArgument", err)
	}
	// Wrong credentials: an access error, never "not found".
	for _, cfg := range []s3.Config{
		{AccessKeyID: "nosuchaccesskey", SecretAccessKey: s3test.SecretKey},
		{AccessKeyID: s3test.AccessKey, SecretAccessKey: "wrong"},
	} {
		bad := client(t, srv.Endpoint, cfg, nil)
		_, err := bad.Open(ctx, "errs", "k", 0)
		if !errors.Is(err, s3.ErrAccessDenied) || !errors.Is(err, snii.ErrInvalidArgument) || errors.Is(err, snii.ErrNotFound) {
			t.Errorf("open with access key %q: %v, want s3.ErrAccessDenied", cfg.AccessKeyID, err)
		}
		for _, u := range [][2]string{{"errs", "k"}, {"errs", ""}, {"nobucket", "k"}} {
			if _, err := bad.List(ctx, u[0], u[1]); !errors.Is(err, s3.ErrAccessDenied) {
				t.Errorf("list %s with access key %q: %v, want s3.ErrAccessDenied", u, cfg.AccessKeyID, err)
			}
		}
		if err := bad.CheckBucket(ctx, "errs"); !errors.Is(err, s3.ErrAccessDenied) {
			t.Errorf("check bucket with access key %q: %v, want s3.ErrAccessDenied", cfg.AccessKeyID, err)
		}
	}
	for _, cfg := range []s3.Config{
		{Endpoint: "ftp://x", AccessKeyID: "a", SecretAccessKey: "b"},
		{Endpoint: "http://host/path", AccessKeyID: "a", SecretAccessKey: "b"},
		{Endpoint: "http://127.0.0.1:1"}, // no credentials (the environment has none)
	} {
		t.Setenv("AWS_ACCESS_KEY_ID", "")
		t.Setenv("AWS_SECRET_ACCESS_KEY", "")
		if _, err := s3.New(cfg, nil); !errors.Is(err, snii.ErrInvalidArgument) {
			t.Errorf("New(%+v): %v, want ErrInvalidArgument", cfg, err)
		}
	}
	// Credentials from the environment.
	t.Setenv("AWS_ACCESS_KEY_ID", s3test.AccessKey)
	t.Setenv("AWS_SECRET_ACCESS_KEY", "wrong-secret")
	wc, err := s3.New(s3.Config{Endpoint: srv.Endpoint}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := wc.Open(ctx, "errs", "k", 0); err == nil || errors.Is(err, snii.ErrNotFound) {
		t.Errorf("wrong secret: %v, want an access error", err)
	}
	// Replaced after Open: the etag no longer matches.
	o, err := c.Open(ctx, "errs", "k", 100)
	if err != nil {
		t.Fatal(err)
	}
	srv.Put(t, "errs", "k", randomBytes(1000, 4))
	if _, err := o.ReadAt(make([]byte, 100), 0+16); !errors.Is(err, snii.ErrCorrupt) {
		t.Errorf("read of a replaced object: %v, want ErrCorrupt", err)
	}
	o.Close()
	checkNoLeaks(t)
}

// TestObjectFaults: 503 SlowDown, 500, resets, connections closed before
// or within the headers, dropped and short bodies are retried and the bytes stay exact; faults on every request end in a clear
// error; latency past the context's deadline ends the call at the deadline.
func TestObjectFaults(t *testing.T) {
	srv := s3test.Shared(t)
	srv.MakeBucket(t, "faults")
	data := randomBytes(300000, 5)
	srv.Put(t, "faults", "obj", data)
	ctx := t.Context()
	kinds := []s3test.Fault{s3test.SlowDown, s3test.InternalError, s3test.Reset, s3test.Truncate, s3test.ShortBody,
		s3test.Drop, s3test.DropInHeaders}
	for _, k := range kinds {
		px := s3test.NewProxy(srv.Endpoint)
		px.Choose = func(n int64, _ *http.Request) s3test.Fault {
			if n%2 == 1 {
				return k
			}
			return s3test.Pass
		}
		c := client(t, px.URL, s3.Config{Retries: 3, Gap: -1}, nil)
		o, err := c.Open(ctx, "faults", "obj", 1000)
		if err != nil {
			t.Fatalf("fault %d: open: %v", k, err)
		}
		readsExact(t, o, data, k, 20, 0, 20000, []objstore.Range{rr(1000, 100), rr(50000, 100), rr(90000, 5000), rr(200000, 7)})
		if px.Faults() == 0 {
			t.Fatalf("fault %d: none injected", k)
		}
		// Every request faulty: a clear error after the retries.
		px.Choose = func(int64, *http.Request) s3test.Fault { return k }
		before := px.Requests()
		_, err = o.ReadAt(make([]byte, 100), 123456)
		if err == nil {
			t.Fatalf("fault %d on every request: no error", k)
		}
		// (Go's transport itself repeats a GET once when a reused connection
		// resets or closes before answering.)
		if got := px.Requests() - before; got != 4 && !((k == s3test.Reset || k == s3test.Drop) && got <= 8) {
			t.Errorf("fault %d: %d attempts, want 4 (1 + 3 retries)", k, got)
		}
		if (k == s3test.Truncate || k == s3test.ShortBody) && !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("fault %d: %v, want io.ErrUnexpectedEOF", k, err)
		}
		t.Logf("fault %d on every request: %v", k, err)
		o.Close()
		px.Close()
	}
	// Latency beyond the deadline.
	px := s3test.NewProxy(srv.Endpoint)
	defer px.Close()
	c := client(t, px.URL, s3.Config{}, nil)
	o, err := c.Open(ctx, "faults", "obj", 1000)
	if err != nil {
		t.Fatal(err)
	}
	px.Latency.Store(int64(5 * time.Second))
	dctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	t0 := time.Now()
	_, err = o.Prefetch(dctx, []objstore.Range{rr(5000, 10), rr(100000, 10), rr(200000, 10)})
	cancel()
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("prefetch past its deadline: %v", err)
	}
	if d := time.Since(t0); d > 3*time.Second {
		t.Errorf("prefetch returned %v after its 100ms deadline", d)
	}
	o.Close()
	px.Close()
	checkNoLeaks(t)
}

// TestObjectStalls: a server that stops sending within the headers or
// within the body fails the attempt at the progress deadline, and the
// attempt is retried: the bytes stay exact. Stalls on every request end in a
// ErrStalled after the retries, never in a wait for the caller's deadline;
// a caller's deadline shorter than the progress deadline ends the call.
func TestObjectStalls(t *testing.T) {
	srv := s3test.Shared(t)
	srv.MakeBucket(t, "stalls")
	data := randomBytes(300000, 6)
	srv.Put(t, "stalls", "obj", data)
	ctx := t.Context()
	const progress = 100 * time.Millisecond
	for _, k := range []s3test.Fault{s3test.StallHeaders, s3test.StallBody} {
		px := s3test.NewProxy(srv.Endpoint)
		px.Choose = func(n int64, _ *http.Request) s3test.Fault {
			if n%3 == 1 {
				return k
			}
			return s3test.Pass
		}
		c := client(t, px.URL, s3.Config{Retries: 3, Gap: -1, ProgressTimeout: progress}, nil)
		o, err := c.Open(ctx, "stalls", "obj", 4000)
		if err != nil {
			t.Fatalf("fault %d: open: %v", k, err)
		}
		readsExact(t, o, data, k, 6, 2*s3test.StallAfter, 40000,
			[]objstore.Range{rr(10000, 3000), rr(60000, 3000), rr(120000, 5000), rr(200000, 2500)})
		if px.Faults() == 0 {
			t.Fatalf("fault %d: none injected", k)
		}
		// Every request stalls: a stall error after 1 + 3 attempts, well
		// before the caller's (long) deadline.
		px.Choose = func(int64, *http.Request) s3test.Fault { return k }
		before := px.Requests()
		lctx, cancel := context.WithTimeout(ctx, time.Minute)
		_, err = o.ReadAtContext(lctx, make([]byte, 5000), 123456)
		cancel()
		var ne net.Error
		if !errors.Is(err, s3.ErrStalled) || !errors.As(err, &ne) || !ne.Timeout() || errors.Is(err, context.DeadlineExceeded) ||
			!strings.Contains(err.Error(), fmt.Sprintf("no progress for %v", progress)) {
			t.Fatalf("fault %d on every request: %v, want a stall of %v", k, err, progress)
		}
		if got := px.Requests() - before; got != 4 {
			t.Errorf("fault %d: %d attempts, want 4 (1 + 3 retries)", k, got)
		}
		t.Logf("fault %d on every request: %v", k, err)
		// The caller's deadline, shorter than the progress deadline, ends it.
		slow := client(t, px.URL, s3.Config{ProgressTimeout: time.Hour}, nil)
		dctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
		if k == s3test.StallHeaders {
			_, err = slow.Open(dctx, "stalls", "obj", 0)
		} else {
			px.Choose = nil
			so, oerr := slow.Open(ctx, "stalls", "obj", 1)
			if oerr != nil {
				t.Fatal(oerr)
			}
			px.Choose = func(int64, *http.Request) s3test.Fault { return k }
			_, err = so.ReadAtContext(dctx, make([]byte, 5000), 1000)
			so.Close()
		}
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("fault %d past the caller's deadline: %v, want context.DeadlineExceeded", k, err)
		}
		o.Close()
		px.Close()
	}
	checkNoLeaks(t)
}
