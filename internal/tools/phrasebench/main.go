package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"text/tabwriter"
	"time"

	"github.com/snii-go/snii/budget"

	"github.com/snii-go/snii/internal/codec/prx"
	"github.com/snii-go/snii/internal/seam"
	"github.com/snii-go/snii/internal/testkit/oracle"
	"github.com/snii-go/snii/reader"
	"github.com/snii-go/snii/writer"
)

var ctx = context.Background()

func main() {
	corpus := flag.String("corpus", "", "agent JSONL (default: ../shared/corpora/agent-trajectories/mini-swe-agent-gemini-3-pro.part1.jsonl from the module root)")
	out := flag.String("out", "docs/bench", "output directory")
	cycles := flag.Int("cycles", 8, "ABBA cycles (>= 6)")
	reps := flag.Int("reps", 5, "runs of each query per slot of a cycle")
	nGen := flag.Int("queries", 60, "phrase queries drawn from the documents (besides the fixed ones)")
	work := flag.String("work", "", "directory for the segments (default: a temp dir, removed)")
	flag.Parse()
	if *cycles < 6 {
		fail(fmt.Errorf("-cycles must be >= 6"))
	}
	if *corpus == "" {
		*corpus = defaultCorpus()
	}
	docs, err := loadContent(*corpus)
	fail(err)
	if *work == "" {
		d, err := os.MkdirTemp("", "phrasebench")
		fail(err)
		defer os.RemoveAll(d)
		*work = d
	}
	fail(os.MkdirAll(*out, 0o755))
	var rep report
	rep.Env = envInfo(*corpus, len(docs))
	rep.Env.Cycles, rep.Env.Reps = *cycles, *reps
	logf := func(format string, args ...any) { fmt.Fprintf(os.Stderr, format+"\n", args...) }

	logf("building segments from %d docs", len(docs))
	pathA := filepath.Join(*work, "policy0.snii")
	pathB := filepath.Join(*work, "budget.snii")
	rep.Build = append(rep.Build, buildSeg(pathA, docs, 0), buildSeg(pathB, docs, -1))
	a, err := reader.Open(pathA, reader.Options{})
	fail(err)
	defer a.Close()
	b, err := reader.Open(pathB, reader.Options{})
	fail(err)
	defer b.Close()

	logf("oracle")
	c := oracle.New()
	for _, d := range docs {
		c.AddText("content", d)
	}
	queries := phraseQueries(c, *nGen)
	for _, q := range queries {
		want := c.Eval(q)
		for _, s := range []*reader.Segment{a, b} {
			got, err := s.Docs(ctx, toReader(q), nil)
			fail(err)
			if !slices.Equal(got, want) {
				fail(fmt.Errorf("%s: segment disagrees with the oracle: %s vs %s", q, oracle.Describe(got), oracle.Describe(want)))
			}
		}
	}
	logf("%d phrase queries agree with the oracle on both segments", len(queries))

	// Paired cycles.
	rq := make([]reader.Query, len(queries))
	for i, q := range queries {
		rq[i] = toReader(q)
	}
	// Wall time and this thread's CPU time (the queries run on the calling
	// goroutine, locked to its thread): on a shared machine the CPU time does not
	// count the time other processes hold the CPU.
	runtime.LockOSThread()
	run := func(s *reader.Segment, q reader.Query) (wall, cpu float64) {
		c0 := threadCPU()
		t0 := time.Now()
		if _, err := s.Count(ctx, q, nil); err != nil {
			fail(err)
		}
		wall = float64(time.Since(t0).Nanoseconds())
		return wall, float64(threadCPU() - c0)
	}
	for w := 0; w < 3; w++ { // warm-up
		for _, q := range rq {
			run(a, q)
			run(b, q)
		}
	}
	samples := make([][2][][]float64, len(rq)) // [query][A/B][cycle] -> wall ns
	cpus := make([][2][][]float64, len(rq))    // thread CPU ns
	for i := range samples {
		for k := 0; k < 2; k++ {
			samples[i][k] = make([][]float64, *cycles)
			cpus[i][k] = make([][]float64, *cycles)
		}
	}
	csv := &bytes.Buffer{}
	fmt.Fprintln(csv, "query,segment,cycle,slot,rep,wall_ns,cpu_ns")
	logf("%d ABBA cycles x %d reps", *cycles, *reps)
	// Each cycle runs every query A B B A back to back (reps runs per slot), so
	// that drift on the machine hits both segments alike.
	for cyc := 0; cyc < *cycles; cyc++ {
		for i, q := range rq {
			for slot, k := range []int{0, 1, 1, 0} {
				s := []*reader.Segment{a, b}[k]
				for r := 0; r < *reps; r++ {
					ns, cpu := run(s, q)
					samples[i][k][cyc] = append(samples[i][k][cyc], ns)
					cpus[i][k][cyc] = append(cpus[i][k][cyc], cpu)
					fmt.Fprintf(csv, "%d,%s,%d,%d,%d,%.0f,%.0f\n", i, []string{"policy0", "budget"}[k], cyc, slot, r, ns, cpu)
				}
			}
		}
	}
	fail(os.WriteFile(filepath.Join(*out, "reader-phrase-agent.csv"), csv.Bytes(), 0o644))

	logRatios, logCPU := 0.0, 0.0
	for i, q := range rq {
		var all, allCPU [2][]float64
		var per, perCPU []float64
		for cyc := 0; cyc < *cycles; cyc++ {
			per = append(per, median(samples[i][1][cyc])/median(samples[i][0][cyc]))
			perCPU = append(perCPU, median(cpus[i][1][cyc])/median(cpus[i][0][cyc]))
			for k := 0; k < 2; k++ {
				all[k] = append(all[k], samples[i][k][cyc]...)
				allCPU[k] = append(allCPU[k], cpus[i][k][cyc]...)
			}
		}
		pq := phraseResult{Query: queries[i].String(), Hits: len(c.Eval(queries[i]))}
		pq.MedianA, pq.MedianB = median(all[0])/1e3, median(all[1])/1e3
		pq.Ratio = pq.MedianB / pq.MedianA
		pq.CycleMin, pq.CycleMax = slices.Min(per), slices.Max(per)
		pq.CPUA, pq.CPUB = median(allCPU[0])/1e3, median(allCPU[1])/1e3
		pq.CPURatio = pq.CPUB / pq.CPUA
		pq.CPUCycleMin, pq.CPUCycleMax = slices.Min(perCPU), slices.Max(perCPU)
		logCPU += math.Log(pq.CPURatio)
		for k, s := range []*reader.Segment{a, b} {
			var p reader.Profile
			_, err := s.Count(ctx, q, &reader.SearchOptions{Profile: &p})
			fail(err)
			pq.Profile[k] = profileOf(&p)
		}
		logRatios += math.Log(pq.Ratio)
		rep.Phrases = append(rep.Phrases, pq)
	}
	rep.GeoMean = math.Exp(logRatios / float64(len(rq)))
	rep.GeoMeanCPU = math.Exp(logCPU / float64(len(rq)))

	// Term and count latency, allocations per query (budget segment).
	logf("term and count latency")
	terms := termQueries(c)
	rep.Latency = append(rep.Latency,
		latency("term docs", b, terms, func(s *reader.Segment, q reader.Query) { _, err := s.Docs(ctx, q, nil); fail(err) }),
		latency("term count", b, terms, func(s *reader.Segment, q reader.Query) { _, err := s.Count(ctx, q, nil); fail(err) }),
		latency("phrase docs", b, rq, func(s *reader.Segment, q reader.Query) { _, err := s.Docs(ctx, q, nil); fail(err) }),
		latency("phrase count", b, rq, func(s *reader.Segment, q reader.Query) { _, err := s.Count(ctx, q, nil); fail(err) }),
	)

	// Open time against index size.
	logf("open time vs index size")
	for _, frac := range []int{8, 4, 2, 1} {
		n := len(docs) / frac
		p := filepath.Join(*work, fmt.Sprintf("open-%d.snii", n))
		buildSeg(p, docs[:n], -1)
		rep.Open = append(rep.Open, openCost(p, n))
	}

	js, _ := json.MarshalIndent(rep, "", "  ")
	fail(os.WriteFile(filepath.Join(*out, "reader-phrase-agent.json"), js, 0o644))
	txt := rep.tables()
	fail(os.WriteFile(filepath.Join(*out, "reader-phrase-agent.txt"), []byte(txt), 0o644))
	fmt.Print(txt)
}

type env struct {
	Commit, GoVersion, CPU, Corpus string
	CorpusBytes                    int64
	Docs                           int
	Cycles, Reps                   int
	Date                           string
}

type buildInfo struct {
	Policy     string
	Bytes      int64
	Seconds    float64
	PrxBytes   uint64
	Windows    [prx.NumCodecs]int64
	FrameBytes [prx.NumCodecs]int64
}

type prof struct {
	Frames                   [prx.NumCodecs]int64
	PlainBytes, BytesRead    int64
	Windows, DocWindows      int64
	SelectedDocs, TotalDocs  int64
	DecodeMicros, TotalMicro float64
}

type phraseResult struct {
	Query              string
	Hits               int
	MedianA, MedianB   float64 // µs, policy 0 and budget
	Ratio              float64 // budget / policy 0, of the medians
	CycleMin, CycleMax float64 // per-cycle ratios
	// the same from the thread's CPU time
	CPUA, CPUB, CPURatio     float64
	CPUCycleMin, CPUCycleMax float64
	Profile                  [2]prof // policy 0, budget
}

type latencyResult struct {
	What                   string
	Queries                int
	P50, P95, Max          float64 // µs over queries' medians
	AllocsPerQuery         float64
	BytesAllocatedPerQuery float64
}

type openResult struct {
	Docs         int
	FileBytes    int64
	MedianMicros float64
	BytesRead    int64 // through a counting ReaderAt
	Reads        int64
}

type report struct {
	Env        env
	Build      []buildInfo
	Phrases    []phraseResult
	GeoMean    float64 // of the wall-time ratios
	GeoMeanCPU float64 // of the thread-CPU-time ratios
	Latency    []latencyResult
	Open       []openResult
}

func (r *report) tables() string {
	var sb strings.Builder
	e := r.Env
	fmt.Fprintf(&sb, "commit %s, %s, %s, %s\ncorpus %s (%d bytes, %d docs, field content), %d ABBA cycles x %d reps, Count\n\n",
		e.Commit, e.GoVersion, e.CPU, e.Date, e.Corpus, e.CorpusBytes, e.Docs, e.Cycles, e.Reps)
	tw := tabwriter.NewWriter(&sb, 2, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "segment\tbytes\tbuild s\tprx bytes\traw/zstd/pfor windows\traw/zstd/pfor bytes\t")
	for _, b := range r.Build {
		fmt.Fprintf(tw, "%s\t%d\t%.1f\t%d\t%v\t%v\t\n", b.Policy, b.Bytes, b.Seconds, b.PrxBytes, b.Windows, b.FrameBytes)
	}
	tw.Flush()
	fmt.Fprintf(&sb, "\nphrase count latency, budget vs policy 0 (ratio of medians; min-max of per-cycle ratios); frames raw/zstd/pfor read\n")
	tw = tabwriter.NewWriter(&sb, 2, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "query\thits\tp0 µs\tbudget µs\tratio\tcycles\tp0 cpu µs\tbudget cpu µs\tcpu ratio\tcycles\tp0 frames\tbudget frames\tp0 plain B\tbudget plain B\t")
	for _, p := range r.Phrases {
		q := strings.TrimSuffix(strings.TrimPrefix(p.Query, "phrase(content:"), ")")
		if len(q) > 44 {
			q = q[:41] + "..."
		}
		fmt.Fprintf(tw, "%s\t%d\t%.1f\t%.1f\t%.3f\t%.2f-%.2f\t%.1f\t%.1f\t%.3f\t%.2f-%.2f\t%v\t%v\t%d\t%d\t\n", q, p.Hits,
			p.MedianA, p.MedianB, p.Ratio, p.CycleMin, p.CycleMax, p.CPUA, p.CPUB, p.CPURatio, p.CPUCycleMin, p.CPUCycleMax,
			p.Profile[0].Frames, p.Profile[1].Frames, p.Profile[0].PlainBytes, p.Profile[1].PlainBytes)
	}
	tw.Flush()
	var za, zb int64
	for _, p := range r.Phrases {
		za += p.Profile[0].Frames[prx.CodecZstd]
		zb += p.Profile[1].Frames[prx.CodecZstd]
	}
	fmt.Fprintf(&sb, "\ngeometric mean of the ratios over %d queries (target <= 0.85): wall time %.3f, thread CPU time %.3f; zstd frames read: policy 0 %d, budget %d\n\n",
		len(r.Phrases), r.GeoMean, r.GeoMeanCPU, za, zb)
	tw = tabwriter.NewWriter(&sb, 2, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "latency (budget segment)\tqueries\tp50 µs\tp95 µs\tmax µs\tallocs/query\tbytes/query\t")
	for _, l := range r.Latency {
		fmt.Fprintf(tw, "%s\t%d\t%.1f\t%.1f\t%.1f\t%.2f\t%.0f\t\n", l.What, l.Queries, l.P50, l.P95, l.Max, l.AllocsPerQuery, l.BytesAllocatedPerQuery)
	}
	tw.Flush()
	sb.WriteString("\n")
	tw = tabwriter.NewWriter(&sb, 2, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "open: docs\tfile bytes\tmedian µs\tbytes read\treads\t")
	for _, o := range r.Open {
		fmt.Fprintf(tw, "%d\t%d\t%.1f\t%d\t%d\t\n", o.Docs, o.FileBytes, o.MedianMicros, o.BytesRead, o.Reads)
	}
	tw.Flush()
	return sb.String()
}

func profileOf(p *reader.Profile) prof {
	return prof{Frames: p.Frames, PlainBytes: p.PlainBytes, BytesRead: p.BytesRead, Windows: p.WindowsRead,
		DocWindows: p.DocWindowsRead, SelectedDocs: p.SelectedDocs, TotalDocs: p.TotalDocs,
		DecodeMicros: float64(p.DecodeNanos) / 1e3, TotalMicro: float64(p.TotalTime.Nanoseconds()) / 1e3}
}

func latency(what string, s *reader.Segment, qs []reader.Query, fn func(*reader.Segment, reader.Query)) latencyResult {
	for _, q := range qs {
		fn(s, q)
	}
	meds := make([]float64, len(qs))
	for i, q := range qs {
		var ts []float64
		for r := 0; r < 15; r++ {
			t0 := time.Now()
			fn(s, q)
			ts = append(ts, float64(time.Since(t0).Nanoseconds())/1e3)
		}
		meds[i] = median(ts)
	}
	sort.Float64s(meds)
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	const rounds = 20
	for r := 0; r < rounds; r++ {
		for _, q := range qs {
			fn(s, q)
		}
	}
	runtime.ReadMemStats(&m1)
	n := float64(rounds * len(qs))
	return latencyResult{What: what, Queries: len(qs), P50: nearestRank(meds, 50), P95: nearestRank(meds, 95), Max: meds[len(meds)-1],
		AllocsPerQuery: float64(m1.Mallocs-m0.Mallocs) / n, BytesAllocatedPerQuery: float64(m1.TotalAlloc-m0.TotalAlloc) / n}
}

type countingReaderAt struct {
	r            io.ReaderAt
	bytes, reads atomic.Int64
}

func (c *countingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	c.bytes.Add(int64(len(p)))
	c.reads.Add(1)
	return c.r.ReadAt(p, off)
}

func openCost(path string, docs int) openResult {
	st, err := os.Stat(path)
	fail(err)
	var ts []float64
	for i := 0; i < 300; i++ {
		t0 := time.Now()
		s, err := reader.Open(path, reader.Options{})
		fail(err)
		s.Close()
		ts = append(ts, float64(time.Since(t0).Nanoseconds())/1e3)
	}
	f, err := os.Open(path)
	fail(err)
	defer f.Close()
	cr := &countingReaderAt{r: f}
	s, err := reader.OpenReaderAt(context.Background(), cr, st.Size(), reader.Options{})
	fail(err)
	s.Close()
	return openResult{Docs: docs, FileBytes: st.Size(), MedianMicros: median(ts), BytesRead: cr.bytes.Load(), Reads: cr.reads.Load()}
}

func buildSeg(path string, docs []string, policy int) buildInfo {
	o := writer.DefaultOptions("content")
	o.Policy = budget.FromPercents(policy, budget.DefaultBudgetPercent)
	t0 := time.Now()
	w, err := writer.Create(context.Background(), path, o)
	fail(err)
	for _, d := range docs {
		_, err := w.Add(writer.Doc("content", d))
		fail(err)
	}
	fail(w.Close())
	bi := buildInfo{Policy: map[int]string{0: "policy 0", -1: "budget:8"}[policy], Seconds: time.Since(t0).Seconds()}
	st, err := os.Stat(path)
	fail(err)
	bi.Bytes = st.Size()
	s, err := reader.Open(path, reader.Options{})
	fail(err)
	defer s.Close()
	info, err := seam.IndexMeta(s, "content")
	fail(err)
	bi.PrxBytes = info.PrxBytes + info.InlineFrameBytes
	bi.Windows, bi.FrameBytes = info.Outcome.Windows, info.Outcome.Bytes
	return bi
}

// phraseQueries: fixed phrases typical of agent logs, plus n phrases of 2–4
// terms drawn from the documents.
func phraseQueries(c *oracle.Corpus, n int) []oracle.Query {
	fixed := []string{
		"traceback most recent call last", "no such file or directory", "timed out",
		"def test", "import numpy as np", "self assertequal", "return self", "the following",
		"file line in", "error in", "git diff", "python3 c", "raise valueerror", "assert result",
	}
	var qs []oracle.Query
	for _, f := range fixed {
		qs = append(qs, oracle.Phrase{Field: "content", Terms: strings.Fields(f)})
	}
	g := oracle.NewGen(c, "content", 2026)
	seen := map[string]bool{}
	for _, q := range qs {
		seen[q.String()] = true
	}
	for len(qs) < len(fixed)+n {
		q := g.Phrase().(oracle.Phrase)
		if len(q.Terms) > 4 {
			q.Terms = q.Terms[:4]
		}
		if len(q.Terms) >= 2 && !seen[q.String()] {
			seen[q.String()] = true
			qs = append(qs, q)
		}
	}
	return qs
}

func termQueries(c *oracle.Corpus) []reader.Query {
	g := oracle.NewGen(c, "content", 7)
	var qs []reader.Query
	for i := 0; i < 60; i++ {
		t := g.Term().(oracle.Term)
		qs = append(qs, reader.Term(t.Field, t.Term))
	}
	return qs
}

func toReader(q oracle.Query) reader.Query {
	p := q.(oracle.Phrase)
	return reader.Phrase(p.Field, p.Terms...)
}

func loadContent(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var docs []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var m struct {
			Content string `json:"content"`
		}
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			return nil, err
		}
		docs = append(docs, m.Content)
	}
	return docs, sc.Err()
}

func defaultCorpus() string {
	dir, err := os.Getwd()
	fail(err)
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			fail(fmt.Errorf("module root not found"))
		}
		dir = parent
	}
	return filepath.Join(dir, "..", "shared", "corpora", "agent-trajectories", "mini-swe-agent-gemini-3-pro.part1.jsonl")
}

func envInfo(corpus string, docs int) env {
	e := env{GoVersion: runtime.Version(), Corpus: filepath.Base(corpus), Docs: docs, Date: time.Now().UTC().Format(time.RFC3339)}
	if out, err := exec.Command("git", "rev-parse", "--short", "HEAD").Output(); err == nil {
		e.Commit = strings.TrimSpace(string(out))
	}
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(l, "model name") {
				e.CPU = strings.TrimSpace(strings.SplitN(l, ":", 2)[1])
				break
			}
		}
	}
	e.CPU += fmt.Sprintf(" (%d CPUs)", runtime.NumCPU())
	if st, err := os.Stat(corpus); err == nil {
		e.CorpusBytes = st.Size()
	}
	return e
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	sort.Float64s(s)
	n := len(s)
	if n == 0 {
		return math.NaN()
	}
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// nearestRank returns the p-th percentile of sorted v by the nearest-rank method.
func nearestRank(sorted []float64, p float64) float64 {
	k := int(math.Ceil(p / 100 * float64(len(sorted))))
	return sorted[max(k, 1)-1]
}

func fail(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "phrasebench:", err)
		os.Exit(1)
	}
}
