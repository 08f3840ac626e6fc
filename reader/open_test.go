package reader_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"sync/atomic"
	"testing"

	"github.com/snii-go/snii/internal/codec/format"
	"github.com/snii-go/snii/internal/seam"
	"github.com/snii-go/snii/internal/testkit/oracle"
	"github.com/snii-go/snii/reader"
)

// countingReaderAt counts the bytes read through it.
type countingReaderAt struct {
	r     io.ReaderAt
	bytes atomic.Int64
	reads atomic.Int64
}

func (c *countingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	c.bytes.Add(int64(len(p)))
	c.reads.Add(1)
	return c.r.ReadAt(p, off)
}

// TestOpenReadsOnlyMetadata: Open reads exactly the header, the tail, the
// directory and the metadata groups (which hold the sampled term index), however
// large the posting and dict regions are.
func TestOpenReadsOnlyMetadata(t *testing.T) {
	for _, n := range []int{200, 2000, 8000} {
		docs := oracle.Generate(51, oracle.GenOptions{Docs: n})
		b, err := os.ReadFile(build(t, docs, options(-1, "host", "text")))
		if err != nil {
			t.Fatal(err)
		}
		cr := &countingReaderAt{r: bytes.NewReader(b)}
		s, err := reader.OpenReaderAt(context.Background(), cr, int64(len(b)), reader.Options{})
		if err != nil {
			t.Fatal(err)
		}
		dirOff := binary.LittleEndian.Uint64(b[len(b)-32:])
		want := int64(16 + uint64(len(b)) - dirOff) // header, directory and tail
		dir, err := format.DecodeDirectory(b[dirOff : len(b)-32])
		if err != nil {
			t.Fatal(err)
		}
		st, ok := s.Store()
		if !ok {
			t.Fatal("no store")
		}
		want += int64(dir.StoreLen) // the store header (its blocks are not read)
		var meta int64
		for k, f := range s.Fields() {
			info, _ := seam.IndexMeta(s, f)
			end := dir.StoreOff - (st.Bytes - dir.StoreLen) // the last metadata group ends where the store's blocks start
			if k+1 < len(s.Fields()) {
				next, _ := seam.IndexMeta(s, s.Fields()[k+1])
				end = next.PostingOff
			}
			meta += int64(end - info.End())
		}
		want += meta
		if got := cr.bytes.Load(); got != want {
			t.Errorf("%d docs (%d-byte file): Open read %d bytes in %d reads, want %d (header, tail, directory, %d bytes of metadata)",
				n, len(b), got, cr.reads.Load(), want, meta)
		}
		t.Logf("%d docs, %d-byte file: Open read %d bytes in %d reads", n, len(b), cr.bytes.Load(), cr.reads.Load())
		s.Close()
	}
}

func benchCorpus(b *testing.B, n int, policy int) (*reader.Segment, *oracle.Corpus) {
	docs := oracle.Generate(61, oracle.GenOptions{Docs: n})
	s, err := reader.Open(build(b, docs, options(policy, "host", "text")), reader.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s, corpusOf(docs)
}

func BenchmarkQueries(b *testing.B) {
	s, c := benchCorpus(b, 20000, -1)
	g := oracle.NewGen(c, "text", 5)
	kinds := map[string]func() oracle.Query{"term": g.Term, "phrase": g.Phrase, "phraseprefix": g.PhrasePrefix, "prefix": g.Prefix}
	for _, name := range []string{"term", "phrase", "phraseprefix", "prefix"} {
		qs := make([]reader.Query, 64)
		for i := range qs {
			qs[i] = rq(kinds[name]())
		}
		b.Run(name+"/docs", func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := s.Docs(bg, qs[i%len(qs)], nil); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/count", func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := s.Count(bg, qs[i%len(qs)], nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkOpen opens segments of growing size: the time must not grow with
// the index (only the metadata is read).
func BenchmarkOpen(b *testing.B) {
	for _, n := range []int{1000, 10000, 40000} {
		docs := oracle.Generate(71, oracle.GenOptions{Docs: n})
		path := build(b, docs, options(-1, "host", "text"))
		st, _ := os.Stat(path)
		b.Run(fmt.Sprintf("docs=%d/bytes=%d", n, st.Size()), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				s, err := reader.Open(path, reader.Options{})
				if err != nil {
					b.Fatal(err)
				}
				s.Close()
			}
		})
	}
}
