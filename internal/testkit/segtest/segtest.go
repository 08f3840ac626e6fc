package segtest

import (
	"context"
	"testing"

	"github.com/snii-go/snii/writer"
)

// Build writes docs into a new segment at path with o and returns the
// writer's stats. It fails tb unless every Add succeeds and returns the ids
// 0, 1, 2, … in order, and the segment is published.
func Build(tb testing.TB, path string, o writer.Options, docs []writer.Document) writer.Stats {
	tb.Helper()
	w, err := writer.Create(context.Background(), path, o)
	if err != nil {
		tb.Fatal(err)
	}
	for i, d := range docs {
		id, err := w.Add(d)
		if err != nil {
			tb.Fatalf("Add doc %d: %v", i, err)
		}
		if id != uint32(i) {
			tb.Fatalf("Add doc %d: got id %d", i, id)
		}
	}
	if err := w.Close(); err != nil {
		tb.Fatalf("Close: %v", err)
	}
	return w.Stats()
}
