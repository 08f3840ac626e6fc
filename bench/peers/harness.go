package peers

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Engine names. "snii" is the default build (the per-field budget, 8%);
// "snii-p0" is policy 0 (always the smallest frame), the baseline of every
// budget claim. Ratios in reports are engine/snii.
const (
	EngineSnii   = "snii"
	EngineSniiP0 = "snii-p0"
	EngineBleve  = "bleve"
	EngineLucene = "lucene"
)

// Config is one harness run over one corpus.
type Config struct {
	Corpus      string   // corpus name (agent, service) or a label when Docs is set
	CorporaRoot string   // shared/corpora
	Docs        []string // documents (instead of loading Corpus)
	// Copies repeats the documents this many times, in order, doc ids running
	// on (the "same file four times over" scale test); 0 or 1: once.
	Copies      int
	QueriesPath string   // query file
	Queries     []*Query // queries (instead of QueriesPath)

	WorkDir string   // indexes and exchange files (created; left in place)
	Engines []string // default: snii, snii-p0, bleve, lucene

	Cycles    int           // timed cycles (default 10; at least 6 for a report)
	MinSample time.Duration // each sample repeats a query until about this long (default 10ms)
	MaxReps   int           // cap on repetitions per sample (default 2000)
	BuildRuns int           // builds per engine, interleaved (default 3); the median is reported

	// LuceneSrc is bench/lucene/LuceneBench.java; LuceneJars the jar folder
	// (default /usr/share/java). Lucene is skipped (and the reason recorded)
	// when java, javac or the jars are missing.
	LuceneSrc    string
	LuceneJars   string
	LuceneWarmup time.Duration // JVM warm-up over all queries before timing (default 8s)
	// LuceneJVMArgs are passed to every JVM the harness starts, before the
	// class path (default none: the JVM's own defaults, which pick G1 on a
	// machine of two CPUs or more and the serial collector on one).
	LuceneJVMArgs []string

	// Self is the harness executable: builds and the concurrency phase run
	// in child processes of it (so that each has its own peak RSS). Empty:
	// everything runs in this process and peak RSS is not measured.
	Self string

	Goroutines []int // concurrency phase (default 1, 2, 4, 8; empty slice with ConcOps < 0: none)
	ConcOps    int   // queries per concurrency phase (default 40 rounds of the query set)

	Log     io.Writer // progress (default: discard)
	Command string    // the command line, for the report
}

func (c *Config) defaults() {
	if len(c.Engines) == 0 {
		c.Engines = []string{EngineSnii, EngineSniiP0, EngineBleve, EngineLucene}
	}
	if c.Cycles <= 0 {
		c.Cycles = 10
	}
	if c.MinSample <= 0 {
		c.MinSample = 10 * time.Millisecond
	}
	if c.MaxReps <= 0 {
		c.MaxReps = 2000
	}
	if c.BuildRuns <= 0 {
		c.BuildRuns = 3
	}
	if c.LuceneJars == "" {
		c.LuceneJars = "/usr/share/java"
	}
	if c.LuceneWarmup <= 0 {
		c.LuceneWarmup = 8 * time.Second
	}
	if c.Goroutines == nil && c.ConcOps >= 0 {
		c.Goroutines = []int{1, 2, 4, 8}
	}
	if c.Log == nil {
		c.Log = io.Discard
	}
}

// CorpusInfo describes the corpus of a run.
type CorpusInfo struct {
	Name      string   `json:"name"`
	Docs      int      `json:"docs"`
	Bytes     int64    `json:"bytes"`
	Positions int      `json:"positions"` // tokens, the skipped over-long ones included
	Sources   []string `json:"sources"`
}

// QueryResult holds one query's answers and timings.
type QueryResult struct {
	ID      int                  `json:"id"`
	Kind    Kind                 `json:"kind"`
	Class   string               `json:"class"`
	Text    string               `json:"text"`
	Terms   []string             `json:"terms"`
	Hits    int                  `json:"hits"`                 // oracle
	Reps    map[string]int       `json:"reps"`                 // calls per sample, per engine
	Samples map[string][]float64 `json:"samples_ns_per_query"` // one per cycle, per engine
	Median  map[string]float64   `json:"median_ns"`
	// Ratio of engine to snii per cycle (min, max) and of the medians.
	RatioMin    map[string]float64 `json:"ratio_min"`
	RatioMax    map[string]float64 `json:"ratio_max"`
	RatioMedian map[string]float64 `json:"ratio_of_medians"`
	// Thread CPU time per query, one per cycle, per engine, and its median
	// (insensitive to other load on the machine; see Timing).
	CPUSamples map[string][]float64 `json:"cpu_samples_ns_per_query"`
	CPUMedian  map[string]float64   `json:"cpu_median_ns"`
	// Profiles of the snii engines: one profiled call each, after the cycles.
	Profiles map[string]*SniiProfile `json:"snii_profiles,omitempty"`
}

// Report is everything a run measured.
type Report struct {
	Env       Env            `json:"env"`
	Corpus    CorpusInfo     `json:"corpus"`
	Engines   []string       `json:"engines"`
	Settings  Settings       `json:"settings"`
	Builds    []BuildResult  `json:"builds"` // every build run, in order
	Queries   []*QueryResult `json:"queries"`
	Conc      []ConcPhase    `json:"concurrency,omitempty"`
	Skipped   []string       `json:"skipped,omitempty"` // engines not run, with the reason
	OracleSec float64        `json:"oracle_seconds"`
}

// Settings records the options of a run.
type Settings struct {
	Cycles       int     `json:"cycles"`
	MinSampleMs  float64 `json:"min_sample_ms"`
	MaxReps      int     `json:"max_reps"`
	BuildRuns    int     `json:"build_runs"`
	LuceneWarmS  float64 `json:"lucene_warmup_s"`
	LuceneJVM    string  `json:"lucene_jvm_args,omitempty"`
	Order        string  `json:"order"`
	Command      string  `json:"command,omitempty"`
	QueriesPath  string  `json:"queries_path,omitempty"`
	ConcOps      int     `json:"conc_ops,omitempty"`
	ConcQueryMix string  `json:"conc_query_mix,omitempty"`
}

// Mismatch is a query whose doc ids differ between an engine and the oracle.
type Mismatch struct {
	Engine  string
	Query   *Query
	Want    []uint32
	Got     []uint32
	Err     error
	Details string
}

func (m Mismatch) String() string {
	if m.Err != nil {
		return fmt.Sprintf("%s %s: error %v", m.Engine, m.Query, m.Err)
	}
	return fmt.Sprintf("%s %s: %d docs, oracle %d; %s", m.Engine, m.Query, len(m.Got), len(m.Want), m.Details)
}

// MismatchError is returned when any engine disagrees with the oracle: no
// timing is reported then.
type MismatchError struct{ Mismatches []Mismatch }

func (e *MismatchError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d hit-set mismatches with the oracle:", len(e.Mismatches))
	for _, m := range e.Mismatches {
		b.WriteString("\n  " + m.String())
	}
	return b.String()
}

// diffIDs describes the first few ids only in want or only in got.
func diffIDs(want, got []uint32) string {
	var missing, extra []uint32
	i, j := 0, 0
	for i < len(want) || j < len(got) {
		switch {
		case j >= len(got) || (i < len(want) && want[i] < got[j]):
			missing = append(missing, want[i])
			i++
		case i >= len(want) || got[j] < want[i]:
			extra = append(extra, got[j])
			j++
		default:
			i++
			j++
		}
	}
	f := func(xs []uint32) []uint32 { return xs[:min(len(xs), 8)] }
	return fmt.Sprintf("missing %d %v, extra %d %v", len(missing), f(missing), len(extra), f(extra))
}

// Run executes the whole harness for one corpus.
func Run(cfg Config) (*Report, error) {
	cfg.defaults()
	logf := func(format string, args ...any) { fmt.Fprintf(cfg.Log, format+"\n", args...) }
	rep := &Report{Env: CaptureEnv(), Settings: Settings{
		Cycles: cfg.Cycles, MinSampleMs: float64(cfg.MinSample) / 1e6, MaxReps: cfg.MaxReps,
		BuildRuns: cfg.BuildRuns, LuceneWarmS: cfg.LuceneWarmup.Seconds(), QueriesPath: cfg.QueriesPath,
		LuceneJVM: strings.Join(cfg.LuceneJVMArgs, " "),
		Order:     "per cycle, per query: engines in order on even cycles, reversed on odd cycles (A B C D, D C B A, ...)",
		Command:   cfg.Command,
	}}
	if err := os.MkdirAll(cfg.WorkDir, 0o755); err != nil {
		return nil, err
	}

	// Corpus and queries.
	docs := cfg.Docs
	rep.Corpus.Name = cfg.Corpus
	if docs == nil {
		c, err := LoadCorpus(cfg.CorporaRoot, cfg.Corpus)
		if err != nil {
			return nil, err
		}
		docs, rep.Corpus.Sources = c.Docs, c.Sources
	}
	if cfg.Copies > 1 {
		one := docs
		docs = make([]string, 0, len(one)*cfg.Copies)
		for range cfg.Copies {
			docs = append(docs, one...)
		}
		rep.Corpus.Name = fmt.Sprintf("%s-x%d", cfg.Corpus, cfg.Copies)
	}
	rep.Corpus.Docs = len(docs)
	for _, d := range docs {
		rep.Corpus.Bytes += int64(len(d))
	}
	qs := cfg.Queries
	if qs == nil {
		var err error
		if qs, err = LoadQueries(cfg.QueriesPath); err != nil {
			return nil, err
		}
	}
	docsPath := filepath.Join(cfg.WorkDir, "docs.bin")
	if err := WriteDocsFile(docsPath, docs); err != nil {
		return nil, err
	}
	logf("corpus %s: %d docs, %d bytes; %d queries", rep.Corpus.Name, rep.Corpus.Docs, rep.Corpus.Bytes, len(qs))

	// Oracle: every query's doc ids, by brute force.
	t0 := time.Now()
	or := NewOracle(docs)
	rep.Corpus.Positions = or.NumPositions()
	want := make([][]uint32, len(qs))
	for i, q := range qs {
		want[i] = or.Docs(q)
		rep.Queries = append(rep.Queries, &QueryResult{
			ID: q.ID, Kind: q.Kind, Class: q.Class, Text: q.Text, Terms: q.Terms, Hits: len(want[i]),
			Reps: map[string]int{}, Samples: map[string][]float64{}, Median: map[string]float64{},
			CPUSamples: map[string][]float64{}, CPUMedian: map[string]float64{},
			RatioMin: map[string]float64{}, RatioMax: map[string]float64{}, RatioMedian: map[string]float64{},
		})
	}
	rep.OracleSec = time.Since(t0).Seconds()
	logf("oracle: %d positions, %.1fs", rep.Corpus.Positions, rep.OracleSec)
	// The corpus and the oracle are not needed any more: drop them so that
	// the heap the Go engines run with holds only their own data.
	docs, or, cfg.Docs = nil, nil, nil
	_ = docs
	_ = or
	runtime.GC()

	// Lucene setup.
	engines := slices.Clone(cfg.Engines)
	var lu *Lucene
	if slices.Contains(engines, EngineLucene) {
		var err error
		lu, err = SetupLucene(cfg.LuceneSrc, cfg.LuceneJars, cfg.WorkDir)
		if err != nil {
			rep.Skipped = append(rep.Skipped, "lucene: "+err.Error())
			engines = slices.DeleteFunc(engines, func(e string) bool { return e == EngineLucene })
			logf("lucene skipped: %v", err)
		} else {
			lu.JVMArgs = cfg.LuceneJVMArgs
			rep.Env.Java = lu.Version
		}
	}
	rep.Engines = engines

	// Builds, interleaved: e1 e2 e3 e1 e2 e3 ...
	paths := map[string]string{}
	for _, e := range engines {
		switch e {
		case EngineBleve, EngineLucene:
			paths[e] = filepath.Join(cfg.WorkDir, e)
		default:
			paths[e] = filepath.Join(cfg.WorkDir, e+".snii")
		}
	}
	for r := 0; r < cfg.BuildRuns; r++ {
		for _, e := range engines {
			var res BuildResult
			var err error
			switch {
			case e == EngineLucene:
				res, err = lu.Build(docsPath, paths[e])
			case cfg.Self != "":
				res, err = buildChild(cfg.Self, e, docsPath, paths[e])
			default:
				res, err = BuildEngine(e, docsPath, paths[e])
			}
			if err != nil {
				return nil, fmt.Errorf("build %s: %w", e, err)
			}
			if res.Docs != rep.Corpus.Docs {
				return nil, fmt.Errorf("build %s: %d docs, want %d", e, res.Docs, rep.Corpus.Docs)
			}
			logf("build %s #%d: %.2fs, %d bytes, peak RSS %d MiB", e, r+1, res.Seconds, res.Size, res.PeakRSS>>20)
			rep.Builds = append(rep.Builds, res)
		}
	}

	// Open every engine on its files on disk.
	var open []Engine
	defer func() {
		for _, e := range open {
			e.Close()
		}
	}()
	for _, name := range engines {
		var e Engine
		var err error
		switch name {
		case EngineLucene:
			e, err = lu.Serve(paths[name], cfg.WorkDir, qs)
		case EngineBleve:
			e, err = OpenBleve(paths[name], qs)
		default:
			e, err = OpenSnii(name, paths[name], qs)
		}
		if err != nil {
			return nil, fmt.Errorf("open %s: %w", name, err)
		}
		open = append(open, e)
	}

	// Check every engine against the oracle before any timing.
	var mm []Mismatch
	for _, e := range open {
		for i, q := range qs {
			got, err := e.Docs(i)
			if err != nil {
				mm = append(mm, Mismatch{Engine: e.Name(), Query: q, Err: err})
				continue
			}
			if !slices.Equal(got, want[i]) {
				mm = append(mm, Mismatch{Engine: e.Name(), Query: q, Want: want[i], Got: got, Details: diffIDs(want[i], got)})
				continue
			}
			n, _, err := e.Run(i, 1)
			if err != nil || n != len(want[i]) {
				mm = append(mm, Mismatch{Engine: e.Name(), Query: q, Want: want[i], Err: err,
					Details: fmt.Sprintf("count %d, oracle %d", n, len(want[i]))})
			}
		}
	}
	if len(mm) > 0 {
		return rep, &MismatchError{Mismatches: mm}
	}
	logf("all %d engines agree with the oracle on %d queries", len(open), len(qs))

	// Warm-up and calibration of the repetitions per sample.
	for _, e := range open {
		if l, ok := e.(*luceneEngine); ok {
			logf("lucene: JVM warm-up %s", cfg.LuceneWarmup)
			if err := l.Warmup(cfg.LuceneWarmup); err != nil {
				return nil, err
			}
		}
		for i := range qs {
			reps, err := calibrate(e, i, cfg.MinSample, cfg.MaxReps)
			if err != nil {
				return nil, err
			}
			rep.Queries[i].Reps[e.Name()] = reps
		}
	}

	// Timed cycles, interleaved.
	rep.Env.LoadBefore = LoadAvg()
	for c := 0; c < cfg.Cycles; c++ {
		order := slices.Clone(open)
		if c%2 == 1 {
			slices.Reverse(order)
		}
		for i := range qs {
			qr := rep.Queries[i]
			for _, e := range order {
				reps := qr.Reps[e.Name()]
				n, t, err := e.Run(i, reps)
				if err != nil {
					return nil, err
				}
				if n != qr.Hits {
					return nil, fmt.Errorf("cycle %d: %s %s counted %d, oracle %d", c, e.Name(), qs[i], n, qr.Hits)
				}
				qr.Samples[e.Name()] = append(qr.Samples[e.Name()], float64(t.Wall.Nanoseconds())/float64(reps))
				qr.CPUSamples[e.Name()] = append(qr.CPUSamples[e.Name()], float64(t.CPU.Nanoseconds())/float64(reps))
			}
		}
		logf("cycle %d/%d done", c+1, cfg.Cycles)
	}
	rep.Env.LoadAfter = LoadAvg()
	for _, qr := range rep.Queries {
		base := qr.Samples[EngineSnii]
		for _, e := range engines {
			s := qr.Samples[e]
			qr.Median[e] = median(s)
			qr.CPUMedian[e] = median(qr.CPUSamples[e])
			if base == nil || e == EngineSnii {
				continue
			}
			ratios := make([]float64, len(s))
			for c := range s {
				ratios[c] = s[c] / base[c]
			}
			qr.RatioMin[e], qr.RatioMax[e] = minMax(ratios)
			qr.RatioMedian[e] = qr.Median[e] / qr.Median[EngineSnii]
		}
	}
	for _, e := range open {
		se, ok := e.(*sniiEngine)
		if !ok {
			continue
		}
		for i, qr := range rep.Queries {
			p, err := se.Profile(i)
			if err != nil {
				return nil, err
			}
			if qr.Profiles == nil {
				qr.Profiles = map[string]*SniiProfile{}
			}
			qr.Profiles[se.name] = &p
		}
	}
	for _, e := range open {
		e.Close()
	}
	open = nil

	// Concurrency: snii, one shared segment.
	if len(cfg.Goroutines) > 0 && slices.Contains(engines, EngineSnii) {
		counts := make([]int, len(qs))
		for i := range want {
			counts[i] = len(want[i])
		}
		ops := cfg.ConcOps
		if ops <= 0 {
			ops = 40 * len(qs)
		}
		rep.Settings.ConcOps = ops
		rep.Settings.ConcQueryMix = "every query of the set (term, phrase, prefix, phrase prefix), a seeded shuffle of ops/len(set) rounds, taken in order by the goroutines from a shared counter"
		cc := ConcConfig{Segment: paths[EngineSnii], Queries: qs, Expected: counts, Goroutines: cfg.Goroutines, Ops: ops}
		var err error
		if cfg.Self != "" {
			rep.Conc, err = concChild(cfg.Self, cc, cfg.WorkDir)
		} else {
			rep.Conc, err = RunConc(cc)
		}
		if err != nil {
			return nil, fmt.Errorf("concurrency: %w", err)
		}
		for _, p := range rep.Conc {
			logf("concurrency %d goroutines: %.0f queries/s, p50 %.1fµs p95 %.1fµs", p.Goroutines, p.QPS, p.P50us, p.P95us)
		}
	}
	return rep, nil
}

// calibrate returns how many calls of query qi make a sample of about
// minSample (at most maxReps), from the best of three single calls.
func calibrate(e Engine, qi int, minSample time.Duration, maxReps int) (int, error) {
	var best time.Duration
	for k := 0; k < 3; k++ {
		_, t, err := e.Run(qi, 1)
		if err != nil {
			return 0, err
		}
		if k == 0 || t.Wall < best {
			best = t.Wall
		}
	}
	reps := 1
	if best > 0 {
		reps = int(minSample / best)
	}
	return max(1, min(reps, maxReps)), nil
}

// BuildEngine builds one Go engine's index in this process. Besides the
// named engines, "snii-sN" is snii with the fixed share N (MinSavingPercent
// N, 1..100; 100 stores the fast frame for every eligible window) and
// "snii-bN" snii with the budget at N percent, "snii-pairsN" snii with the
// phrase-pair budget at N percent of the .prx bytes (0: no pairs; plain
// "snii" has the default 10%).
func BuildEngine(engine, docsPath, out string) (BuildResult, error) {
	if v, ok := strings.CutPrefix(engine, "snii-pairs"); ok {
		if n, err := strconv.Atoi(v); err == nil && n >= 0 && n <= 100 {
			return buildSnii(engine, docsPath, out, -1, 0, pairsOf(n))
		}
	}
	switch engine {
	case EngineBleve:
		return BuildBleve(docsPath, out)
	case EngineSnii:
		return BuildSnii(engine, docsPath, out, -1, 0)
	case EngineSniiP0:
		return BuildSnii(engine, docsPath, out, 0, 0)
	}
	if v, ok := strings.CutPrefix(engine, "snii-s"); ok {
		if n, err := strconv.Atoi(v); err == nil && n >= 1 && n <= 100 {
			return BuildSnii(engine, docsPath, out, n, 0)
		}
	}
	if v, ok := strings.CutPrefix(engine, "snii-b"); ok {
		if n, err := strconv.Atoi(v); err == nil && n >= 0 && n <= 100 {
			return BuildSnii(engine, docsPath, out, -1, n)
		}
	}
	return BuildResult{}, fmt.Errorf("unknown engine %q", engine)
}

// buildChild runs `self build` in a child process and adds its peak RSS.
func buildChild(self, engine, docsPath, out string) (BuildResult, error) {
	cmd := exec.Command(self, "build", "-engine", engine, "-docs", docsPath, "-out", out)
	cmd.Stderr = os.Stderr
	b, err := cmd.Output()
	if err != nil {
		return BuildResult{}, err
	}
	var res BuildResult
	if err := json.Unmarshal(b, &res); err != nil {
		return res, fmt.Errorf("build child output %q: %w", b, err)
	}
	// The peak RSS comes from the child itself (VmHWM): getrusage's maxrss
	// of a child started with vfork+exec starts from the parent's peak.
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		res.CPUSec = float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
	}
	return res, nil
}

// concChild runs `self conc` in a child process.
func concChild(self string, cc ConcConfig, workDir string) ([]ConcPhase, error) {
	spec := filepath.Join(workDir, "conc.json")
	b, err := json.Marshal(cc)
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(spec, b, 0o644); err != nil {
		return nil, err
	}
	cmd := exec.Command(self, "conc", "-spec", spec)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, err
	}
	var phases []ConcPhase
	if err := json.Unmarshal(out, &phases); err != nil {
		return nil, fmt.Errorf("conc child output: %w", err)
	}
	return phases, nil
}
