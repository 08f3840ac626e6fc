package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/snii-go/snii/internal/inorder"
	"github.com/snii-go/snii/reader"
	"github.com/snii-go/snii/search"
)

// The SGR sequences ripgrep writes around a match by default (bold red), so
// that --color always output compares byte for byte with rg's.
const (
	colorMatch = "\x1b[0m\x1b[1m\x1b[31m"
	colorReset = "\x1b[0m"
)

// recordLine is one --json line of snii query: a matching record (or, with
// -A/-B/-C, a neighbouring one), its highlight ranges and, with --top, its score.
type recordLine struct {
	ID         uint64   `json:"id"`
	Record     string   `json:"record"`                  // invalid UTF-8 shows as U+FFFD, see RecordB64
	RecordB64  []byte   `json:"record_base64,omitempty"` // the exact bytes of a record that is not valid UTF-8
	Highlights [][2]int `json:"highlights"`              // byte ranges [start, end) in the record
	Score      *float32 `json:"score,omitempty"`
	Context    bool     `json:"context,omitempty"` // a neighbour printed for -A/-B/-C, not a match
}

// useColor decides --color: always, never, or auto (stdout is a terminal and
// NO_COLOR is unset or empty).
func useColor(mode string, stdout io.Writer) bool {
	switch mode {
	case "always":
		return true
	case "never":
		return false
	}
	return os.Getenv("NO_COLOR") == "" && isTerminal(stdout)
}

// recordPrinter prints records as grep prints lines: the matching ones (their
// matches highlighted in color), with -A/-B/-C their neighbours, and "--"
// between groups that are not adjacent.
type recordPrinter struct {
	w       *bufio.Writer
	f       *queryFlags
	color   bool
	printed bool   // something was printed (a group before the next)
	last    uint64 // the global id printed last
	// records printed, the batches that read them (printSegment) and the
	// most goroutines those used
	records, batches, workers int
	// spans, when set, gives a record's highlights instead of
	// Segment.Highlights (snii grep: the regexp's matches). It is called
	// from several goroutines at once.
	spans func(rec []byte) []reader.Span
}

func newRecordPrinter(w io.Writer, f *queryFlags, color bool) *recordPrinter {
	return &recordPrinter{w: bufio.NewWriterSize(w, 256<<10), f: f, color: color}
}

// grouped reports whether groups of records are separated by "--" lines
// (-A/-B/-C, not --json).
func (p *recordPrinter) grouped() bool { return (p.f.after > 0 || p.f.before > 0) && !p.f.json }

// printSegment prints the records of one segment: matches (ascending ids, or
// best first with scores) and their neighbours; base is the global id of the
// segment's doc 0. The records are read and formatted a batch at a time on
// several goroutines (batcher) and written in order, or, when one goroutine
// prints them (few records, one CPU, or best first), written as they are
// read.
func (p *recordPrinter) printSegment(ctx context.Context, seg *reader.Segment, rq reader.Query, matches []uint32, scores []float32, base uint64) error {
	ids, isMatch := p.withContext(matches, seg.DocCount())
	if len(ids) == 0 {
		return nil // no record to read: the store's block index stays undecoded
	}
	st, _ := seg.Store()
	bt := newBatcher(ids, st)
	if scores != nil {
		bt.workers = 1 // best first: one Records call decodes each block once whatever the order
	}
	p.workers = max(p.workers, bt.workers)
	if bt.workers == 1 { // one batch, written straight from the decoded blocks
		p.batches++
		k := 0
		return seg.Records(ctx, ids, func(id uint32, rec []byte) error {
			var sc *float32
			if scores != nil {
				sc = &scores[k]
			}
			m := isMatch == nil || isMatch[k]
			k++
			return p.record(seg, rq, base+uint64(id), rec, m, sc)
		})
	}
	free := make(chan []byte, bt.workers+1) // output buffers written, for reuse (inorder.Run holds at most workers+1 batches)
	return inorder.Run(ctx, bt.workers, bt.next,
		func(ctx context.Context, b idRange) (printedBatch, error) {
			out := printedBatch{first: base + uint64(ids[b.lo]), last: base + uint64(ids[b.hi-1]), n: b.hi - b.lo}
			select {
			case out.buf = <-free:
			default:
			}
			if size := bt.bufSize(b); cap(out.buf) < size {
				out.buf = make([]byte, 0, max(size, 2*cap(out.buf)))
			}
			k := b.lo
			err := seg.Records(ctx, ids[b.lo:b.hi], func(id uint32, rec []byte) error {
				if k > b.lo && p.grouped() && ids[k] != ids[k-1]+1 {
					out.buf = append(out.buf, "--\n"...)
				}
				var sc *float32
				if scores != nil {
					sc = &scores[k]
				}
				if need := len(rec) + 64; cap(out.buf)-len(out.buf) < need {
					out.buf = slices.Grow(out.buf, max(need, cap(out.buf))) // doubling: append grows large slices by a quarter
				}
				var err error
				out.buf, err = p.appendRecord(out.buf, seg, rq, base+uint64(id), rec, isMatch == nil || isMatch[k], sc)
				k++
				return err
			})
			bt.formatted(b.hi-b.lo, len(out.buf))
			return out, err
		},
		func(out printedBatch) error {
			if p.grouped() && p.printed && out.first != p.last+1 {
				p.w.WriteString("--\n")
			}
			p.printed, p.last = true, out.last
			p.records += out.n
			p.batches++
			_, err := p.w.Write(out.buf)
			select {
			case free <- out.buf[:0]:
			default:
			}
			return err
		})
}

// printedBatch is the output of a batch of records: the bytes printed for
// them (records, "--" between groups inside the batch), the global ids of
// its first and last record and its number of records.
type printedBatch struct {
	buf         []byte
	first, last uint64
	n           int
}

// record prints one record: a match (m) or a neighbour, as global id gid,
// with its score when given (records printed one at a time, on one
// goroutine).
func (p *recordPrinter) record(seg *reader.Segment, rq reader.Query, gid uint64, rec []byte, m bool, score *float32) error {
	if p.grouped() && p.printed && gid != p.last+1 {
		p.w.WriteString("--\n")
	}
	p.printed, p.last = true, gid
	p.records++
	if p.w.Available() < len(rec)+64 {
		if err := p.w.Flush(); err != nil {
			return err
		}
	}
	b, err := p.appendRecord(p.w.AvailableBuffer(), seg, rq, gid, rec, m, score)
	if err != nil {
		return err
	}
	_, err = p.w.Write(b)
	return err
}

// appendRecord appends the output of one record to dst: a match (m; its
// highlights from p.spans or the query when they are printed) or a
// neighbour, as global id gid, with its score when given.
func (p *recordPrinter) appendRecord(dst []byte, seg *reader.Segment, rq reader.Query, gid uint64, rec []byte, m bool, score *float32) ([]byte, error) {
	var spans []reader.Span
	if needSpans := p.color || p.f.json; m && needSpans && p.spans != nil {
		spans = p.spans(rec)
	} else if m && needSpans && rq != nil {
		var err error
		if spans, err = seg.Highlights(rq, rec); err != nil {
			return dst, err
		}
	}
	if p.f.json {
		l := recordLine{ID: gid, Record: string(rec), Highlights: [][2]int{}, Context: !m, Score: score}
		if !utf8.Valid(rec) {
			l.RecordB64 = rec
		}
		for _, s := range spans {
			l.Highlights = append(l.Highlights, [2]int{s.Start, s.End})
		}
		b, err := json.Marshal(&l)
		if err != nil {
			return dst, err
		}
		return append(append(dst, b...), '\n'), nil
	}
	if !p.color || len(spans) == 0 {
		return append(append(dst, rec...), '\n'), nil
	}
	at := 0
	for _, s := range spans {
		dst = append(dst, rec[at:s.Start]...)
		dst = append(dst, colorMatch...)
		dst = append(dst, rec[s.Start:s.End]...)
		dst = append(dst, colorReset...)
		at = s.End
	}
	return append(append(dst, rec[at:]...), '\n'), nil
}

// withContext returns the ids to print, ascending, with the -B/-A neighbours of
// each match within [0, docs), and which of them match (nil: all of them).
func (p *recordPrinter) withContext(matches []uint32, docs uint32) ([]uint32, []bool) {
	a, b := uint64(p.f.after), uint64(p.f.before)
	if a == 0 && b == 0 {
		return matches, nil
	}
	var ids []uint32
	next := uint64(0) // the first id not printed yet
	for _, m := range matches {
		lo := max(uint64(m)-min(uint64(m), b), next)
		hi := min(uint64(m)+a, uint64(docs)-1)
		for id := lo; id <= hi; id++ {
			ids = append(ids, uint32(id))
		}
		next = max(next, hi+1)
	}
	isMatch := make([]bool, len(ids))
	k := 0
	for _, m := range matches { // both ascending, every match among ids
		for ids[k] != m {
			k++
		}
		isMatch[k] = true
	}
	return ids, isMatch
}

// runRecords prints the records q matches in seg (best first with --top).
func runRecords(ctx context.Context, e *env, f *queryFlags, seg *reader.Segment, rq reader.Query, path string) error {
	if err := needStore(seg, path); err != nil {
		return err
	}
	var prof reader.Profile
	var p *reader.Profile
	if f.profile {
		p = &prof
	}
	var matches []uint32
	var scores []float32
	if f.top > 0 {
		hits, err := seg.Top(ctx, rq, f.top, &reader.TopOptions{BM25: &reader.BM25{K1: f.k1, B: f.b}, Profile: p})
		if err != nil {
			return fmt.Errorf("query %s: %w", path, err)
		}
		for _, h := range hits {
			matches, scores = append(matches, h.Doc), append(scores, h.Score)
		}
	} else {
		var err error
		matches, err = seg.Docs(ctx, rq, &reader.SearchOptions{Profile: p, Limit: f.limit})
		if err != nil {
			return fmt.Errorf("query %s: %w", path, err)
		}
	}
	pr := newRecordPrinter(e.stdout, f, useColor(f.color.val, e.stdout))
	if err := pr.printSegment(ctx, seg, rq, matches, scores, 0); err != nil {
		return pr.fail(fmt.Errorf("query %s: %w", path, err))
	}
	return pr.finish(e, len(matches), p)
}

// runRecordsMany prints the records q matches in several segments, in global
// id order (a segment's base + its id; neighbours stay within a segment).
func runRecordsMany(ctx context.Context, e *env, f *queryFlags, sr *search.Searcher, segs []*reader.Segment, urls []string, rq reader.Query) error {
	for i, s := range segs {
		if err := needStore(s, urls[i]); err != nil {
			return err
		}
	}
	var prof reader.Profile
	var p *reader.Profile
	if f.profile {
		p = &prof
	}
	docs, err := sr.Docs(ctx, rq, &search.SearchOptions{Profile: p})
	if err != nil {
		return fmt.Errorf("query: %w", err)
	}
	if f.limit > 0 && len(docs) > f.limit {
		docs = docs[:f.limit]
	}
	pr := newRecordPrinter(e.stdout, f, useColor(f.color.val, e.stdout))
	for i, s := range segs {
		base := sr.Base(i)
		var local []uint32
		for _, d := range docs {
			if d >= base && d < base+uint64(s.DocCount()) {
				local = append(local, uint32(d-base))
			}
		}
		if err := pr.printSegment(ctx, s, rq, local, nil, base); err != nil {
			return pr.fail(fmt.Errorf("query %s: %w", urls[i], err))
		}
	}
	return pr.finish(e, len(docs), p)
}

// needStore fails for a segment that keeps no records.
func needStore(seg *reader.Segment, path string) error {
	if _, ok := seg.Store(); !ok {
		return fmt.Errorf("%s keeps no records (built with --no-store): rebuild it without --no-store to print the matching records, or print their ids with --ids", path)
	}
	return nil
}

// fail writes out the records printed before err and returns err: a read
// that fails part way keeps what it printed, as grep does.
func (pr *recordPrinter) fail(err error) error {
	pr.w.Flush()
	return err
}

// finish flushes the records and prints the --profile (to stderr: stdout
// holds only records).
func (pr *recordPrinter) finish(e *env, matches int, p *reader.Profile) error {
	if err := pr.w.Flush(); err != nil {
		return err
	}
	if p == nil {
		return nil
	}
	tw := tabwriter.NewWriter(e.stderr, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "matches\t%d\n", matches)
	fmt.Fprintf(tw, "records\t%d printed from %s on up to %s\n", pr.records,
		plural(int64(pr.batches), "batch", "batches"), plural(int64(pr.workers), "goroutine", "goroutines"))
	printProfileRows(tw, newProfileReport(p))
	return tw.Flush()
}
