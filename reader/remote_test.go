package reader_test

import (
	"bytes"
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/snii-go/snii/internal/codec/prx"
	"github.com/snii-go/snii/internal/testkit"
	"github.com/snii-go/snii/internal/testkit/oracle"
	"github.com/snii-go/snii/objstore"
	"github.com/snii-go/snii/reader"
)

// countingRemote is an objstore.ReaderAt over bytes that counts what a remote
// store would send: Prefetch fetches the parts of its ranges not held yet in
// one round (one request per run of adjacent missing bytes, no gap merged, so
// the counts are what the reader asked for), and a read of bytes not held is
// a round of its own.
type countingRemote struct {
	*bytes.Reader
	mu   sync.Mutex
	held []bool
}

func newCountingRemote(b []byte) *countingRemote {
	return &countingRemote{Reader: bytes.NewReader(b), held: make([]bool, len(b))}
}

// forget drops every byte held (the next query starts cold).
func (c *countingRemote) forget() {
	c.mu.Lock()
	defer c.mu.Unlock()
	clear(c.held)
}

func (c *countingRemote) ReadAtContext(_ context.Context, p []byte, off int64) (objstore.Cost, error) {
	if _, err := c.ReadAt(p, off); err != nil {
		return objstore.Cost{}, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !slices.Contains(c.held[off:off+int64(len(p))], false) {
		return objstore.Cost{}, nil
	}
	return objstore.Cost{Rounds: 1, Requests: 1, Bytes: int64(len(p))}, nil
}

func (c *countingRemote) Prefetch(_ context.Context, rs []objstore.Range) (objstore.Cost, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var f objstore.Cost
	for _, r := range rs {
		end := min(r.Off+r.Len, int64(len(c.held)))
		for i := max(r.Off, 0); i < end; i++ {
			if c.held[i] {
				continue
			}
			if i == 0 || !c.held[i-1] {
				f.Requests++ // a new run (ranges are sorted: runs do not join later)
			}
			c.held[i] = true
			f.Bytes++
		}
	}
	if f.Bytes > 0 {
		f.Rounds = 1
	}
	return f, nil
}

// TestRemoteFetchFollowsCandidates: phrase queries on a segment read through
// an objstore.ReaderAt answer as the oracle does, in at most 4 rounds, and fetch
// at most 4 times the bytes they read (dictionary blocks, preludes, doc
// windows, and the .prx headers and units holding candidates) plus 16 KiB;
// over all of them, the bytes read are those decoded (not whole .prx
// windows) and the bytes fetched within a quarter more; their profile times
// the .prx decoding and the verification.
func TestRemoteFetchFollowsCandidates(t *testing.T) {
	docs := oracle.Generate(35, oracle.GenOptions{Docs: 12000})
	c := corpusOf(docs)
	b := testkit.ReadFile(t, build(t, docs, options(-1, "text", "host")))
	cr := newCountingRemote(b)
	s, err := reader.OpenReaderAt(context.Background(), cr, int64(len(b)), reader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	g := oracle.NewGen(c, "text", 7)
	var fetched, read, decoded, units int64
	kinds := []struct {
		gen    func() oracle.Query
		phrase bool // one phrase: the round and byte bounds apply
	}{
		{g.Phrase, true}, {g.PhrasePrefix, true}, {g.Repeated, true}, {g.CrossValue, true},
		{g.Phrase, true}, {g.Sloppy, true}, {g.Bool, false},
	}
	for i := range 84 {
		k := kinds[i%len(kinds)]
		q := k.gen()
		want := c.Eval(q)
		for _, noPairs := range []bool{false, true} {
			cr.forget()
			var p reader.Profile
			got, err := s.Docs(bg, rq(q), &reader.SearchOptions{Profile: &p, NoPairs: noPairs})
			if err != nil {
				t.Fatalf("%s: %v", q, err)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("%s (no pairs %v):\n got %s\nwant %s", q, noPairs, oracle.Describe(got), oracle.Describe(want))
			}
			if !k.phrase {
				continue
			}
			if p.Rounds > 4 {
				t.Errorf("%s (no pairs %v): %d rounds, want <= 4", q, noPairs, p.Rounds)
			}
			// (The slack: stage 3 fetches the windows that can hold one of the
			// rarest slot's docs, and the whole frame of a window that can
			// hold several; the conjunction may need few of them.)
			if p.FetchedBytes > 4*p.BytesRead+16<<10 {
				t.Errorf("%s (no pairs %v): fetched %d bytes to read %d", q, noPairs, p.FetchedBytes, p.BytesRead)
			}
			if noPairs { // (a pair plan reads pair lists, and the section at its first use)
				fetched += p.FetchedBytes
				read += p.BytesRead
				decoded += p.FrameBytes + p.DocCheckedBytes
			}
			if n := p.Frames[prx.CodecPFOR] + p.Frames[prx.CodecZstd]; n > 0 {
				units += n
				if time.Duration(p.DecodeNanos) <= 0 || p.VerifyTime <= 0 {
					t.Errorf("%s (no pairs %v): decoded %d PFOR or ZSTD units in %v, verified in %v", q, noPairs, n, time.Duration(p.DecodeNanos), p.VerifyTime)
				}
			}
		}
	}
	if units == 0 {
		t.Fatal("no query decoded a PFOR or ZSTD unit")
	}
	// Over the queries without pairs: the bytes read are those decoded (.prx
	// headers and units, doc windows) and the dictionary blocks and
	// preludes, under a tenth more; the bytes fetched add the guessed heads
	// and the stage 3 fetches the conjunction ends up not needing.
	if read > decoded+decoded/10 || fetched > read+read/4 {
		t.Errorf("fetched %d bytes to read %d, of which %d .prx and doc-window bytes decoded", fetched, read, decoded)
	}
	t.Logf("fetched %d bytes to read %d, decoded %d", fetched, read, decoded)
}

// TestProfileTimes: on a mapped segment too, a phrase query that decodes a
// PFOR or ZSTD unit reports a decode time and a verify time, through the
// leapfrog and (with a filter) the staged conjunction.
func TestProfileTimes(t *testing.T) {
	docs := oracle.Generate(36, oracle.GenOptions{Docs: 4000})
	c := corpusOf(docs)
	s := open(t, build(t, docs, options(-1, "text", "host")))
	g := oracle.NewGen(c, "text", 8)
	all := make([]uint32, len(docs)-1) // every doc but the last: a filter that is kept
	for i := range all {
		all[i] = uint32(i)
	}
	units := 0
	for i := range 60 {
		q := g.Phrase()
		o := &reader.SearchOptions{NoPairs: true}
		if i%2 == 1 {
			o.Filter = roaring.BitmapOf(all...)
		}
		var p reader.Profile
		o.Profile = &p
		if _, err := s.Count(bg, rq(q), o); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if n := p.Frames[prx.CodecPFOR] + p.Frames[prx.CodecZstd]; n > 0 && p.SelectedPositions > 0 {
			units++
			if time.Duration(p.DecodeNanos) <= 0 || p.VerifyTime <= 0 {
				t.Errorf("%s (filter %v): decoded %d PFOR or ZSTD units in %v, verified in %v", q, o.Filter != nil, n, time.Duration(p.DecodeNanos), p.VerifyTime)
			}
		}
	}
	if units == 0 {
		t.Fatal("no query read positions from a PFOR or ZSTD unit")
	}
}
