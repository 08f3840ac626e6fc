package peers

import (
	"fmt"
	"io"
	"os"
	"time"
)

// compareDefaults fills the defaults the Lucene comparisons (RunSloppy,
// RunPatterns, RunStore) share: the Lucene jars and warm-up, the sample length,
// the repetitions per sample and the progress log. It creates the work folder
// and returns the progress logger.
func compareDefaults(jars *string, warm, minSample *time.Duration, maxReps *int, log *io.Writer, workDir string) (func(format string, args ...any), error) {
	if *jars == "" {
		*jars = "/usr/share/java"
	}
	if *warm <= 0 {
		*warm = 8 * time.Second
	}
	if *minSample <= 0 {
		*minSample = 5 * time.Millisecond
	}
	if *maxReps <= 0 {
		*maxReps = 1000
	}
	if *log == nil {
		*log = io.Discard
	}
	w := *log
	logf := func(format string, args ...any) { fmt.Fprintf(w, format+"\n", args...) }
	if err := os.MkdirAll(workDir, 0o755); err != nil {
		return nil, err
	}
	return logf, nil
}

// compareInputs returns docs, or when nil the corpus loaded from root, and
// qs, or when nil the queries of the file at queriesPath.
func compareInputs(docs []string, root, corpus string, qs []*Query, queriesPath string) ([]string, []*Query, error) {
	if docs == nil {
		c, err := LoadCorpus(root, corpus)
		if err != nil {
			return nil, nil, err
		}
		docs = c.Docs
	}
	if qs == nil {
		var err error
		if qs, err = LoadQueries(queriesPath); err != nil {
			return nil, nil, err
		}
	}
	return docs, qs, nil
}
