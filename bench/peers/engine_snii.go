package peers

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/snii-go/snii/budget"
	"github.com/snii-go/snii/internal/seam"

	"github.com/snii-go/snii/reader"
	"github.com/snii-go/snii/writer"
)

// BuildSnii builds one snii segment from the docs file: one field, the
// standard analyzer, no store (Lucene stores no fields here), default
// options except the codec policy (minSaving -1:
// the per-field budget, at budgetPercent or the default 8% when 0; 0: always
// the smallest frame; 1..100: a fixed share).
func BuildSnii(name, docsPath, out string, minSaving, budgetPercent int) (BuildResult, error) {
	return buildSnii(name, docsPath, out, minSaving, budgetPercent, writer.Pairs{})
}

// pairsOf returns the pair settings of a pair budget percent (0: none).
func pairsOf(percent int) writer.Pairs {
	if percent == 0 {
		return writer.Pairs{Percent: writer.PairsOff}
	}
	return writer.Pairs{Percent: percent}
}

// pairsPercent is the pair budget percent of p: 0 when off.
func pairsPercent(p writer.Pairs) int {
	switch p.Percent {
	case 0:
		return writer.DefaultPairsPercent
	case writer.PairsOff:
		return 0
	}
	return p.Percent
}

// buildSnii is BuildSnii with pair settings.
func buildSnii(name, docsPath, out string, minSaving, budgetPercent int, pairs writer.Pairs) (BuildResult, error) {
	o := writer.DefaultOptions(Field)
	o.Pairs = pairs
	o.NoStore = true // the index alone, as Lucene builds it here (no stored fields); `peers store` compares stores
	if budgetPercent <= 0 {
		budgetPercent = budget.DefaultBudgetPercent
	}
	o.Policy = budget.FromPercents(minSaving, budgetPercent)
	policyMinSaving, policyBudget := o.Policy.Percents()
	res := BuildResult{Engine: name, Options: fmt.Sprintf("snii writer.DefaultOptions(%q), standard analyzer, MinSavingPercent %d, BudgetPercent %d, pairs %d%%, no store, memory limit default", Field, policyMinSaving, policyBudget, pairsPercent(pairs))}
	if err := os.RemoveAll(out); err != nil {
		return res, err
	}
	start := time.Now()
	w, err := writer.Create(context.Background(), out, o)
	if err != nil {
		return res, err
	}
	if res.Docs, err = writeSnii(w, docsPath, false); err != nil {
		return res, err
	}
	res.Seconds = time.Since(start).Seconds()
	fi, err := os.Stat(out)
	if err != nil {
		return res, err
	}
	res.Size = fi.Size()
	res.Files = map[string]int64{"segment": res.Size}
	res.Sections, res.Stats, err = sniiSections(out)
	return res, err
}

// writeSnii adds every document of the docs file to w (its text as the
// field's value, and as the record when record is set) and closes w; on an
// error it aborts w. It returns how many documents it added.
func writeSnii(w *writer.Writer, docsPath string, record bool) (int, error) {
	n := 0
	doc := writer.Document{Fields: []writer.Field{{Name: Field, Values: []string{""}}}}
	err := EachDoc(docsPath, func(id int, text string) error {
		doc.Fields[0].Values[0] = text
		if record {
			doc.Record = []byte(text)
		}
		got, err := w.Add(doc)
		if err == nil && got != uint32(id) {
			err = fmt.Errorf("snii: doc %d got id %d", id, got)
		}
		n++
		return err
	})
	if err != nil {
		w.Abort()
		return n, err
	}
	return n, w.Close()
}

// sniiSections splits the segment file by section, from the index metadata.
func sniiSections(path string) (sec, st map[string]int64, err error) {
	seg, err := reader.Open(path, reader.Options{})
	if err != nil {
		return nil, nil, err
	}
	defer seg.Close()
	m, err := seam.IndexMeta(seg, Field)
	if err != nil {
		return nil, nil, err
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	posting := int64(m.PostingLen)
	sec = map[string]int64{
		"prx frames (posting region)":             int64(m.PrxBytes),
		"doc windows + preludes (posting region)": posting - int64(m.PrxBytes),
		"dictionary (incl. inline terms)":         int64(m.DictLen),
		"pair section":                            int64(m.PairsLen),
		"header, metadata, directory, tail":       fi.Size() - posting - int64(m.DictLen) - int64(m.PairsLen),
	}
	st = map[string]int64{
		"positions":               int64(m.SumTTF),
		"terms":                   int64(m.TermCount),
		"inline terms":            int64(m.InlineTerms),
		"slim terms":              int64(m.SlimTerms),
		"windowed terms":          int64(m.WindowedTerms),
		"inline prx frame bytes":  int64(m.InlineFrameBytes),
		"preludes bytes":          int64(m.PreludeBytes),
		"budget eligible windows": m.Outcome.Budget.Eligible,
		"budget sum smallest":     m.Outcome.Budget.SumSmallest,
		"budget traded bytes":     m.Outcome.Budget.Traded,
		"budget traded windows":   m.Outcome.Budget.TradedCount,
		"pairs kept":              int64(m.PairCount),
		"pairs eligible":          int64(m.PairsEligible),
	}
	for c, name := range []string{"RAW", "ZSTD", "PFOR"} {
		st["windows "+name] = m.Outcome.Windows[c]
		st["frame bytes "+name] = m.Outcome.Bytes[c]
	}
	return sec, st, nil
}

// sniiQuery maps a harness query to a snii query (prefix and pattern kinds:
// every expansion, maxExpansions 0).
func sniiQuery(q *Query) reader.Query {
	switch q.Kind {
	case KindTerm:
		return reader.Term(Field, q.Terms[0])
	case KindPhrase:
		return reader.Phrase(Field, q.Terms...)
	case KindPrefix:
		return reader.Prefix(Field, q.Terms[0], 0)
	case KindSloppy:
		return reader.SloppyPhrase(Field, q.Slop, q.Terms...)
	case KindRegexp:
		return reader.Regexp(Field, q.Text, 0)
	case KindWildcard:
		return reader.Wildcard(Field, q.Text, 0)
	default:
		return reader.PhrasePrefix(Field, 0, q.Terms...)
	}
}

type sniiEngine struct {
	name   string
	seg    *reader.Segment
	qs     []*Query
	rq     []reader.Query
	runBuf []uint32 // the doc buffer Run reuses (Run is not called concurrently; the concurrency phases use count)
}

// OpenSnii opens a segment with reader.Open for the prepared queries.
func OpenSnii(name, path string, qs []*Query) (Engine, error) {
	seg, err := reader.Open(path, reader.Options{})
	if err != nil {
		return nil, err
	}
	e := &sniiEngine{name: name, seg: seg, qs: qs}
	for _, q := range qs {
		e.rq = append(e.rq, sniiQuery(q))
	}
	return e, nil
}

func (e *sniiEngine) Name() string { return e.name }
func (e *sniiEngine) Close() error { return e.seg.Close() }

// count answers query qi. A term query is answered by Docs, which decodes
// the postings: Segment.Count would answer it from the dict entry's df,
// while bleve and Lucene are timed iterating the postings.
func (e *sniiEngine) count(ctx context.Context, qi int) (int, error) {
	return e.countInto(ctx, qi, nil)
}

// countInto is count with a doc buffer the caller reuses across calls (nil:
// none): a term's docs are decoded into it, as Lucene's count collector walks
// them without keeping a list.
func (e *sniiEngine) countInto(ctx context.Context, qi int, buf *[]uint32) (int, error) {
	if e.qs[qi].Kind == KindTerm {
		var dst []uint32
		if buf != nil {
			dst = (*buf)[:0]
		}
		d, err := e.seg.AppendDocs(ctx, e.rq[qi], nil, dst)
		if buf != nil {
			*buf = d
		}
		return len(d), err
	}
	n, err := e.seg.Count(ctx, e.rq[qi], nil)
	return int(n), err
}

func (e *sniiEngine) Run(qi, reps int) (int, Timing, error) {
	ctx := context.Background()
	n, t, err := timeCalls(reps, func() (int, error) { return e.countInto(ctx, qi, &e.runBuf) })
	if err != nil {
		return 0, t, fmt.Errorf("%s %s: %w", e.name, e.qs[qi], err)
	}
	return n, t, nil
}

func (e *sniiEngine) Docs(qi int) ([]uint32, error) {
	return e.seg.Docs(context.Background(), e.rq[qi], nil)
}

// sniiCounter is the concurrency phase's view: one shared segment.
type sniiCounter struct {
	e  *sniiEngine
	qs []*Query
}

func openSniiCounter(path string, qs []*Query) (*sniiCounter, error) {
	e, err := OpenSnii(EngineSnii, path, qs)
	if err != nil {
		return nil, err
	}
	return &sniiCounter{e: e.(*sniiEngine), qs: qs}, nil
}

func (c *sniiCounter) count(qi int) (int, error) { return c.e.count(context.Background(), qi) }
func (c *sniiCounter) close()                    { c.e.Close() }

// SniiProfile is reader.Profile of one counted query, flattened for reports.
type SniiProfile struct {
	FramesRaw, FramesZstd, FramesPFOR int64
	FrameBytes, PlainBytes            int64
	TotalDocs, SelectedDocs           int64
	TotalPositions, SelectedPositions int64
	BytesRead, ReadRanges             int64
	DictBlocksRead                    int64
	DocWindowsRead, WindowsRead       int64
	DecodeUs, VerifyUs, TotalUs       float64
}

// Profile counts query qi once with a reader.Profile.
func (e *sniiEngine) Profile(qi int) (SniiProfile, error) {
	var p reader.Profile
	o := &reader.SearchOptions{Profile: &p}
	var err error
	if e.qs[qi].Kind == KindTerm {
		_, err = e.seg.Docs(context.Background(), e.rq[qi], o)
	} else {
		_, err = e.seg.Count(context.Background(), e.rq[qi], o)
	}
	return SniiProfile{
		FramesRaw: p.Frames[0], FramesZstd: p.Frames[1], FramesPFOR: p.Frames[2],
		FrameBytes: p.FrameBytes, PlainBytes: p.PlainBytes,
		TotalDocs: p.TotalDocs, SelectedDocs: p.SelectedDocs,
		TotalPositions: p.TotalPositions, SelectedPositions: p.SelectedPositions,
		BytesRead: p.BytesRead, ReadRanges: p.ReadRanges, DictBlocksRead: p.DictBlocksRead,
		DocWindowsRead: p.DocWindowsRead, WindowsRead: p.WindowsRead,
		DecodeUs: float64(p.DecodeNanos) / 1e3, VerifyUs: float64(p.VerifyTime.Nanoseconds()) / 1e3,
		TotalUs: float64(p.TotalTime.Nanoseconds()) / 1e3,
	}, err
}
