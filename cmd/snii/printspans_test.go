package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/snii-go/snii/reader"
)

// TestPrintSpansOnlyWhenShown: a record's highlights are computed only when
// they are printed (--color, --json), once per matching record, whether one
// goroutine or several print: without them no record is analyzed or
// matched again.
func TestPrintSpansOnlyWhenShown(t *testing.T) {
	var b strings.Builder
	const lines = 30000
	for i := range lines {
		fmt.Fprintf(&b, "%d request served by host-%d in %d ms\n", i, i%7, i%13)
	}
	dir := t.TempDir()
	log := filepath.Join(dir, "a.log")
	if err := os.WriteFile(log, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "a.snii")
	ok(t, "build", "-q", "-o", path, log)
	seg, err := reader.Open(path, reader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer seg.Close()
	rq, _, err := compileQuery(seg, "text", `"host-3"`, 0)
	if err != nil {
		t.Fatal(err)
	}
	ids, err := seg.Docs(context.Background(), rq, nil)
	if err != nil || len(ids) < lines/8 {
		t.Fatalf("%d docs, %v", len(ids), err)
	}
	for _, procs := range []int{1, 2} {
		for _, c := range []struct {
			color, json bool
		}{{false, false}, {true, false}, {false, true}} {
			func() {
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
				var calls atomic.Int64
				p := newRecordPrinter(io.Discard, &queryFlags{json: c.json}, c.color)
				p.spans = func(rec []byte) []reader.Span {
					calls.Add(1)
					return []reader.Span{{Start: 0, End: 1}}
				}
				if err := p.printSegment(context.Background(), seg, rq, ids, nil, 0); err != nil {
					t.Fatal(err)
				}
				want := int64(0)
				if c.color || c.json {
					want = int64(len(ids))
				}
				if got := calls.Load(); got != want || p.records != len(ids) || p.workers != procs {
					t.Errorf("GOMAXPROCS %d, color %v, json %v: highlights computed %d times for %d records printed of %d on %d goroutines, want %d",
						procs, c.color, c.json, got, p.records, len(ids), p.workers, want)
				}
			}()
		}
	}
}
