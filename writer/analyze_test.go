package writer_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/snii-go/snii/analysis"
	"github.com/snii-go/snii/internal/errs"
	"github.com/snii-go/snii/internal/testkit"
	"github.com/snii-go/snii/writer"
)

// docSize is a document's size as Add weighs it for analysis on its own
// goroutine: its values' bytes and analysis.ValueGap a value.
func docSize(d writer.Document) int64 {
	var n int64
	for _, f := range d.Fields {
		for _, v := range f.Values {
			n += int64(len(v)) + analysis.ValueGap
		}
	}
	return n
}

// addReused adds docs through one Document whose Fields and Values slices
// are reused, and overwritten once Add returns, as a caller reading its
// input into a buffer does; it returns the Stats after half the documents.
func addReused(t *testing.T, w *writer.Writer, docs []writer.Document) writer.Stats {
	t.Helper()
	var doc writer.Document
	var vals []string
	var mid writer.Stats
	for i, d := range docs {
		doc.Fields, vals = doc.Fields[:0], vals[:0]
		for _, f := range d.Fields {
			at := len(vals)
			vals = append(vals, f.Values...)
			doc.Fields = append(doc.Fields, writer.Field{Name: f.Name, Values: vals[at:len(vals):len(vals)]})
		}
		if _, err := w.Add(doc); err != nil {
			t.Fatalf("Add %d: %v", i, err)
		}
		for k := range vals {
			vals[k] = "overwritten after add"
		}
		for k := range doc.Fields {
			doc.Fields[k].Name = "title"
		}
		if i == len(docs)/2 {
			mid = w.Stats()
		}
	}
	return mid
}

// TestAnalysisGoroutine: with GOMAXPROCS 2, documents analyzed on the
// analysis goroutine (the caller reusing and overwriting its Document once
// Add returns), and among them documents analyzed by their own Add (over
// the size threshold, here lowered), give the bytes and the counters of a
// serial build, with and without spills.
func TestAnalysisGoroutine(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	docs := pairPathDocs(3000)
	const syncAt = 1200
	big := 0
	for _, d := range docs {
		if docSize(d) >= syncAt {
			big++
		}
	}
	if big == 0 || big > len(docs)/4 {
		t.Fatalf("%d of %d documents of %d bytes or more: want a few", big, len(docs), syncAt)
	}
	dir := t.TempDir()
	for _, limit := range []int64{0, 256 << 10} {
		var ref []byte
		var refMid, refEnd writer.Stats
		for _, c := range []struct {
			name  string
			fl    writer.Faults
			async int // documents analyzed on the analysis goroutine
		}{
			{"serial", writer.Faults{FailAfter: -1, Serial: true}, 0},
			{"analysis goroutine", writer.Faults{FailAfter: -1}, len(docs)},
			{"some documents analyzed by Add", writer.Faults{FailAfter: -1, SyncDoc: syncAt}, len(docs) - big},
		} {
			o := pairPathOptions()
			if limit > 0 {
				o.MemoryLimit = limit
			}
			o = writer.WithFaults(o, &c.fl)
			path := filepath.Join(dir, fmt.Sprintf("l%d-%s.snii", limit, strings.ReplaceAll(c.name, " ", "-")))
			w, err := writer.Create(context.Background(), path, o)
			if err != nil {
				t.Fatal(err)
			}
			mid := addReused(t, w, docs)
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			end := w.Stats()
			if got := c.fl.AsyncDocs(); got != c.async {
				t.Errorf("limit %d, %s: %d documents analyzed on the analysis goroutine, want %d", limit, c.name, got, c.async)
			}
			if mid.Docs != uint64(len(docs)/2+1) || mid.Positions == 0 || mid.Positions >= end.Positions {
				t.Errorf("limit %d, %s: Stats after %d docs: %+v (at the end %+v)", limit, c.name, len(docs)/2+1, mid, end)
			}
			if limit > 0 && end.Spills == 0 {
				t.Errorf("limit %d, %s: no spill", limit, c.name)
			}
			b := testkit.ReadFile(t, path)
			if ref == nil {
				ref, refMid, refEnd = b, mid, end
				checkAgainstOracle(t, path, pairPathOptions(), docs)
				continue
			}
			if !bytes.Equal(b, ref) {
				t.Errorf("limit %d, %s: the segment differs from a serial build's", limit, c.name)
			}
			if mid != refMid || end.Positions != refEnd.Positions || end.SkippedTokens != refEnd.SkippedTokens || end.BytesIn != refEnd.BytesIn || end.Spills != refEnd.Spills {
				t.Errorf("limit %d, %s: Stats differ: mid %+v / %+v, end %+v / %+v", limit, c.name, mid, refMid, end, refEnd)
			}
		}
	}
}

// waitGoroutines waits until at most n goroutines run (they end after the
// build has returned) and fails after a while.
func waitGoroutines(t *testing.T, what string, n int) {
	t.Helper()
	for i := 0; ; i++ {
		if runtime.NumGoroutine() <= n {
			return
		}
		if i == 500 {
			t.Errorf("%s: %d goroutines, %d before the build", what, runtime.NumGoroutine(), n)
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestAnalysisGoroutineEnds: a build aborted, failed by a write or
// cancelled while the analysis goroutine and the inverter hold batches ends
// them and leaves no file behind.
func TestAnalysisGoroutineEnds(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	docs := pairPathDocs(2000)
	o := pairPathOptions()
	o.MemoryLimit = 256 << 10 // spills: the inverter writes
	before := runtime.NumGoroutine()
	for _, how := range []string{"abort", "write fails", "cancel"} {
		dir, tmp := t.TempDir(), t.TempDir()
		o.TempDir = tmp
		ctx, cancel := context.WithCancel(context.Background())
		fl := &writer.Faults{FailAfter: -1}
		if how == "write fails" {
			fl.FailAfter = 64 << 10
		}
		w, err := writer.Create(ctx, filepath.Join(dir, "seg.snii"), writer.WithFaults(o, fl))
		if err != nil {
			t.Fatal(err)
		}
		var addErr error
		for i, d := range docs {
			if i == len(docs)/2 {
				switch how {
				case "abort":
					if err := w.Abort(); err != nil {
						t.Fatal(err)
					}
				case "cancel":
					cancel()
				}
			}
			if _, addErr = w.Add(d); addErr != nil {
				break
			}
		}
		cancel()
		switch {
		case addErr == nil:
			t.Errorf("%s: every Add succeeded", how)
		case how == "write fails" && !fl.Fired():
			t.Errorf("%s: Add failed without the fault: %v", how, addErr)
		case how == "cancel" && !errors.Is(addErr, context.Canceled):
			t.Errorf("%s: Add: %v, want the context's error", how, addErr)
		}
		if err := w.Close(); err == nil {
			t.Errorf("%s: Close succeeded", how)
		}
		waitGoroutines(t, how, before)
		checkNothingLeft(t, how, dir, tmp)
	}
}

const farAnalyzer = "writertest-far"

func init() {
	analysis.Register(farAnalyzer, 1, func(analysis.Spec) (analysis.Analyzer, error) { return farPositions{}, nil })
}

// farPositions emits each value's first word at position 0 and says the
// value took 2^32 - 1 positions, so a second value's token lies past 2^32.
type farPositions struct{}

func (farPositions) Analyze(text string, emit func(term []byte, pos uint32)) (uint32, uint32) {
	if w := strings.Fields(text); len(w) > 0 {
		emit([]byte(w[0]), 0)
	}
	return math.MaxUint32, 0
}

// TestAnalysisLimitRejectsDocument: a document over an analysis limit (a
// position past 2^32, from a registered analyzer) is rejected by its own
// Add with an error wrapping ErrLimit, with GOMAXPROCS 2 too, and the build
// goes on without it.
func TestAnalysisLimitRejectsDocument(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	o := writer.DefaultOptions("text")
	o.Fields = append(o.Fields, writer.FieldOptions{Name: "far", Analyzer: farAnalyzer})
	dir := t.TempDir()
	w, err := writer.Create(context.Background(), filepath.Join(dir, "seg.snii"), o)
	if err != nil {
		t.Fatal(err)
	}
	docs := []writer.Document{
		writer.Doc("text", "first", "far", "one"),
		writer.Doc("text", "second", "far", "one", "far", "two"),
		writer.Doc("text", "third", "far", "three"),
	}
	for i, d := range docs {
		id, err := w.Add(d)
		switch {
		case i == 1 && (!errors.Is(err, errs.Limit) || !strings.Contains(err.Error(), "2^32 positions")):
			t.Errorf("Add of the document past 2^32 positions: %v, want a limit error", err)
		case i != 1 && err != nil:
			t.Fatalf("Add %d: %v", i, err)
		case i == 2 && id != 1:
			t.Errorf("the document after the rejected one got id %d, want 1", id)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if st := w.Stats(); st.Docs != 2 {
		t.Errorf("%d documents, want 2", st.Docs)
	}
	checkAgainstOracle(t, filepath.Join(dir, "seg.snii"), o, []writer.Document{docs[0], docs[2]})
}
