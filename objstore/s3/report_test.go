package s3_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/snii-go/snii/internal/testkit"
	"github.com/snii-go/snii/internal/testkit/s3test"
	"github.com/snii-go/snii/objstore"
	"github.com/snii-go/snii/objstore/s3"
	"github.com/snii-go/snii/reader"
	"github.com/snii-go/snii/search"
	"github.com/snii-go/snii/writer"
)

// TestAgentS3Report measures the agent logs served from versitygw against
// the same segment read locally (docs/BENCHMARKS.md, "Object storage"). It
// runs only with SNII_S3_REPORT=1 (a few minutes) and the shared corpora.
func TestAgentS3Report(t *testing.T) {
	part := os.Getenv("SNII_S3_REPORT") // 1: all; else one of latency, gap, many, thousand
	if part == "" {
		t.Skip("set SNII_S3_REPORT=1 to run the S3 report on the agent logs")
	}
	run := func(p string) bool { return part == "1" || part == p }
	srv := s3test.Shared(t)
	srv.MakeBucket(t, "agent")
	ctx := t.Context()
	dir := t.TempDir()
	whole, parts := buildAgent(t, dir, 100)
	srv.Put(t, "agent", "whole.snii", testkit.ReadFile(t, whole))
	for i, p := range parts {
		srv.Put(t, "agent", fmt.Sprintf("split/%03d.snii", i), testkit.ReadFile(t, p))
	}
	local, err := reader.Open(whole, reader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer local.Close()
	qs := agentQueries(t)
	cycles := 6
	for _, lat := range []time.Duration{0, 5 * time.Millisecond} {
		if !run("latency") {
			break
		}
		px := s3test.NewProxy(srv.Endpoint)
		px.Latency.Store(int64(lat))
		t.Logf("## latency %v per request", lat)
		t.Logf("| kind | queries | open rounds (max) | query rounds median (max) | requests median | fetched / needed bytes | local time median | remote time median | remote / local (median of per-query ratios) | remote ≤ rounds×RTT + 2×local |")
		byKind := map[string]*kindStats{}
		var kinds []string
		for _, q := range qs {
			ks := byKind[q.kind]
			if ks == nil {
				ks = &kindStats{}
				byKind[q.kind] = ks
				kinds = append(kinds, q.kind)
			}
			var lt, rt []time.Duration
			var prof reader.Profile
			var open objstore.Cost
			for range cycles {
				t0 := time.Now()
				want, err := local.Docs(ctx, q.q, nil)
				lt = append(lt, time.Since(t0))
				if err != nil {
					t.Fatal(err)
				}
				c := client(t, px.URL, s3.Config{}, nil)
				seg, err := c.OpenSegment(ctx, "agent", "whole.snii", reader.Options{})
				if err != nil {
					t.Fatal(err)
				}
				open = seg.OpenCost()
				t0 = time.Now()
				got, err := seg.Docs(ctx, q.q, &reader.SearchOptions{Profile: &prof})
				rt = append(rt, time.Since(t0))
				seg.Close()
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got, want) {
					t.Fatalf("%s: S3 and local answers differ (%d vs %d docs)", q.q, len(got), len(want))
				}
			}
			ks.add(open, &prof, median(rt), median(lt), lat)
		}
		for _, k := range kinds {
			t.Log(byKind[k].row(k))
		}
		px.Close()
	}
	if run("probe") {
		probe(t, srv)
	}
	if run("gap") {
		gapSweep(t, srv, qs)
	}
	if run("many") {
		manySegments(t, srv, len(parts), qs)
	}
	if run("thousand") {
		thousandOpen(t, srv, len(parts))
	}
}

type agentQuery struct {
	kind string
	q    reader.Query
}

// agentQueries reads bench/queries/agent.txt (kind, class, text).
func agentQueries(t *testing.T) []agentQuery {
	f, err := os.Open(filepath.Join("..", "..", "bench", "queries", "agent.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []agentQuery
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || line == "" {
			continue
		}
		parts := strings.Split(line, "\t")
		terms := strings.Fields(parts[2])
		var q reader.Query
		switch parts[0] {
		case "term":
			q = reader.Term("content", terms[0])
		case "phrase":
			q = reader.Phrase("content", terms...)
		case "phraseprefix":
			q = reader.PhrasePrefix("content", 0, terms...)
		case "prefix":
			q = reader.Prefix("content", terms[0], 0)
		default:
			continue
		}
		out = append(out, agentQuery{parts[0], q})
	}
	return out
}

// buildAgent writes the agent logs as one segment and as n segments of
// consecutive documents.
func buildAgent(t *testing.T, dir string, n int) (string, []string) {
	path := testkit.CorpusPath(t, testkit.AgentLogs)
	var docs []string
	testkit.EachLine(t, []string{path}, func(line []byte) {
		s, err := testkit.AgentContent(line)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, s)
	})
	write := func(p string, ds []string) {
		w, err := writer.Create(context.Background(), p, writer.DefaultOptions("content"))
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range ds {
			if _, err := w.Add(writer.Doc("content", d)); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
	whole := filepath.Join(dir, "whole.snii")
	write(whole, docs)
	var parts []string
	for i := range n {
		p := filepath.Join(dir, fmt.Sprintf("part%03d.snii", i))
		write(p, docs[i*len(docs)/n:(i+1)*len(docs)/n])
		parts = append(parts, p)
	}
	return whole, parts
}

type kindStats struct {
	n                  int
	openMax            int64
	rounds, requests   []int64
	fetched, needed    int64
	ratios             []float64
	withinBound, total int
	local, remote      []time.Duration
}

func (k *kindStats) add(open objstore.Cost, p *reader.Profile, remote, local, rtt time.Duration) {
	k.n++
	k.openMax = max(k.openMax, open.Rounds)
	k.rounds = append(k.rounds, p.Rounds)
	k.requests = append(k.requests, p.Requests)
	k.fetched += p.FetchedBytes
	k.needed += p.BytesRead
	k.ratios = append(k.ratios, float64(remote)/float64(max(local, time.Microsecond)))
	k.local, k.remote = append(k.local, local), append(k.remote, remote)
	k.total++
	if remote <= time.Duration(p.Rounds)*rtt+2*local {
		k.withinBound++
	}
}

func (k *kindStats) row(kind string) string {
	return fmt.Sprintf("| %s | %d | %d | %d (%d) | %d | %s / %s | %v | %v | %.1f× | %d of %d |", kind, k.n, k.openMax,
		medianInt(k.rounds), slices.Max(k.rounds), medianInt(k.requests), mib(k.fetched), mib(k.needed),
		median(k.local).Round(time.Microsecond), median(k.remote).Round(10*time.Microsecond),
		medianFloat(k.ratios), k.withinBound, k.total)
}

func mib(n int64) string { return strconv.FormatFloat(float64(n)/(1<<20), 'f', 2, 64) + " MiB" }

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

func medianInt(v []int64) int64 {
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}

func medianFloat(v []float64) float64 {
	s := slices.Clone(v)
	sort.Float64s(s)
	return s[len(s)/2]
}

// gapSweep runs the phrase queries cold at 5 ms for several Config.Gap values.
func gapSweep(t *testing.T, srv *s3test.Server, qs []agentQuery) {
	ctx := t.Context()
	px := s3test.NewProxy(srv.Endpoint)
	defer px.Close()
	px.Latency.Store(int64(5 * time.Millisecond))
	t.Logf("## coalescing gap (5 ms per request, phrase and phrase prefix queries, cold, median of 3 runs each)")
	t.Logf("| gap | requests (sum) | fetched MiB (sum) | time (sum of medians) |")
	for _, gap := range []int64{-1, 4 << 10, 16 << 10, 64 << 10, 256 << 10, 1 << 20} {
		var reqs, bytes int64
		var total time.Duration
		for _, q := range qs {
			if q.kind != "phrase" && q.kind != "phraseprefix" {
				continue
			}
			var ts []time.Duration
			for range 3 {
				c := client(t, px.URL, s3.Config{Gap: gap}, nil)
				seg, err := c.OpenSegment(ctx, "agent", "whole.snii", reader.Options{})
				if err != nil {
					t.Fatal(err)
				}
				var prof reader.Profile
				t0 := time.Now()
				if _, err := seg.Docs(ctx, q.q, &reader.SearchOptions{Profile: &prof}); err != nil {
					t.Fatal(err)
				}
				ts = append(ts, time.Since(t0))
				seg.Close()
				reqs += prof.Requests
				bytes += prof.FetchedBytes
			}
			total += median(ts)
		}
		t.Logf("| %d | %d | %.1f | %v |", max(gap, 0), reqs/3, float64(bytes)/3/(1<<20), total.Round(time.Millisecond))
	}
}

// manySegments compares the Searcher with a loop over the segments, at 5 ms:
// two sets of the same segments with caches of their own, so each query is
// as cold for one as for the other (their order alternates).
func manySegments(t *testing.T, srv *s3test.Server, n int, qs []agentQuery) {
	ctx := t.Context()
	px := s3test.NewProxy(srv.Endpoint)
	defer px.Close()
	px.Latency.Store(int64(5 * time.Millisecond))
	openSet := func() ([]*reader.Segment, time.Duration) {
		// A small suffix: the segments (about 60 KiB each) are not read whole at open.
		c := client(t, px.URL, s3.Config{Suffix: 8 << 10}, s3.NewCache(256<<20))
		o := reader.Options{BlockCache: reader.NewBlockCache(64 << 20)}
		segs := make([]*reader.Segment, n)
		t0 := time.Now()
		for i := range n {
			s, err := c.OpenSegment(ctx, "agent", fmt.Sprintf("split/%03d.snii", i), o)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			segs[i] = s.Segment
		}
		return segs, time.Since(t0)
	}
	segsA, openSeq := openSet()
	segsB, _ := openSet()
	sr, err := search.New(segsA, search.Options{Parallel: 16})
	if err != nil {
		t.Fatal(err)
	}
	runPar := func(q reader.Query) (uint64, time.Duration) {
		t0 := time.Now()
		a, err := sr.Count(ctx, q, nil)
		if err != nil {
			t.Fatal(err)
		}
		return a, time.Since(t0)
	}
	runSeq := func(q reader.Query) (uint64, time.Duration) {
		t0 := time.Now()
		var b uint64
		for _, s := range segsB {
			n, err := s.Count(ctx, q, nil)
			if err != nil {
				t.Fatal(err)
			}
			b += n
		}
		return b, time.Since(t0)
	}
	var par, seq []time.Duration
	var ratios []float64
	for i, q := range qs {
		if q.kind != "phrase" {
			continue
		}
		var a, b uint64
		var ta, tb time.Duration
		if i%2 == 0 {
			a, ta = runPar(q.q)
			b, tb = runSeq(q.q)
		} else {
			b, tb = runSeq(q.q)
			a, ta = runPar(q.q)
		}
		if a != b {
			t.Fatalf("%s: searcher %d, loop %d", q.q, a, b)
		}
		par, seq = append(par, ta), append(seq, tb)
		ratios = append(ratios, float64(tb)/float64(ta))
	}
	t.Logf("## %d segments at 5 ms per request: opening them one by one took %v. Phrase queries, first run on each set: "+
		"searcher (16 segments at a time) median %v, max %v; one segment after another median %v, max %v; "+
		"loop / searcher median %.1f×", n, openSeq.Round(time.Millisecond), median(par).Round(time.Millisecond), slices.Max(par).Round(time.Millisecond),
		median(seq).Round(time.Millisecond), slices.Max(seq).Round(time.Millisecond), medianFloat(ratios))
}

// thousandOpen opens 1,000 segments (the split, 10 times each) under one
// shared S3 cache and block cache, runs a phrase on each, and reports memory.
func thousandOpen(t *testing.T, srv *s3test.Server, n int) {
	ctx := context.Background()
	runtime.GC()
	debug.FreeOSMemory()
	rss0, heap0 := memNow()
	cache := s3.NewCache(64 << 20)
	c := client(t, srv.Endpoint, s3.Config{}, cache)
	bc := reader.NewBlockCache(64 << 20)
	dec, _ := reader.NewDecoders(prxLimits(), 0)
	o := reader.Options{BlockCache: bc, Decoders: dec}
	var segs []*s3.Segment
	q := reader.Phrase("content", "no", "such", "file")
	for i := range 1000 {
		s, err := c.OpenSegment(ctx, "agent", fmt.Sprintf("split/%03d.snii", i%n), o)
		if err != nil {
			t.Fatal(err)
		}
		segs = append(segs, s)
		if _, err := s.Count(ctx, q, nil); err != nil {
			t.Fatal(err)
		}
	}
	runtime.GC()
	rss1, heap1 := memNow()
	t.Logf("## 1,000 open segments, one 64 MiB S3 cache and one 64 MiB block cache: RSS %s → %s, live heap %s → %s; S3 cache %s",
		mib(rss0), mib(rss1), mib(heap0), mib(heap1), mib(cache.Used()))
	for _, s := range segs {
		s.Close()
	}
}

func memNow() (rss, heap int64) {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	heap = int64(ms.HeapAlloc)
	b, _ := os.ReadFile("/proc/self/status")
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			f := strings.Fields(v)
			if len(f) > 0 {
				kb, _ := strconv.ParseInt(f[0], 10, 64)
				rss = kb << 10
			}
		}
	}
	return rss, heap
}

// probe times one 4 KiB ranged GET, sequentially, straight to the server and
// through the proxy (0 ms added): what a round costs here before any
// injected latency.
func probe(t *testing.T, srv *s3test.Server) {
	ctx := t.Context()
	px := s3test.NewProxy(srv.Endpoint)
	defer px.Close()
	for _, ep := range []struct{ name, url string }{{"direct", srv.Endpoint}, {"proxy", px.URL}} {
		c := client(t, ep.url, s3.Config{}, nil)
		o, err := c.Open(ctx, "agent", "whole.snii", 16)
		if err != nil {
			t.Fatal(err)
		}
		p := make([]byte, 4096)
		var ts []time.Duration
		for i := range 200 {
			t0 := time.Now()
			if _, err := o.ReadAtContext(ctx, p, int64(i)*25_000); err != nil {
				t.Fatal(err)
			}
			ts = append(ts, time.Since(t0))
		}
		o.Close()
		slices.Sort(ts)
		t.Logf("## one 4 KiB ranged GET, %s, 0 ms added: median %v, p90 %v (200 sequential requests)", ep.name,
			ts[len(ts)/2].Round(10*time.Microsecond), ts[len(ts)*9/10].Round(10*time.Microsecond))
	}
}
