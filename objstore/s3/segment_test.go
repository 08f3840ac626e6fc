package s3_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/snii-go/snii"

	"github.com/snii-go/snii/internal/testkit/oracle"
	"github.com/snii-go/snii/internal/testkit/s3test"
	"github.com/snii-go/snii/internal/testkit/segtest"
	"github.com/snii-go/snii/objstore/s3"
	"github.com/snii-go/snii/reader"
	"github.com/snii-go/snii/writer"
)

// buildSegment writes the oracle documents into a segment and returns its bytes.
func buildSegment(t testing.TB, docs []oracle.Doc) []byte {
	t.Helper()
	p := filepath.Join(t.TempDir(), "seg.snii")
	segtest.BuildOracle(t, p, writer.DefaultOptions("host", "text"), docs)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// oracleQueries draws n queries of each kind over field, with their answers.
func oracleQueries(c *oracle.Corpus, field string, seed uint64, n int) (qs []oracle.Query, kinds []string, want [][]uint32) {
	g := oracle.NewGen(c, field, seed)
	for _, k := range []struct {
		name string
		fn   func() oracle.Query
	}{{"term", g.Term}, {"phrase", g.Phrase}, {"repeated", g.Repeated}, {"phraseprefix", g.PhrasePrefix},
		{"prefix", g.Prefix}, {"bool", g.Bool}} {
		for range n {
			q := k.fn()
			qs, kinds, want = append(qs, q), append(kinds, k.name), append(want, c.Eval(q))
		}
	}
	return qs, kinds, want
}

// TestSegmentOracle: segments read from S3 answer every query exactly as the
// oracle; Open takes at most 2 rounds; a phrase query a bounded number.
func TestSegmentOracle(t *testing.T) {
	srv := s3test.Shared(t)
	srv.MakeBucket(t, "segs")
	ctx := t.Context()
	for ci, gen := range []oracle.GenOptions{
		{Docs: 2000},
		{Docs: 6000, Vocab: 300, Zipf: 1.4, MaxValues: 2, MaxTokens: 30}, // windowed terms
	} {
		docs := oracle.Generate(uint64(31+ci), gen)
		c := oracle.New()
		for _, d := range docs {
			c.Add(d)
		}
		data := buildSegment(t, docs)
		key := fmt.Sprintf("c%d/seg.snii", ci)
		srv.Put(t, "segs", key, data)
		n := 25
		if raceEnabled {
			n = 5
		}
		qs, kinds, want := oracleQueries(c, "text", uint64(ci), n)
		// Faults on every third request (503, reset, connections closed
		// before or within the headers, stalls in the headers or the body,
		// dropped and short bodies in turn) must not change an answer: the
		// progress deadline ends the stalls, the retries absorb them all.
		px := s3test.NewProxy(srv.Endpoint)
		defer px.Close()
		faults := []s3test.Fault{s3test.SlowDown, s3test.Reset, s3test.Drop, s3test.DropInHeaders,
			s3test.StallHeaders, s3test.StallBody, s3test.Truncate, s3test.ShortBody}
		var injected [16]atomic.Int64 // by fault
		px.Choose = func(n int64, _ *http.Request) s3test.Fault {
			if n%3 == 2 {
				f := faults[(n/3)%int64(len(faults))]
				injected[f].Add(1)
				return f
			}
			return s3test.Pass
		}
		runs := []struct {
			endpoint   string
			cacheBytes int64
		}{{srv.Endpoint, 0}, {px.URL, 64 << 10}, {srv.Endpoint, 64 << 10}} // default cache, faults (a cache that evicts: many requests), a cache that evicts
		if raceEnabled {
			runs = runs[:2]
		}
		for _, run := range runs {
			cacheBytes := run.cacheBytes
			cl := client(t, run.endpoint, s3.Config{Retries: 6, ProgressTimeout: 50 * time.Millisecond}, s3.NewCache(cacheBytes))
			seg, err := cl.OpenSegment(ctx, "segs", key, reader.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if f := seg.OpenCost(); f.Rounds > 2 {
				t.Errorf("corpus %d (%d bytes): open took %+v, want <= 2 rounds", ci, len(data), f)
			}
			maxRounds := map[string]int64{}
			for i, q := range qs {
				if run.endpoint == px.URL && i%4 != 0 {
					continue // every stall costs its progress deadline: a quarter of the queries
				}
				var prof reader.Profile
				got, err := seg.Docs(ctx, segtest.Query(q), &reader.SearchOptions{Profile: &prof})
				if err != nil {
					t.Fatalf("%s: %v", q, err)
				}
				if !slices.Equal(got, want[i]) {
					t.Fatalf("corpus %d, cache %d: %s:\n got %s\nwant %s", ci, cacheBytes, q, oracle.Describe(got), oracle.Describe(want[i]))
				}
				n, err := seg.Count(ctx, segtest.Query(q), nil)
				if err != nil || n != uint64(len(got)) {
					t.Fatalf("%s: count %d, %v; want %d", q, n, err, len(got))
				}
				maxRounds[kinds[i]] = max(maxRounds[kinds[i]], prof.Rounds)
				if prof.FetchedBytes > 0 && prof.Requests == 0 {
					t.Errorf("%s: profile %+v: bytes without requests", q, prof)
				}
			}
			t.Logf("corpus %d (%d bytes), cache %d, %s: open %+v; most rounds per query kind (Docs): %v; cache %d bytes used of %d; %d requests through the proxy, %d faults",
				ci, len(data), cacheBytes, run.endpoint, seg.OpenCost(), maxRounds, cl.Cache().Used(), cl.Cache().Limit(), px.Requests(), px.Faults())
			if used := cl.Cache().Used(); used > cl.Cache().Limit() {
				t.Errorf("cache holds %d bytes, over its bound %d", used, cl.Cache().Limit())
			}
			if run.endpoint != px.URL { // (under faults, a verify would cost a stall per 12 requests)
				if err := seg.Verify(ctx); err != nil {
					t.Fatal(err)
				}
			}
			for _, f := range faults {
				if run.endpoint == px.URL && injected[f].Load() == 0 {
					t.Errorf("corpus %d: fault %d was never injected", ci, f)
				}
			}
			seg.Close()
		}
	}
	checkNoLeaks(t)
}

// TestRoundsCold: each query on a freshly opened segment with an empty cache
// (the first query a stateless node answers): a term's docs take at most 2
// rounds (dict block, postings), a phrase with hits at most 4 (dict blocks,
// heads with the rarest term's docs, the other terms' doc windows, frames).
func TestRoundsCold(t *testing.T) {
	srv := s3test.Shared(t)
	srv.MakeBucket(t, "cold")
	gens := []oracle.GenOptions{
		{Docs: 20000, Vocab: 2000, Zipf: 1.2, MaxValues: 2, MaxTokens: 30},
		{Docs: 30000, Vocab: 300, Zipf: 1.4, MaxValues: 2, MaxTokens: 30}, // large windowed terms
	}
	if raceEnabled {
		gens = gens[1:]
	}
	for ci, gen := range gens {
		coldRounds(t, fmt.Sprintf("c%d.snii", ci), oracle.Generate(uint64(41+ci), gen))
	}
	checkNoLeaks(t)
}

func coldRounds(t *testing.T, key string, docs []oracle.Doc) {
	srv := s3test.Shared(t)
	ctx := t.Context()
	c := oracle.New()
	for _, d := range docs {
		c.Add(d)
	}
	data := buildSegment(t, docs)
	srv.Put(t, "cold", key, data)
	n := 8
	if raceEnabled {
		n = 3
	}
	qs, kinds, want := oracleQueries(c, "text", 5, n)
	bound := map[string]int64{"term": 2, "phrase": 4, "repeated": 4}
	most := map[string]int64{}
	var fetched, needed int64
	for i, q := range qs {
		cl := client(t, srv.Endpoint, s3.Config{}, nil)
		seg, err := cl.OpenSegment(ctx, "cold", key, reader.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if f := seg.OpenCost(); f.Rounds > 2 {
			t.Errorf("open of a %d-byte segment: %+v, want <= 2 rounds", len(data), f)
		}
		var prof reader.Profile
		got, err := seg.Docs(ctx, segtest.Query(q), &reader.SearchOptions{Profile: &prof})
		seg.Close()
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want[i]) {
			t.Fatalf("%s:\n got %s\nwant %s", q, oracle.Describe(got), oracle.Describe(want[i]))
		}
		if len(got) == 0 {
			continue
		}
		most[kinds[i]] = max(most[kinds[i]], prof.Rounds)
		fetched += prof.FetchedBytes
		needed += prof.BytesRead
		if b, ok := bound[kinds[i]]; ok && prof.Rounds > b {
			t.Errorf("%s (%d hits): %d rounds (%d requests), want <= %d", q, len(got), prof.Rounds, prof.Requests, b)
		}
	}
	t.Logf("%d-byte segment: most rounds per query kind with hits: %v; fetched %d bytes for %d read", len(data), most, fetched, needed)
}

// TestSegmentChanged: an object replaced while OpenSegment reads it is
// opened again (the segment answers as the new version); one replaced after
// the open fails its next query with ErrChanged (kind ErrCorrupt), never
// with an answer mixing the versions, and a new open reads the new version.
func TestSegmentChanged(t *testing.T) {
	srv := s3test.Shared(t)
	srv.MakeBucket(t, "changed")
	ctx := t.Context()
	var datas [2][]byte
	var wants [2][][]uint32
	var qs []oracle.Query
	for v := range 2 {
		docs := oracle.Generate(uint64(61+v), oracle.GenOptions{Docs: 1500 + 500*v})
		c := oracle.New()
		for _, d := range docs {
			c.Add(d)
		}
		datas[v] = buildSegment(t, docs)
		if v == 0 {
			qs, _, _ = oracleQueries(c, "text", 7, 3)
		}
		for _, q := range qs {
			wants[v] = append(wants[v], c.Eval(q))
		}
	}
	check := func(seg *s3.Segment, v int) {
		t.Helper()
		for i, q := range qs {
			got, err := seg.Docs(ctx, segtest.Query(q), nil)
			if err != nil {
				t.Fatalf("version %d: %s: %v", v, q, err)
			}
			if !slices.Equal(got, wants[v][i]) {
				t.Fatalf("version %d: %s:\n got %s\nwant %s", v, q, oracle.Describe(got), oracle.Describe(wants[v][i]))
			}
		}
	}
	srv.Put(t, "changed", "seg.snii", datas[0])
	mc, err := srv.Client()
	if err != nil {
		t.Fatal(err)
	}
	put := func(v int) error {
		_, err := mc.PutObject(context.Background(), "changed", "seg.snii", bytes.NewReader(datas[v]), int64(len(datas[v])),
			minio.PutObjectOptions{DisableMultipart: true})
		return err
	}
	// The object is replaced after Open's round (requests 1 and 2), before
	// the reader's metadata round: a 64-byte suffix misses the metadata.
	px := s3test.NewProxy(srv.Endpoint)
	defer px.Close()
	putErr := make(chan error, 1)
	px.Choose = func(n int64, _ *http.Request) s3test.Fault {
		if n == 3 {
			putErr <- put(1)
		}
		return s3test.Pass
	}
	// A cache of 1 byte keeps nothing: every read after the open is a request.
	c := client(t, px.URL, s3.Config{Suffix: 64}, s3.NewCache(1))
	seg, err := c.OpenSegment(ctx, "changed", "seg.snii", reader.Options{})
	if err != nil {
		t.Fatalf("open while the object is replaced: %v", err)
	}
	if err := <-putErr; err != nil {
		t.Fatal(err)
	}
	if f := seg.OpenCost(); f.Rounds < 2 {
		t.Fatalf("open cost %+v: the replacement did not fall between two rounds", f)
	}
	check(seg, 1)
	// Replaced after the open: a clear error, then a new open reads it.
	if err := put(0); err != nil {
		t.Fatal(err)
	}
	err = seg.Verify(ctx)
	if !errors.Is(err, s3.ErrChanged) || !errors.Is(err, snii.ErrCorrupt) || !strings.Contains(err.Error(), "run again") {
		t.Fatalf("query of a replaced object: %v, want s3.ErrChanged", err)
	}
	t.Log(err)
	seg.Close()
	seg, err = c.OpenSegment(ctx, "changed", "seg.snii", reader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	check(seg, 0)
	seg.Close()
	checkNoLeaks(t)
}
