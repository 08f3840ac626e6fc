package peers

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/snii-go/snii/reader"
)

// KindOr is a disjunction of terms (ranked comparisons only): a snii Or of
// Terms, a Lucene BooleanQuery of SHOULD TermQuery clauses.
const KindOr Kind = "or"

// ScoredDoc is one hit of a ranked search.
type ScoredDoc struct {
	Doc   uint32
	Score float32
}

// BuildNorms indexes the docs file into dir like Build, with norms (Lucene's
// BM25 needs them).
func (l *Lucene) BuildNorms(docsPath, dir string) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	cmd := l.command("build", docsPath, dir, "norms")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if _, err := cmd.Output(); err != nil {
		return fmt.Errorf("lucene build: %v\n%s", err, stderr.String())
	}
	return nil
}

// LuceneTop is a Lucene server answering BM25 top-k searches.
type LuceneTop struct{ e *luceneEngine }

// ServeTop starts a Lucene server over dir for the queries (kinds term,
// phrase, or).
func (l *Lucene) ServeTop(dir, workDir string, qs []*Query) (*LuceneTop, error) {
	e, err := l.Serve(dir, workDir, qs)
	if err != nil {
		return nil, err
	}
	return &LuceneTop{e.(*luceneEngine)}, nil
}

// Close stops the server.
func (t *LuceneTop) Close() error { return t.e.Close() }

// Top returns Lucene's top k of query qi (IndexSearcher.search(q, k)).
func (t *LuceneTop) Top(qi, k int) ([]ScoredDoc, error) {
	line, err := t.e.call(fmt.Sprintf("top %d %d", qi, k))
	if err != nil {
		return nil, err
	}
	f := strings.Fields(line)
	n, err := strconv.Atoi(f[0])
	if err != nil || n != len(f)-1 {
		return nil, fmt.Errorf("lucene top: bad answer %q", line)
	}
	out := make([]ScoredDoc, n)
	for i, s := range f[1:] {
		d, sc, ok := strings.Cut(s, ":")
		v, err1 := strconv.ParseUint(d, 10, 32)
		x, err2 := strconv.ParseFloat(sc, 32)
		if !ok || err1 != nil || err2 != nil {
			return nil, fmt.Errorf("lucene top: bad hit %q", s)
		}
		out[i] = ScoredDoc{uint32(v), float32(x)}
	}
	return out, nil
}

// Time runs query qi's top k reps times inside the JVM.
func (t *LuceneTop) Time(qi, k, reps int) (Timing, error) {
	line, err := t.e.call(fmt.Sprintf("time %d %d %d", qi, k, reps))
	if err != nil {
		return Timing{}, err
	}
	var n int
	var wall, cpu int64
	if _, err := fmt.Sscan(line, &n, &wall, &cpu); err != nil {
		return Timing{}, fmt.Errorf("lucene time: %q: %w", line, err)
	}
	return Timing{Wall: durationNs(wall), CPU: durationNs(cpu)}, nil
}

// SniiTopQuery maps a query to snii (term, phrase, or).
func SniiTopQuery(q *Query) reader.Query {
	if q.Kind != KindOr {
		return sniiQuery(q)
	}
	qs := make([]reader.Query, len(q.Terms))
	for i, t := range q.Terms {
		qs[i] = reader.Term(Field, t)
	}
	return reader.Or(qs...)
}

func durationNs(ns int64) time.Duration { return time.Duration(ns) }

// TimeSniiTop runs seg.Top(q, k) reps times on a locked thread.
func TimeSniiTop(seg *reader.Segment, q reader.Query, k, reps int) (Timing, error) {
	_, t, err := timeCalls(reps, func() (int, error) {
		h, err := seg.Top(context.Background(), q, k, nil)
		return len(h), err
	})
	return t, err
}
