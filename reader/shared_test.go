package reader_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"slices"
	"testing"

	"github.com/snii-go/snii"
	"github.com/snii-go/snii/internal/seam"
	"github.com/snii-go/snii/internal/testkit/oracle"
	"github.com/snii-go/snii/limits"
	"github.com/snii-go/snii/reader"
)

// TestSharedCacheThousandSegments: 1,000 open segments sharing one BlockCache
// and one Decoders keep their decoded dict blocks within the cache's bytes and
// their idle decoders within the pool's count, while each answers as the
// oracle; alone, each would keep its blocks (more than the bound in total).
// Closing the segments empties the cache.
func TestSharedCacheThousandSegments(t *testing.T) {
	docs := oracle.Generate(81, oracle.GenOptions{Docs: 400})
	b, err := os.ReadFile(build(t, docs, options(-1, "host", "text")))
	if err != nil {
		t.Fatal(err)
	}
	c := corpusOf(docs)
	qs := genQueries(c, "text", 3, 2)
	const n, bound = 1000, 256 << 10
	cache := reader.NewBlockCache(bound)
	dec, err := reader.NewDecoders(limits.Limits{}, 4)
	if err != nil {
		t.Fatal(err)
	}
	segs := make([]*reader.Segment, n)
	var decoded int64
	for i := range segs {
		s, err := reader.OpenReaderAt(context.Background(), bytes.NewReader(b), int64(len(b)), reader.Options{BlockCache: cache, Decoders: dec})
		if err != nil {
			t.Fatal(err)
		}
		segs[i] = s
		for k, q := range qs.qs {
			var prof reader.Profile
			got, err := s.Docs(bg, rq(q), &reader.SearchOptions{Profile: &prof})
			if err != nil {
				t.Fatal(err)
			}
			if (i+k)%50 == 0 && !slices.Equal(got, qs.want[k]) {
				t.Fatalf("segment %d: %s: got %s, want %s", i, q, oracle.Describe(got), oracle.Describe(qs.want[k]))
			}
			decoded += prof.DictBlocksRead
		}
		if used := cache.Used(); used > bound {
			t.Fatalf("after %d segments: the cache holds %d bytes, over its bound %d", i+1, used, bound)
		}
		if src, dict := dec.Idle(); src > 4 || dict > 4 {
			t.Fatalf("after %d segments: %d idle sources, %d idle dict decoders (bound 4)", i+1, src, dict)
		}
	}
	info, _ := seam.IndexMeta(segs[0], "text")
	var blockBytes int64
	for _, bi := range info.Blocks {
		blockBytes += int64(bi.PlainLen) + 256
	}
	if total := blockBytes * n; total <= 4*bound {
		t.Fatalf("the segments' blocks take %d bytes in all, too few to test the bound %d", total, bound)
	}
	if decoded <= int64(len(info.Blocks)) {
		t.Errorf("%d blocks decoded in all: the segments did not each read their own", decoded)
	}
	t.Logf("%d segments of %d blocks (%d bytes decoded each); cache %d of %d bytes, %d blocks; %d blocks decoded",
		n, len(info.Blocks), blockBytes, cache.Used(), bound, cache.Len(), decoded)
	for _, s := range segs {
		s.Close()
	}
	if used, l := cache.Used(), cache.Len(); used != 0 || l != 0 {
		t.Errorf("after Close: the cache holds %d bytes in %d blocks", used, l)
	}
	other, _ := reader.NewDecoders(limits.Limits{MaxDocs: 100}, 0)
	if _, err := reader.OpenReaderAt(context.Background(), bytes.NewReader(b), int64(len(b)), reader.Options{Decoders: other}); !errors.Is(err, snii.ErrInvalidArgument) {
		t.Errorf("decoders of other limits: %v, want ErrInvalidArgument", err)
	}
}
