package reader

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/snii-go/snii/writer"
)

// TestStoreIndexLazy: opening a segment and counting a query leave the
// store's block index undecoded; the first read of a record decodes it once,
// and Store reports the same blocks before and after.
func TestStoreIndexLazy(t *testing.T) {
	ctx := context.Background()
	p := filepath.Join(t.TempDir(), "lazy.snii")
	w, err := writer.Create(ctx, p, writer.DefaultOptions("text"))
	if err != nil {
		t.Fatal(err)
	}
	var recs [][]byte
	for i := range 3000 {
		r := fmt.Appendf(nil, "line %d host db-%d connection refused after %d ms", i, i%7, i*13%1000)
		recs = append(recs, r)
		if _, err := w.Add(writer.Document{Fields: []writer.Field{{Name: "text", Values: []string{string(r)}}}, Record: r}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	for _, o := range []Options{{}, {NoMmap: true}} {
		s, err := Open(p, o)
		if err != nil {
			t.Fatal(err)
		}
		before, ok := s.Store()
		if !ok || before.Blocks < 2 {
			t.Fatalf("store %+v, %v: want a store of several blocks", before, ok)
		}
		n, err := s.Count(ctx, Term("text", "refused"), nil)
		if err != nil || n != uint64(len(recs)) {
			t.Fatalf("count %d, %v", n, err)
		}
		if s.store.idx != nil || s.store.err != nil {
			t.Fatalf("NoMmap %v: open and count decoded the store's block index", o.NoMmap)
		}
		ids := []uint32{0, uint32(len(recs) / 2), uint32(len(recs) - 1)}
		err = s.Records(ctx, ids, func(id uint32, rec []byte) error {
			if !bytes.Equal(rec, recs[id]) {
				return fmt.Errorf("record %d: %q, want %q", id, rec, recs[id])
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		ix := s.store.idx
		if ix == nil || len(ix.blocks) != before.Blocks {
			t.Fatalf("after Records: index %v, want %d blocks", ix, before.Blocks)
		}
		if err := s.Verify(ctx); err != nil {
			t.Fatal(err)
		}
		if s.store.idx != ix {
			t.Fatal("Verify decoded the block index again")
		}
		if after, _ := s.Store(); after != before {
			t.Fatalf("Store %+v after reading records, %+v before", after, before)
		}
		s.Close()
	}
}
