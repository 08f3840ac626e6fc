package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/snii-go/snii/bench/peers"
)

// addCorpusFlags defines -corpus, -corpora and -queries (with its usage).
func addCorpusFlags(fs *flag.FlagSet, queriesUsage string) (corpus, corpora, queries *string) {
	corpus = fs.String("corpus", peers.CorpusAgent, "corpus: agent or service")
	corpora = fs.String("corpora", "", "shared corpora folder (default: found by walking up to shared/corpora)")
	queries = fs.String("queries", "", queriesUsage)
	return corpus, corpora, queries
}

// luceneFlags locate the Lucene program and its jars, and set its warm-up.
type luceneFlags struct {
	src, jars *string
	warm      *time.Duration
}

func addLuceneFlags(fs *flag.FlagSet) luceneFlags {
	return luceneFlags{
		src:  fs.String("lucene-src", "lucene/LuceneBench.java", "the Lucene program"),
		jars: fs.String("lucene-jars", "/usr/share/java", "folder of the Lucene jars"),
		warm: fs.Duration("lucene-warmup", 8*time.Second, "JVM warm-up before timing"),
	}
}

// compareFlags are the flags the comparisons with Lucene (sloppy, patterns,
// store) share.
type compareFlags struct {
	corpus, corpora, queries, out, work *string
	cycles                              *int
	minSample                           *time.Duration
	lucene                              luceneFlags
}

// addCompareFlags defines the comparison flags with the subcommand's usages
// and defaults for -queries, -out, -cycles and -work.
func addCompareFlags(fs *flag.FlagSet, queriesUsage, out, outUsage string, cycles int, cyclesUsage, workUsage string) compareFlags {
	var f compareFlags
	f.corpus, f.corpora, f.queries = addCorpusFlags(fs, queriesUsage)
	f.out = fs.String("out", out, outUsage)
	f.cycles = fs.Int("cycles", cycles, cyclesUsage)
	f.minSample = fs.Duration("min-sample", 5*time.Millisecond, "each sample repeats a query about this long")
	f.lucene = addLuceneFlags(fs)
	f.work = fs.String("work", "", workUsage)
	return f
}

// inputs finds the corpora folder, defaults -queries to
// queries/<corpus>.txt, and returns the work folder (-work, kept, or a new
// temporary folder named with prefix that cleanup removes).
func (f compareFlags) inputs(prefix string) (root, work string, cleanup func(), err error) {
	if root, err = corpusInputs(*f.corpora, f.queries, *f.corpus); err != nil {
		return "", "", nil, err
	}
	work, cleanup, err = workDir(*f.work, false, prefix)
	return root, work, cleanup, err
}

// options returns the comparison's settings, with work as the work folder
// and the progress on stderr.
func (f compareFlags) options(work string) peers.CompareOptions {
	return peers.CompareOptions{
		WorkDir: work, LuceneSrc: *f.lucene.src, LuceneJars: *f.lucene.jars, LuceneWarmup: *f.lucene.warm,
		Cycles: *f.cycles, MinSample: *f.minSample, Log: os.Stderr,
	}
}

// writeCompare writes a comparison's Markdown, headed by the command line that
// reproduces it, to out/file, and fails when mismatches (what differs) is not
// zero.
func writeCompare(out, file, sub string, args []string, markdown func(command string) string, mismatches int, what string) error {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	path := filepath.Join(out, file)
	if err := os.WriteFile(path, []byte(markdown("go run ./cmd/peers "+sub+" "+strings.Join(reportArgs(args), " "))), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "wrote %s\n", path)
	if mismatches > 0 {
		return fmt.Errorf("%d %s (see %s)", mismatches, what, path)
	}
	return nil
}
