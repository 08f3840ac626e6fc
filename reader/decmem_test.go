package reader_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/snii-go/snii/internal/testkit"
	"github.com/snii-go/snii/limits"

	"github.com/snii-go/snii"
	"github.com/snii-go/snii/internal/codec/prx"
	"github.com/snii-go/snii/internal/seam"
	"github.com/snii-go/snii/internal/testkit/oracle"
	"github.com/snii-go/snii/reader"
	"github.com/snii-go/snii/writer"
)

// decmemDocs: doc 0 holds "victim" 3000 times at irregular gaps (its window is
// one unit of a few kilobytes, stored in the .prx section); doc 1 holds "aa bb"
// 60,000 times (each term one ZSTD unit of about 60 KiB of RAW payload: a
// phrase query inflates two of them); the others are filler.
func decmemDocs(victims int) []oracle.Doc {
	r := rand.New(rand.NewPCG(16, 1))
	var v strings.Builder
	for i := 0; i < victims; i++ {
		v.WriteString("victim")
		for k := r.IntN(40); k > 0; k-- {
			fmt.Fprintf(&v, " w%d", r.IntN(50))
		}
		v.WriteByte(' ')
	}
	docs := []oracle.Doc{
		{{Name: "text", Values: []string{v.String()}}},
		{{Name: "text", Values: []string{strings.Repeat("aa bb ", 60000)}}},
	}
	for i := 0; i < 50; i++ {
		docs = append(docs, oracle.Doc{{Name: "text", Values: []string{fmt.Sprintf("filler w%d aa bb w%d", i, i+1)}}})
	}
	return docs
}

// buildDecmem builds the segment and returns its bytes and the stored frame of
// the window of term (one unit, CRC form).
func buildDecmem(t *testing.T, term string) (seg, frame []byte) {
	return buildDecmemN(t, term, 3000)
}

func buildDecmemN(t *testing.T, term string, victims int) (seg, frame []byte) {
	t.Helper()
	o := writer.DefaultOptions("text")
	var frames [][]byte
	seam.SetOnWindow(&o, func(field string, w *prx.Window, f prx.Frame) error {
		if len(f.Units) == 1 && w.Docs() == 1 && len(w.Positions) > 2000 {
			frames = append(frames, append([]byte(nil), f.Bytes...))
		}
		return nil
	})
	p := build(t, decmemDocs(victims), o)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range frames {
		if bytes.Count(b, f) == 1 && (term == "" || len(f) > 1000) {
			frame = f
		}
	}
	if frame == nil {
		t.Fatalf("no stored frame of a one-doc window of %d found", len(frames))
	}
	return b, frame
}

// craftZstdUnit returns a frame of exactly n bytes: one ZSTD unit (CRC form) of
// one document whose zstd payload is a valid frame of 128 KiB RLE blocks (and
// a raw block filling the rest) declaring as many bytes as fit, at most
// maxPlain, with a term frequency that makes the declared length plausible.
func craftZstdUnit(n, maxPlain int) (frame []byte, plain int) {
	uv := func(b []byte, v uint64) []byte { return binary.AppendUvarint(b, v) }
	for zlen := n - 16; zlen > 0; zlen-- {
		blocks := zlen - 9 // magic, descriptor, 4-byte content size
		k := min(maxPlain/(128<<10), (blocks-3)/4)
		r := blocks - 4*k - 3
		for k > 0 && k<<17+r > maxPlain {
			k, r = k-1, r+4
		}
		if k <= 0 || r < 0 {
			return nil, 0
		}
		plain = k<<17 + r
		pos := plain / 4 // n+dir <= plain <= 5n+dir
		b := []byte{byte(prx.CodecZstd), 1, 0x40, 0}
		b = uv(b, uint64(pos-1))
		b = uv(b, uint64(plain))
		b = uv(b, uint64(zlen))
		if len(b)+zlen+4 != n {
			continue
		}
		b = binary.LittleEndian.AppendUint32(b, 0xFD2FB528)
		b = append(b, 0xA0) // single segment, 4-byte content size
		b = binary.LittleEndian.AppendUint32(b, uint32(plain))
		for i := 0; i < k; i++ {
			h := (128<<10)<<3 | 1<<1
			b = append(b, byte(h), byte(h>>8), byte(h>>16), 7)
		}
		h := r<<3 | 1
		b = append(b, byte(h), byte(h>>8), byte(h>>16))
		b = append(b, make([]byte, r)...)
		return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, crc32.MakeTable(crc32.Castagnoli))), plain
	}
	return nil, 0
}

// crafted returns a segment whose "victim" frame is replaced by a same-length
// ZSTD unit of RLE blocks declaring more than the default unit ceiling.
func crafted(t *testing.T) ([]byte, int) {
	return craftedN(t, 3000, limits.DefaultMaxBytes)
}

func craftedN(t *testing.T, victims, maxPlain int) ([]byte, int) {
	t.Helper()
	b, f := buildDecmemN(t, "victim", victims)
	c, plain := craftZstdUnit(len(f), maxPlain)
	if c == nil || plain <= reader.DefaultMaxUnitBytes {
		t.Fatalf("frame of %d bytes: cannot declare more than %d bytes (%d)", len(f), reader.DefaultMaxUnitBytes, plain)
	}
	i := bytes.Index(b, f)
	copy(b[i:], c)
	return fixCRCs(b), plain
}

// Issue 16, item 1: a crafted unit declaring tens of MiB (a valid zstd frame of
// RLE blocks) fails with ErrLimit under the default ceiling, naming the term
// and window, without allocating what it declares; Verify too. Raising the
// ceiling lets the reader inflate it (and then find it corrupt).
func TestCraftedUnitOverTheCeiling(t *testing.T) {
	b, plain := crafted(t)
	t.Logf("crafted unit declares %d bytes in a segment of %d", plain, len(b))
	s, err := openBytes(b)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	queries := []reader.Query{
		reader.Phrase("text", "victim", "w1"),
		reader.Phrase("text", "w1", "victim"),
	}
	for _, q := range queries {
		var qerr error
		alloc := testkit.AllocBytes(func() { _, qerr = s.Docs(bg, q, nil) })
		if !errors.Is(qerr, snii.ErrLimit) {
			t.Fatalf("%v: %v, want ErrLimit", q, qerr)
		}
		var se *snii.SegmentError
		if !errors.As(qerr, &se) || se.Term != "victim" || se.Window < 0 || !strings.Contains(qerr.Error(), "MaxUnitBytes") {
			t.Fatalf("%v: %v: want an error naming the term, window and the option", q, qerr)
		}
		if alloc > 4<<20 {
			t.Fatalf("%v: allocated %d bytes", q, alloc)
		}
	}
	var verr error
	alloc := testkit.AllocBytes(func() { verr = s.Verify(bg) })
	if !errors.Is(verr, snii.ErrLimit) || alloc > 4<<20 {
		t.Fatalf("Verify: %v after allocating %d bytes, want ErrLimit", verr, alloc)
	}
	if _, err := s.Docs(bg, reader.Phrase("text", "aa", "bb"), nil); err != nil {
		t.Fatalf("the other terms: %v", err)
	}

	// A ceiling above the declared length: the unit is inflated, through the budget.
	bud := reader.NewDecodeBudget(limits.DefaultMaxBytes)
	s2, err := reader.OpenReaderAt(context.Background(), bytes.NewReader(b), int64(len(b)), reader.Options{MaxUnitBytes: limits.DefaultMaxBytes, DecodeBudget: bud})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	_, err = s2.Docs(bg, queries[0], nil)
	if err == nil || errors.Is(err, snii.ErrLimit) {
		t.Fatalf("ceiling raised: %v, want a corruption error after inflating", err)
	}
	if p := bud.Peak(); p < int64(plain) || bud.InUse() != 0 {
		t.Fatalf("budget peak %d (want >= %d), in use %d after the query", p, plain, bud.InUse())
	}
}

func TestMaxUnitBytesValidated(t *testing.T) {
	b, _ := buildDecmem(t, "")
	for _, v := range []int{-1, limits.DefaultMaxBytes + 1} {
		if _, err := reader.OpenReaderAt(context.Background(), bytes.NewReader(b), int64(len(b)), reader.Options{MaxUnitBytes: v}); !errors.Is(err, snii.ErrInvalidArgument) {
			t.Fatalf("MaxUnitBytes %d: %v", v, err)
		}
	}
}

// Concurrent phrase queries that each inflate two 60 KiB units share a budget
// that holds only two or three such buffers: the budget is never exceeded, every
// query either answers correctly or fails with ErrLimit (it held one buffer
// while every other holder waited), and most answer.
func TestDecodeBudgetConcurrent(t *testing.T) {
	b, _ := buildDecmem(t, "")
	q := reader.Phrase("text", "aa", "bb")
	ref, err := openBytes(b)
	if err != nil {
		t.Fatal(err)
	}
	want, err := ref.Docs(bg, q, nil)
	ref.Close()
	if err != nil || len(want) != 51 {
		t.Fatalf("reference: %v %v", want, err)
	}
	for _, limit := range []int64{150 << 10, 400 << 10} {
		bud := reader.NewDecodeBudget(limit)
		s, err := reader.OpenReaderAt(context.Background(), bytes.NewReader(b), int64(len(b)), reader.Options{DecodeBudget: bud})
		if err != nil {
			t.Fatal(err)
		}
		var mu sync.Mutex
		ok, limited := 0, 0
		parallel(8, func(int) {
			for k := 0; k < 15; k++ {
				got, err := s.Docs(bg, q, nil)
				mu.Lock()
				switch {
				case err == nil && len(got) == len(want):
					ok++
				case errors.Is(err, snii.ErrLimit):
					limited++
				default:
					mu.Unlock()
					t.Errorf("budget %d: %v (%d docs)", limit, err, len(got))
					return
				}
				mu.Unlock()
			}
		})
		s.Close()
		t.Logf("budget %d: %d answered, %d ErrLimit, peak %d", limit, ok, limited, bud.Peak())
		if bud.Peak() > limit || bud.Peak() < 100<<10 || bud.InUse() != 0 || bud.Waiting() != 0 {
			t.Fatalf("budget %d: peak %d, in use %d, waiting %d", limit, bud.Peak(), bud.InUse(), bud.Waiting())
		}
		if ok == 0 {
			t.Fatalf("budget %d: no query answered", limit)
		}
	}
	// A budget smaller than one buffer: the query fails at once.
	s, err := reader.OpenReaderAt(context.Background(), bytes.NewReader(b), int64(len(b)), reader.Options{DecodeBudget: reader.NewDecodeBudget(32 << 10)})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Docs(bg, q, nil); !errors.Is(err, snii.ErrLimit) || !strings.Contains(err.Error(), "whole bound") {
		t.Fatalf("budget under one buffer: %v", err)
	}
}

// A query waiting for decode memory returns promptly when its context is
// cancelled, and the budget is unchanged.
func TestDecodeBudgetWaitCancelled(t *testing.T) {
	b, _ := buildDecmem(t, "")
	bud := reader.NewDecodeBudget(150 << 10)
	hold := reader.NewDecodeBudgetHold(bud, 100<<10) // another query holding 100 KiB
	s, err := reader.OpenReaderAt(context.Background(), bytes.NewReader(b), int64(len(b)), reader.Options{DecodeBudget: bud})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx, cancel := context.WithCancel(bg)
	done := make(chan error, 1)
	go func() {
		_, err := s.Docs(ctx, reader.Phrase("text", "aa", "bb"), nil)
		done <- err
	}()
	for bud.Waiting() == 0 {
		select {
		case err := <-done:
			t.Fatalf("the query did not wait: %v", err)
		case <-time.After(time.Millisecond):
		}
	}
	t0 := time.Now()
	cancel()
	err = <-done
	if !errors.Is(err, context.Canceled) || time.Since(t0) > time.Second {
		t.Fatalf("%v after %v, want context.Canceled at once", err, time.Since(t0))
	}
	if bud.InUse() != 100<<10 || bud.Waiting() != 0 {
		t.Fatalf("in use %d, waiting %d", bud.InUse(), bud.Waiting())
	}
	// Released, the memory serves the next query.
	hold()
	if _, err := s.Docs(bg, reader.Phrase("text", "aa", "bb"), nil); err != nil {
		t.Fatal(err)
	}
	if bud.InUse() != 0 {
		t.Fatalf("in use %d", bud.InUse())
	}
}

// Two queries each hold memory and each want more than is free: the first
// waits (the other runs and may give back), the second would make the wait
// endless, so it fails at once with ErrLimit; when it ends, the first gets its
// memory.
func TestDecodeBudgetStandstill(t *testing.T) {
	b := reader.NewDecodeBudget(150)
	if err := reader.DecodeBudgetAcquire(b, bg, 0, 60); err != nil {
		t.Fatal(err)
	}
	if err := reader.DecodeBudgetAcquire(b, bg, 0, 60); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- reader.DecodeBudgetAcquire(b, bg, 60, 60) }()
	for b.Waiting() == 0 {
		time.Sleep(time.Millisecond)
	}
	if err := reader.DecodeBudgetAcquire(b, bg, 60, 60); !errors.Is(err, snii.ErrLimit) || !strings.Contains(err.Error(), "waits too") {
		t.Fatalf("second holder: %v, want ErrLimit at once", err)
	}
	reader.DecodeBudgetRelease(b, 60)
	if err := <-done; err != nil {
		t.Fatalf("first holder: %v", err)
	}
	reader.DecodeBudgetRelease(b, 120)
	if b.InUse() != 0 || b.Peak() != 150-30 || b.Waiting() != 0 {
		t.Fatalf("in use %d, peak %d, waiting %d", b.InUse(), b.Peak(), b.Waiting())
	}
	if err := reader.DecodeBudgetAcquire(b, bg, 100, 60); !errors.Is(err, snii.ErrLimit) {
		t.Fatalf("over the whole bound: %v", err)
	}
}

// TestCraftedUnitConcurrent: eight phrase queries at once on a unit that
// declares tens of MiB, under the default bounds, each fail with ErrLimit, and
// together allocate less than 4 MiB (a quarter of the default ceiling): no
// query inflates what the unit declares, however many run (docs/BENCHMARKS.md,
// "Limits and bad input").
func TestCraftedUnitConcurrent(t *testing.T) {
	b, plain := crafted(t)
	s, err := openBytes(b)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const n = 8
	var mu sync.Mutex
	var errs []error
	alloc := testkit.AllocBytes(func() {
		parallel(n, func(int) {
			_, err := s.Docs(bg, reader.Phrase("text", "victim", "w1"), nil)
			mu.Lock()
			errs = append(errs, err)
			mu.Unlock()
		})
	})
	for _, err := range errs {
		if !errors.Is(err, snii.ErrLimit) {
			t.Fatalf("%v, want ErrLimit", err)
		}
	}
	if len(errs) != n || alloc > 4<<20 {
		t.Fatalf("%d queries allocated %d bytes together (the unit declares %d)", len(errs), alloc, plain)
	}
	t.Logf("%d queries: %d bytes allocated, the unit declares %d", n, alloc, plain)
}
