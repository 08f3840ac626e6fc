package writer

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/snii-go/snii/internal/codec/format"
	"github.com/snii-go/snii/internal/codec/zstdopt"
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
// does not keep block or frame buffers of its size.
func TestStoreWriterTrim(t *testing.T) {
	o := DefaultOptions("text")
	st, err := newStoreWriter(&o, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer st.close()
	small := bytes.Repeat([]byte("GET /api/v1/items 200 "), 20)
	big := make([]byte, 1<<20) // incompressible: its zstd frame is as large
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range big {
		big[i] = byte(rng.Uint32())
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
	if n := cap(st.frame); n > storeKeep {
		t.Errorf("the writer keeps a frame buffer of %d bytes after a record of %d bytes (at most %d)", n, len(big), storeKeep)
	}
}

// TestStoreRawLiterals: a store block is the zstd frame of its plain bytes
// with the literals stored raw exactly when their Huffman coding saves at
// most storeRawLitsMax bytes (else the encoder's frame as it is), and every
// block decodes to its plain bytes. The records make blocks of both kinds:
// lines that repeat with few changes (few literals) and lines of words and
// numbers drawn at random (many literals).
func TestStoreRawLiterals(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	words := strings.Fields("connection refused closed session opened for user root by uid timeout kernel mount cache error retry")
	var out bytes.Buffer
	o := DefaultOptions("text")
	st, err := newStoreWriter(&o, &out)
	if err != nil {
		t.Fatal(err)
	}
	defer st.close()
	var plains [][]byte
	var b format.StoreBlockBuilder
	add := func(rec []byte) {
		if !b.Fits(len(rec)) {
			p, _ := b.TakePlain(nil)
			plains = append(plains, p)
		}
		b.Add(rec)
		if err := st.add(rec); err != nil {
			t.Fatal(err)
		}
	}
	for k := 0; k < 40; k++ {
		for range 200 {
			var rec []byte
			if k%2 == 0 {
				rec = fmt.Appendf(nil, "[Sun Dec 04 04:%02d:%02d 2005] [notice] workerEnv.init() ok /etc/httpd/conf/workers2.properties", rng.IntN(60), rng.IntN(60))
			} else {
				rec = fmt.Appendf(nil, "%d %s %x", rng.IntN(1e6), words[rng.IntN(len(words))], rng.Uint64())
				for range 1 + rng.IntN(6) {
					rec = fmt.Appendf(rec, " %s=%d", words[rng.IntN(len(words))], rng.IntN(1e5))
				}
			}
			add(rec)
		}
	}
	p, _ := b.TakePlain(nil)
	plains = append(plains, p)
	m, err := st.finish(0)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Blocks) != len(plains) {
		t.Fatalf("%d blocks, %d expected", len(m.Blocks), len(plains))
	}
	enc, err := zstdopt.NewEncoderWindow(storeZstdLevel, storeWindow)
	if err != nil {
		t.Fatal(err)
	}
	dec, err := zstdopt.NewDecoder(1 << 20)
	if err != nil {
		t.Fatal(err)
	}
	var sh zstdopt.Sharer
	data, off, raw, huff := out.Bytes(), 0, 0, 0
	for i, sb := range m.Blocks {
		stored := data[off : off+int(sb.StoredLen)]
		off += int(sb.StoredLen)
		got, err := format.DecodeStoreBlock(stored, i, sb, func(dst, src []byte) ([]byte, error) { return dec.DecodeAll(src, dst) }, nil)
		if err != nil || !bytes.Equal(got, plains[i]) {
			t.Fatalf("block %d does not decode to its records: %v", i, err)
		}
		frame := enc.EncodeAll(plains[i], nil)
		want := frame
		if r, saving, ok := sh.RawLiterals(frame, nil); ok && saving <= storeRawLitsMax {
			want = r
			raw++
		} else if ok {
			huff++
		}
		if sb.Flags != format.StoreFlagZstd || !bytes.Equal(stored, want) {
			t.Fatalf("block %d: stored %d bytes (flags %d), want the %d-byte frame", i, len(stored), sb.Flags, len(want))
		}
	}
	if raw == 0 || huff == 0 {
		t.Fatalf("%d blocks with raw literals, %d with Huffman-coded ones: the test needs both", raw, huff)
	}
	t.Logf("%d blocks: %d with raw literals, %d with Huffman-coded ones", len(m.Blocks), raw, huff)
}
