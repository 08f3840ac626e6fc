// Command peers runs snii side by side with bleve and Lucene on one corpus:
// builds every index (each build in a child process), checks every query's
// doc ids against a brute-force oracle, times count queries in interleaved
// cycles, runs a concurrency phase on snii, and writes
// REPORT-<corpus>.{md,json,csv}.
//
//	go run ./cmd/peers -corpus agent -queries queries/agent.txt -cycles 10 -out ../docs/bench/peers
//
// The subcommands build and conc are the children it starts itself; profile
// loops chosen queries on a snii segment under the CPU profiler; sloppy
// compares snii's sloppy phrases with Lucene's (hit sets, then timings); store compares
// stored records (sizes, and fetching a phrase's first 20 records) with Lucene's;
// patterns compares term patterns with Lucene's RegexpQuery and WildcardQuery:
//
//	go run ./cmd/peers sloppy -corpus agent -cycles 6 -out ../docs/bench/peers
//	go run ./cmd/peers patterns -corpus service -cycles 10 -out ../docs/bench/patterns
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/snii-go/snii/bench/peers"
)

func main() {
	if len(os.Args) > 1 {
		switch os.Args[1] {
		case "build":
			exit(buildCmd(os.Args[2:]))
			return
		case "conc":
			exit(concCmd(os.Args[2:]))
			return
		case "profile":
			exit(profileCmd(os.Args[2:]))
			return
		case "topprofile":
			exit(topProfileCmd(os.Args[2:]))
			return
		case "render":
			exit(renderCmd(os.Args[2:]))
			return
		case "sloppy":
			exit(sloppyCmd(os.Args[2:]))
			return
		case "store":
			exit(storeCmd(os.Args[2:]))
			return
		case "patterns":
			exit(patternsCmd(os.Args[2:]))
			return
		}
	}
	exit(runCmd(os.Args[1:]))
}

func exit(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "peers:", err)
		os.Exit(1)
	}
}

func runCmd(args []string) error {
	fs := flag.NewFlagSet("peers", flag.ExitOnError)
	corpus, corpora, queries := addCorpusFlags(fs, "query file (default queries/<corpus>.txt)")
	copies := fs.Int("copies", 1, "the corpus repeated this many times (a scale test; the report is REPORT-<corpus>-xN)")
	out := fs.String("out", "../docs/bench/peers", "folder for REPORT-<corpus>.{md,json,csv}")
	work := fs.String("work", "", "work folder for indexes (default a temp folder, removed at the end)")
	keep := fs.Bool("keep", false, "keep the work folder")
	cycles := fs.Int("cycles", 10, "timed cycles (at least 6)")
	minSample := fs.Duration("min-sample", 10*time.Millisecond, "each sample repeats a query about this long")
	buildRuns := fs.Int("build-runs", 3, "builds per engine, interleaved")
	engines := fs.String("engines", "snii,snii-p0,bleve,lucene", "engines, comma-separated")
	lucene := addLuceneFlags(fs)
	jvm := fs.String("lucene-jvm", "", "JVM options for Lucene, space-separated, e.g. -XX:+UseSerialGC (default: the JVM's defaults)")
	conc := fs.String("goroutines", "1,2,4,8", "concurrency phase goroutine counts (empty: none)")
	concOps := fs.Int("conc-ops", 0, "queries per concurrency phase (default 40 rounds of the query set)")
	fs.Parse(args)

	if *cycles < 6 {
		return errors.New("-cycles: at least 6")
	}
	root, err := corpusInputs(*corpora, queries, *corpus)
	if err != nil {
		return err
	}
	wd, cleanup, err := workDir(*work, *keep, "snii-peers-")
	if err != nil {
		return err
	}
	defer cleanup()
	self, err := os.Executable()
	if err != nil {
		return err
	}
	cfg := peers.Config{
		Corpus: *corpus, Copies: *copies, CorporaRoot: root, QueriesPath: *queries, WorkDir: wd,
		Engines: strings.Split(*engines, ","), Cycles: *cycles, MinSample: *minSample, BuildRuns: *buildRuns,
		LuceneSrc: *lucene.src, LuceneJars: *lucene.jars, LuceneWarmup: *lucene.warm, LuceneJVMArgs: strings.Fields(*jvm), Self: self,
		ConcOps: *concOps, Log: os.Stderr,
		Command: "go run ./cmd/peers " + strings.Join(reportArgs(args), " "),
	}
	if *conc == "" {
		cfg.Goroutines, cfg.ConcOps = []int{}, -1
	} else {
		for _, s := range strings.Split(*conc, ",") {
			n, err := strconv.Atoi(s)
			if err != nil || n < 1 {
				return fmt.Errorf("-goroutines %q", *conc)
			}
			cfg.Goroutines = append(cfg.Goroutines, n)
		}
	}
	rep, err := peers.Run(cfg)
	if err != nil {
		return err
	}
	if err := rep.WriteFiles(*out); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "wrote %s\n", filepath.Join(*out, "REPORT-"+rep.Corpus.Name+".md"))
	return nil
}

// buildCmd is the child that builds one Go engine's index and prints its
// BuildResult as JSON (the parent adds the peak RSS).
func buildCmd(args []string) error {
	fs := flag.NewFlagSet("build", flag.ExitOnError)
	engine := fs.String("engine", "", "snii, snii-p0 or bleve")
	docs := fs.String("docs", "", "docs file")
	out := fs.String("out", "", "index path")
	fs.Parse(args)
	res, err := peers.BuildEngine(*engine, *docs, *out)
	if err != nil {
		return err
	}
	res.PeakRSS = peers.PeakRSS()
	return json.NewEncoder(os.Stdout).Encode(res)
}

// concCmd is the child that runs the concurrency phases from a spec file and
// prints them as JSON.
func concCmd(args []string) error {
	fs := flag.NewFlagSet("conc", flag.ExitOnError)
	spec := fs.String("spec", "", "concurrency spec (JSON)")
	fs.Parse(args)
	b, err := os.ReadFile(*spec)
	if err != nil {
		return err
	}
	var cc peers.ConcConfig
	if err := json.Unmarshal(b, &cc); err != nil {
		return err
	}
	phases, err := peers.RunConc(cc)
	if err != nil {
		return err
	}
	return json.NewEncoder(os.Stdout).Encode(phases)
}

// profileCmd runs chosen queries of a query file on a snii segment in a loop
// under the CPU profiler, and prints each query's reader.Profile.
//
//	go run ./cmd/peers profile -seg /tmp/w/snii.snii -queries queries/service.txt -ids 18,49 -cpuprofile cpu.pprof
func profileCmd(args []string) error {
	fs := flag.NewFlagSet("profile", flag.ExitOnError)
	seg := fs.String("seg", "", "snii segment")
	queries := fs.String("queries", "", "query file")
	ids := fs.String("ids", "", "query ids (comma-separated; default all)")
	secs := fs.Duration("duration", 10*time.Second, "how long to loop")
	rounds := fs.Int("rounds", 0, "loop exactly this many rounds of the queries instead of -duration (a fixed work for instruction counts, e.g. under valgrind --tool=callgrind)")
	cpu := fs.String("cpuprofile", "cpu.pprof", "CPU profile output (empty: none)")
	sloppy := fs.String("sloppy", "", "comma-separated slops: profile the sloppy queries the sloppy command derives from the file's phrases at these slops (ids index them)")
	fs.Parse(args)
	qs, err := peers.LoadQueries(*queries)
	if err != nil {
		return err
	}
	if *sloppy != "" {
		var slops []int
		for _, s := range strings.Split(*sloppy, ",") {
			n, err := strconv.Atoi(s)
			if err != nil || n < 0 {
				return fmt.Errorf("-sloppy %q", *sloppy)
			}
			slops = append(slops, n)
		}
		qs, _ = peers.SloppyQueries(qs, slops)
	}
	var pick []int
	if *ids == "" {
		for i := range qs {
			pick = append(pick, i)
		}
	} else {
		for _, s := range strings.Split(*ids, ",") {
			n, err := strconv.Atoi(s)
			if err != nil || n < 0 || n >= len(qs) {
				return fmt.Errorf("-ids %q", *ids)
			}
			pick = append(pick, n)
		}
	}
	return peers.ProfileSnii(*seg, qs, pick, *secs, *rounds, *cpu, os.Stdout)
}

// topProfileCmd runs BM25 top-k searches of a query file's terms (and with
// -ors their adjacent pairs as disjunctions) a fixed number of rounds, for
// instruction counts:
//
//	GODEBUG=asyncpreemptoff=1 GOMAXPROCS=1 valgrind --tool=callgrind \
//	  peers topprofile -seg SEG -queries queries/service.txt -rounds 20 [-ors]
func topProfileCmd(args []string) error {
	fs := flag.NewFlagSet("topprofile", flag.ExitOnError)
	seg := fs.String("seg", "", "snii segment")
	queries := fs.String("queries", "", "query file (its term queries are used)")
	k := fs.Int("k", 10, "top k")
	rounds := fs.Int("rounds", 20, "rounds of the queries")
	ors := fs.Bool("ors", false, "also every two adjacent terms as a disjunction")
	fs.Parse(args)
	qs, err := peers.LoadQueries(*queries)
	if err != nil {
		return err
	}
	return peers.TopProfileSnii(*seg, qs, *k, *rounds, *ors, os.Stdout)
}

// renderCmd rewrites REPORT-<corpus>.{md,json,csv} from a report's JSON
// (after a change to the report's layout; no measurement is repeated).
func renderCmd(args []string) error {
	fs := flag.NewFlagSet("render", flag.ExitOnError)
	in := fs.String("json", "", "REPORT-<corpus>.json")
	out := fs.String("out", "", "output folder (default: the JSON's folder)")
	fs.Parse(args)
	rep, err := peers.ReadReport(*in)
	if err != nil {
		return err
	}
	if *out == "" {
		*out = filepath.Dir(*in)
	}
	return rep.WriteFiles(*out)
}

// reportArgs drops the flags that name local folders (they change nothing
// measured) from the command line recorded in the report.
func reportArgs(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		name := strings.TrimLeft(a, "-")
		name, _, hasValue := strings.Cut(name, "=")
		switch name {
		case "work", "corpora", "out", "lucene-jars":
			if !hasValue && i+1 < len(args) {
				i++
			}
			continue
		case "keep":
			continue
		}
		out = append(out, a)
	}
	return out
}

// sloppyCmd compares sloppy phrases with Lucene and writes
// SLOPPY-<corpus>.md; it fails when a hit set differs.
func sloppyCmd(args []string) error {
	fs := flag.NewFlagSet("sloppy", flag.ExitOnError)
	f := addCompareFlags(fs, "query file whose phrases seed the sloppy queries (default queries/<corpus>.txt)",
		"../docs/bench/peers", "folder for SLOPPY-<corpus>.md", 6, "timed cycles (0: compare hit sets only)",
		"work folder, kept afterwards (snii.snii, lucene/, docs.bin); default a temporary folder, removed")
	fs.Parse(args)
	root, wd, cleanup, err := f.inputs("snii-sloppy-")
	if err != nil {
		return err
	}
	defer cleanup()
	rep, err := peers.RunSloppy(peers.SloppyConfig{
		Corpus: *f.corpus, CorporaRoot: root, QueriesPath: *f.queries, CompareOptions: f.options(wd),
	})
	if err != nil {
		return err
	}
	return writeCompare(*f.out, "SLOPPY-"+*f.corpus+".md", "sloppy", args, rep.Markdown,
		len(rep.Mismatches), "sloppy queries differ from Lucene")
}

// patternsCmd compares term patterns with Lucene and writes
// PATTERNS-<corpus>.md; it fails when a hit set differs from the oracle.
func patternsCmd(args []string) error {
	fs := flag.NewFlagSet("patterns", flag.ExitOnError)
	f := addCompareFlags(fs, "query file of regexp and wildcard lines (default queries/patterns-<corpus>.txt)",
		"../docs/bench/patterns", "folder for PATTERNS-<corpus>.md", 10, "timed cycles (0: compare hit sets only)",
		"work folder, kept afterwards (snii.snii, lucene/, docs.bin); default a temporary folder, removed")
	fs.Parse(args)
	if *f.queries == "" {
		*f.queries = filepath.Join("queries", "patterns-"+*f.corpus+".txt")
	}
	root, wd, cleanup, err := f.inputs("snii-patterns-")
	if err != nil {
		return err
	}
	defer cleanup()
	rep, err := peers.RunPatterns(peers.PatternConfig{
		Corpus: *f.corpus, CorporaRoot: root, QueriesPath: *f.queries, CompareOptions: f.options(wd),
	})
	if err != nil {
		return err
	}
	return writeCompare(*f.out, "PATTERNS-"+*f.corpus+".md", "patterns", args, rep.Markdown,
		len(rep.Mismatches), "pattern hit sets differ from the oracle")
}

// storeCmd compares stored records with Lucene's: sizes with the text stored
// (BEST_COMPRESSION, BEST_SPEED) and the fetch of a phrase's first records.
func storeCmd(args []string) error {
	fs := flag.NewFlagSet("store", flag.ExitOnError)
	f := addCompareFlags(fs, "query file whose phrases are timed (default queries/<corpus>.txt)",
		"../docs/bench/store", "folder for STORE-<corpus>.md", 6, "timed cycles",
		"work folder, kept afterwards; default a temporary folder, removed")
	copies := fs.Int("copies", 1, "the corpus repeated this many times")
	k := fs.Int("k", 20, "records loaded per query")
	fs.Parse(args)
	root, wd, cleanup, err := f.inputs("snii-store-")
	if err != nil {
		return err
	}
	defer cleanup()
	rep, err := peers.RunStore(peers.StoreConfig{
		Corpus: *f.corpus, Copies: *copies, CorporaRoot: root, QueriesPath: *f.queries, K: *k,
		CompareOptions: f.options(wd),
	})
	if err != nil {
		return err
	}
	name := *f.corpus
	if *copies > 1 {
		name += fmt.Sprintf("-x%d", *copies)
	}
	return writeCompare(*f.out, "STORE-"+name+".md", "store", args, rep.Markdown,
		len(rep.Mismatches), "fetches differ from Lucene")
}

// corporaRoot returns the -corpora folder, or shared/corpora found by
// walking up from the working directory.
func corporaRoot(flagValue string) (string, error) {
	if flagValue != "" {
		return flagValue, nil
	}
	if root := peers.FindCorpora(); root != "" {
		return root, nil
	}
	return "", errors.New("shared/corpora not found (use -corpora)")
}

// corpusInputs finds the shared corpora folder and defaults the query file to
// queries/<corpus>.txt.
func corpusInputs(corpora string, queries *string, corpus string) (root string, err error) {
	if *queries == "" {
		*queries = filepath.Join("queries", corpus+".txt")
	}
	return corporaRoot(corpora)
}

// workDir returns the work folder: work when given (kept), else a new
// temporary folder that cleanup removes unless keep.
func workDir(work string, keep bool, prefix string) (dir string, cleanup func(), err error) {
	if work != "" {
		return work, func() {}, nil
	}
	d, err := os.MkdirTemp("", prefix)
	if err != nil {
		return "", nil, err
	}
	if keep {
		return d, func() {}, nil
	}
	return d, func() { os.RemoveAll(d) }, nil
}
