package writer_test

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/snii-go/snii/internal/testkit"
	"github.com/snii-go/snii/writer"
)

// TestInverterOrder: a build with its second goroutines (Add's batches
// inverted on a goroutine of their own, prx units compressed ahead) gives the
// bytes and the counters of a serial build, with and without spills, and
// Stats in the middle of a build counts every document added so far.
func TestInverterOrder(t *testing.T) {
	docs := pairPathDocs(3000)
	dir := t.TempDir()
	for _, limit := range []int64{0, 256 << 10} {
		var ref []byte
		var refMid, refEnd writer.Stats
		for _, sync := range []bool{true, false} {
			o := pairPathOptions()
			if limit > 0 {
				o.MemoryLimit = limit
			}
			o = writer.WithFaults(o, &writer.Faults{FailAfter: -1, Serial: sync})
			path := filepath.Join(dir, fmt.Sprintf("l%d-sync%v.snii", limit, sync))
			w, err := writer.Create(context.Background(), path, o)
			if err != nil {
				t.Fatal(err)
			}
			var mid writer.Stats
			for i, d := range docs {
				if _, err := w.Add(d); err != nil {
					t.Fatalf("Add %d: %v", i, err)
				}
				if i == len(docs)/2 {
					mid = w.Stats()
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			end := w.Stats()
			if mid.Docs != uint64(len(docs)/2+1) || mid.Positions == 0 || mid.Positions >= end.Positions {
				t.Errorf("limit %d, sync %v: Stats after %d docs: %+v (at the end %+v)", limit, sync, len(docs)/2+1, mid, end)
			}
			if limit > 0 && end.Spills == 0 {
				t.Errorf("limit %d: no spill", limit)
			}
			b := testkit.ReadFile(t, path)
			if sync {
				ref, refMid, refEnd = b, mid, end
				continue
			}
			if !bytes.Equal(b, ref) {
				t.Errorf("limit %d: the segment differs between a serial build and a parallel one (inverter, prx compression ahead)", limit)
			}
			if mid != refMid || end.Positions != refEnd.Positions || end.SkippedTokens != refEnd.SkippedTokens || end.Spills != refEnd.Spills {
				t.Errorf("limit %d: Stats differ: mid %+v / %+v, end %+v / %+v", limit, mid, refMid, end, refEnd)
			}
		}
	}
}
