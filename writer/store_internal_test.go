package writer

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"testing"

	"github.com/snii-go/snii/internal/testkit"
)

// TestStoreWriterMemory: the store's writer (its zstd encoder, blocks and
// buffers) allocates a bounded few MiB while it compresses blocks: zstd's
// default window would give its encoder a 16 MiB history buffer.
func TestStoreWriterMemory(t *testing.T) {
	rec := bytes.Repeat([]byte(`{"msg":"GET /api/v1/items 200 in 3ms","host":"db-1"} `), 40)
	o := DefaultOptions("text")
	var st *storeWriter
	n := testkit.AllocBytes(func() {
		var err error
		if st, err = newStoreWriter(&o, io.Discard); err != nil {
			t.Fatal(err)
		}
		for range 200 {
			if err := st.add(rec); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := st.finish(0); err != nil {
			t.Fatal(err)
		}
	})
	st.close()
	if len(st.meta.Blocks) < 20 {
		t.Fatalf("%d blocks: the encoder was hardly used", len(st.meta.Blocks))
	}
	if n > 10<<20 {
		t.Errorf("the store's writer allocated %d bytes for %d blocks", n, len(st.meta.Blocks))
	}
	t.Logf("%d bytes allocated for %d blocks", n, len(st.meta.Blocks))
}

// TestStoreReserve: a Writer that keeps records spills its term buffers
// before they reach MemoryLimit less the store's reserve (a quarter of a
// small limit); one without a store lets them reach the limit. The documents
// fill the buffers several times over, so that the reserve shows in the
// number of spills.
func TestStoreReserve(t *testing.T) {
	var docs []Document
	for i := range 30000 {
		v := fmt.Sprintf("w%d w%d w%d connection refused host-%d", i%977, i%131, i, i%17)
		d := Doc("text", v)
		d.Record = []byte(v)
		docs = append(docs, d)
	}
	peak := func(noStore bool) Stats {
		o := DefaultOptions("text")
		o.MemoryLimit = 1 << 20
		o.NoStore = noStore
		w, err := Create(t.Context(), filepath.Join(t.TempDir(), "s.snii"), o)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range docs {
			if _, err := w.Add(d); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		return w.Stats()
	}
	with, without := peak(false), peak(true)
	t.Logf("spills %d with a store, %d without", with.Spills, without.Spills)
	if with.Spills <= without.Spills || with.PeakBuffered > 3<<18+64<<10 || without.PeakBuffered <= 3<<18 {
		t.Errorf("peak term buffers %d with a store (%d spills), %d without (%d spills); limit 1 MiB, store reserve 256 KiB",
			with.PeakBuffered, with.Spills, without.PeakBuffered, without.Spills)
	}
}

// TestStoreWriterTrim: after the block of a large record, the store's writer
// does not keep block buffers of its size.
func TestStoreWriterTrim(t *testing.T) {
	o := DefaultOptions("text")
	st, err := newStoreWriter(&o, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer st.close()
	small := bytes.Repeat([]byte("GET /api/v1/items 200 "), 20)
	big := make([]byte, 1<<20)
	for i := range big {
		big[i] = byte(i * 7 % 251)
	}
	for _, r := range [][]byte{small, small, big, small, small} {
		for range 30 {
			if err := st.add(r); err != nil {
				t.Fatal(err)
			}
			r = small
		}
	}
	if _, err := st.finish(0); err != nil {
		t.Fatal(err)
	}
	if n := cap(st.plain) + cap(st.comp); n > storeKeep {
		t.Errorf("the writer keeps %d bytes of block buffers after a record of %d bytes (at most %d)", n, len(big), storeKeep)
	}
}
