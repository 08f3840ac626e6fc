package peers

import (
	"context"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/snii-go/snii/reader"
	"github.com/snii-go/snii/writer"
)

// StoreConfig is one stored-records comparison of snii with Lucene on one
// corpus (RunStore): sizes with the text stored, and the fetch of a phrase
// query's first K records.
type StoreConfig struct {
	Corpus         string // agent or service
	CorporaRoot    string
	Copies         int    // the corpus repeated this many times (default 1)
	QueriesPath    string // the corpus's query file: its phrases with hits are timed
	K              int    // records loaded per query (default 20)
	CompareOptions        // Cycles: default 6
}

// StoreSize is one engine's index with the text stored.
type StoreSize struct {
	Engine      string
	Total       int64 // every byte of the index
	Stored      int64 // the stored records (snii: the store section; Lucene: .fdt, .fdx, .fdm)
	BuildSecond float64
}

// StoreRow is one phrase query's fetch timings.
type StoreRow struct {
	Query       *Query
	Hits        int
	PairedTimes // per fetch
}

// StoreReport is what RunStore found.
type StoreReport struct {
	Corpus     string
	Docs       int
	RawBytes   int64 // sum of the records' lengths
	Sizes      []StoreSize
	Rows       []*StoreRow
	Mismatches []string
	Env        Env
	Cycles, K  int
}

// fetchResult is what one fetch returned: the count, the bytes of the
// records loaded and their FNV-1a hash in order (as LuceneBench computes it).
type fetchResult struct {
	Count  int
	Loaded int64
	Hash   uint64
}

// sniiFetcher counts a query's hits and loads its first k records: one search
// (AppendDocs with Limit k and Total) and one Records call.
type sniiFetcher struct {
	seg *reader.Segment
	rq  []reader.Query
	k   int
	buf []uint32
}

func (f *sniiFetcher) fetch(ctx context.Context, qi int) (fetchResult, error) {
	var r fetchResult
	var n uint64
	var err error
	f.buf, err = f.seg.AppendDocs(ctx, f.rq[qi], &reader.SearchOptions{Limit: f.k, Total: &n}, f.buf[:0])
	if err != nil {
		return r, err
	}
	r.Count = int(n)
	h := fnv.New64a()
	err = f.seg.Records(ctx, f.buf, func(_ uint32, rec []byte) error {
		r.Loaded += int64(len(rec))
		h.Write(rec)
		return nil
	})
	r.Hash = h.Sum64()
	return r, err
}

func (f *sniiFetcher) run(qi, reps int) (fetchResult, Timing, error) {
	var last fetchResult
	_, t, err := timeCalls(reps, func() (int, error) {
		r, err := f.fetch(context.Background(), qi)
		last = r
		return r.Count, err
	})
	return last, t, err
}

// luceneFetch runs LuceneBench's fetch command: count query qi's hits and
// load the stored text of its first k hits, reps times.
func (e *luceneEngine) luceneFetch(qi, reps, k int) (fetchResult, Timing, error) {
	line, err := e.call(fmt.Sprintf("fetch %d %d %d", qi, reps, k))
	if err != nil {
		return fetchResult{}, Timing{}, err
	}
	f := strings.Fields(line)
	if len(f) != 5 {
		return fetchResult{}, Timing{}, fmt.Errorf("lucene fetch: %q", line)
	}
	var vals [4]int64
	for i := range vals {
		if vals[i], err = strconv.ParseInt(f[i], 10, 64); err != nil {
			return fetchResult{}, Timing{}, fmt.Errorf("lucene fetch: %q", line)
		}
	}
	h, err := strconv.ParseUint(f[4], 10, 64)
	if err != nil {
		return fetchResult{}, Timing{}, fmt.Errorf("lucene fetch: %q", line)
	}
	return fetchResult{Count: int(vals[0]), Loaded: vals[3], Hash: h}, Timing{Wall: time.Duration(vals[1]), CPU: time.Duration(vals[2])}, nil
}

// buildSniiStore builds a snii segment of the docs file with every document's
// text stored as its record (the default options otherwise).
func buildSniiStore(docsPath, out string) (StoreSize, error) {
	res := StoreSize{Engine: "snii"}
	start := time.Now()
	w, err := writer.Create(context.Background(), out, writer.DefaultOptions(Field))
	if err != nil {
		return res, err
	}
	if _, err := writeSnii(w, docsPath, true); err != nil {
		return res, err
	}
	res.BuildSecond = time.Since(start).Seconds()
	fi, err := os.Stat(out)
	if err != nil {
		return res, err
	}
	res.Total = fi.Size()
	seg, err := reader.Open(out, reader.Options{})
	if err != nil {
		return res, err
	}
	defer seg.Close()
	st, ok := seg.Store()
	if !ok {
		return res, fmt.Errorf("%s: no store", out)
	}
	res.Stored = int64(st.Bytes)
	return res, nil
}

// RunStore builds snii (records stored) and Lucene (text stored, under
// BEST_COMPRESSION and BEST_SPEED) indexes of the corpus, checks that every
// phrase query of the query file with hits counts the same hits and loads the
// same first K records (byte for byte, in doc order) in snii and Lucene
// BEST_SPEED, and times the fetch in interleaved cycles.
func RunStore(cfg StoreConfig) (*StoreReport, error) {
	if cfg.Cycles <= 0 {
		cfg.Cycles = 6
	}
	if cfg.K <= 0 {
		cfg.K = 20
	}
	if cfg.Copies <= 0 {
		cfg.Copies = 1
	}
	logf, err := cfg.defaults()
	if err != nil {
		return nil, err
	}
	c, err := LoadCorpus(cfg.CorporaRoot, cfg.Corpus)
	if err != nil {
		return nil, err
	}
	docs := c.Docs
	for i := 1; i < cfg.Copies; i++ {
		docs = append(docs, c.Docs...)
	}
	rep := &StoreReport{Corpus: cfg.Corpus, Docs: len(docs), Env: CaptureEnv(), Cycles: cfg.Cycles, K: cfg.K}
	if cfg.Copies > 1 {
		rep.Corpus = fmt.Sprintf("%s x%d", cfg.Corpus, cfg.Copies)
	}
	for _, d := range docs {
		rep.RawBytes += int64(len(d))
	}
	seeds, err := LoadQueries(cfg.QueriesPath)
	if err != nil {
		return nil, err
	}
	var qs []*Query
	for _, q := range seeds {
		if q.Kind == KindPhrase {
			qs = append(qs, q)
		}
	}
	docsPath := filepath.Join(cfg.WorkDir, "docs.bin")
	if err := WriteDocsFile(docsPath, docs); err != nil {
		return nil, err
	}
	docs, c = nil, nil
	lu, err := SetupLucene(cfg.LuceneSrc, cfg.LuceneJars, cfg.WorkDir)
	if err != nil {
		return nil, err
	}
	rep.Env.Java = lu.Version
	segPath := filepath.Join(cfg.WorkDir, "store.snii")
	sz, err := buildSniiStore(docsPath, segPath)
	if err != nil {
		return nil, err
	}
	rep.Sizes = append(rep.Sizes, sz)
	for _, mode := range []string{"compression", "speed"} {
		dir := filepath.Join(cfg.WorkDir, "lucene-"+mode)
		b, err := lu.BuildStored(docsPath, dir, mode)
		if err != nil {
			return nil, err
		}
		s := StoreSize{Engine: "lucene BEST_" + strings.ToUpper(mode), Total: b.Size, BuildSecond: b.Seconds}
		for _, ext := range []string{".fdt", ".fdx", ".fdm"} {
			s.Stored += b.Sections[ext]
		}
		rep.Sizes = append(rep.Sizes, s)
	}
	logf("%s: %d docs, %d phrase queries; sizes %+v", rep.Corpus, rep.Docs, len(qs), rep.Sizes)

	seg, err := reader.Open(segPath, reader.Options{})
	if err != nil {
		return nil, err
	}
	defer seg.Close()
	sf := &sniiFetcher{seg: seg, k: cfg.K}
	for _, q := range qs {
		sf.rq = append(sf.rq, sniiQuery(q))
	}
	le, err := lu.Serve(filepath.Join(cfg.WorkDir, "lucene-speed"), cfg.WorkDir, qs)
	if err != nil {
		return nil, err
	}
	defer le.Close()
	lf := le.(*luceneEngine)

	// The oracle: the same count and the same first K records, byte for byte.
	var timed []int
	for i, q := range qs {
		want, _, err := lf.luceneFetch(i, 1, cfg.K)
		if err != nil {
			return nil, err
		}
		got, err := sf.fetch(context.Background(), i)
		if err != nil || got != want {
			rep.Mismatches = append(rep.Mismatches, fmt.Sprintf("%s: snii %+v (%v), lucene %+v", q, got, err, want))
			continue
		}
		if want.Count > 0 {
			timed = append(timed, i)
			rep.Rows = append(rep.Rows, &StoreRow{Query: q, Hits: want.Count})
		}
	}
	logf("fetch: %d of %d queries differ; %d with hits timed", len(rep.Mismatches), len(qs), len(timed))
	if len(rep.Mismatches) > 0 {
		return rep, nil
	}
	logf("lucene: JVM warm-up %s", cfg.LuceneWarmup)
	if err := lf.Warmup(cfg.LuceneWarmup); err != nil {
		return nil, err
	}
	// Warm and calibrate both: reps so that a sample lasts about MinSample.
	reps := make([][2]int, len(timed))
	for j, qi := range timed {
		for k := 0; k < 2; k++ {
			n := 1
			for {
				var t Timing
				if k == 0 {
					_, t, err = sf.run(qi, n)
				} else {
					_, t, err = lf.luceneFetch(qi, n, cfg.K)
				}
				if err != nil {
					return nil, err
				}
				if t.Wall >= cfg.MinSample || n >= cfg.MaxReps {
					break
				}
				n = min(cfg.MaxReps, n*2)
			}
			reps[j][k] = n
		}
	}
	rep.Env.LoadBefore = LoadAvg()
	defer func() { rep.Env.LoadAfter = LoadAvg() }()
	samples := make([][2][]float64, len(timed))
	cpus := make([][2][]float64, len(timed))
	for cy := 0; cy < cfg.Cycles; cy++ {
		for j, qi := range timed {
			for o := 0; o < 2; o++ {
				k := o
				if cy%2 == 1 {
					k = 1 - o
				}
				var r fetchResult
				var t Timing
				if k == 0 {
					r, t, err = sf.run(qi, reps[j][k])
				} else {
					r, t, err = lf.luceneFetch(qi, reps[j][k], cfg.K)
				}
				if err != nil {
					return nil, err
				}
				if r.Count != rep.Rows[j].Hits {
					return nil, fmt.Errorf("cycle %d: %s counted %d, want %d", cy, qs[qi], r.Count, rep.Rows[j].Hits)
				}
				samples[j][k] = append(samples[j][k], float64(t.Wall.Nanoseconds())/float64(reps[j][k]))
				cpus[j][k] = append(cpus[j][k], float64(t.CPU.Nanoseconds())/float64(reps[j][k]))
			}
		}
		logf("cycle %d/%d done", cy+1, cfg.Cycles)
	}
	for j, r := range rep.Rows {
		r.PairedTimes = pairedTimes(samples[j], cpus[j])
	}
	return rep, nil
}

// Markdown renders the report: sizes, then the fetch times per query with
// the median and the worst of the per-query ratios.
func (r *StoreReport) Markdown(command string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Stored records: snii vs Lucene 8.8.1, corpus %s (%d docs, %.1f MB of records)\n\n", r.Corpus, r.Docs, float64(r.RawBytes)/1e6)
	fmt.Fprintf(&b, "Command: `%s` (in bench/). Commit %s (dirty: %v), %s, %s, %s, %d CPUs; load before/after the cycles %s / %s.\n\n",
		command, r.Env.Commit, r.Env.Dirty, r.Env.Go, r.Env.Java, r.Env.CPU, r.Env.NumCPU, r.Env.LoadBefore, r.Env.LoadAfter)
	fmt.Fprintf(&b, "| index | total bytes | stored records | vs Lucene BEST_COMPRESSION total | build s |\n|---|---|---|---|---|\n")
	var ref float64
	for _, s := range r.Sizes {
		if s.Engine == "lucene BEST_COMPRESSION" {
			ref = float64(s.Total)
		}
	}
	for _, s := range r.Sizes {
		rel := "-"
		if ref > 0 {
			rel = fmt.Sprintf("%.3f×", float64(s.Total)/ref)
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %s | %.2f |\n", s.Engine, s.Total, s.Stored, rel, s.BuildSecond)
	}
	fmt.Fprintf(&b, "\nFetch checks: %d mismatches (count and the first %d records byte for byte, snii vs Lucene BEST_SPEED).\n", len(r.Mismatches), r.K)
	for _, m := range r.Mismatches {
		fmt.Fprintf(&b, "- MISMATCH %s\n", m)
	}
	if len(r.Rows) == 0 {
		return b.String()
	}
	var ratios, cpu []float64
	worst := r.Rows[0]
	for _, row := range r.Rows {
		ratios = append(ratios, row.Ratio)
		cpu = append(cpu, row.CPURatio)
		if row.Ratio > worst.Ratio {
			worst = row
		}
	}
	fmt.Fprintf(&b, "\nFetch (count every hit, load the first %d records) over %d phrase queries with hits, %d interleaved cycles (order alternating): "+
		"**median of the per-query ratios snii/Lucene BEST_SPEED %.2f×** (thread CPU %.2f×), worst %.2f× (`%s`), geometric mean %.2f×.\n\n",
		r.K, len(r.Rows), r.Cycles, median(ratios), median(cpu), worst.Ratio, strings.Join(worst.Query.Terms, " "), geomean(ratios))
	rows := slices.Clone(r.Rows)
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].Ratio > rows[j].Ratio })
	fmt.Fprintf(&b, "| query | hits | snii µs | Lucene µs | snii/Lucene | CPU snii/Lucene |\n|---|---|---|---|---|---|\n")
	for _, row := range rows {
		fmt.Fprintf(&b, "| `%s` | %d | %.1f | %.1f | %.2f | %.2f |\n", strings.Join(row.Query.Terms, " "), row.Hits, row.SniiNs/1e3, row.LuceneNs/1e3, row.Ratio, row.CPURatio)
	}
	return b.String()
}
