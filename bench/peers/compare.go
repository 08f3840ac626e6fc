package peers

import (
	"fmt"
	"io"
	"os"
	"time"
)

// CompareOptions are the settings the comparisons of snii with Lucene
// (RunSloppy, RunPatterns, RunStore) share.
type CompareOptions struct {
	WorkDir      string
	LuceneSrc    string        // the Lucene program (LuceneBench.java)
	LuceneJars   string        // default /usr/share/java
	LuceneWarmup time.Duration // default 8s
	Cycles       int           // timed cycles (0: compare hit sets only)
	MinSample    time.Duration // default 5ms
	MaxReps      int           // default 1000
	Log          io.Writer     // progress (default: discard)
}

// defaults fills o's defaults, creates the work folder and returns the
// progress logger.
func (o *CompareOptions) defaults() (func(format string, args ...any), error) {
	if o.LuceneJars == "" {
		o.LuceneJars = "/usr/share/java"
	}
	if o.LuceneWarmup <= 0 {
		o.LuceneWarmup = 8 * time.Second
	}
	if o.MinSample <= 0 {
		o.MinSample = 5 * time.Millisecond
	}
	if o.MaxReps <= 0 {
		o.MaxReps = 1000
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
	w := o.Log
	logf := func(format string, args ...any) { fmt.Fprintf(w, format+"\n", args...) }
	if err := os.MkdirAll(o.WorkDir, 0o755); err != nil {
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
