package main

import (
	"container/heap"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/snii-go/snii"
	"github.com/snii-go/snii/internal/codec/format"
	"github.com/snii-go/snii/internal/seam"
	"github.com/snii-go/snii/reader"
	"github.com/spf13/cobra"
)

// inspectReport is the --json output of snii inspect.
type inspectReport struct {
	File      string        `json:"file"`
	FileBytes int64         `json:"file_bytes"`
	Docs      uint32        `json:"docs"`
	Indexes   []fieldReport `json:"indexes"`
	Store     *storeReport  `json:"store,omitempty"` // absent: the segment keeps no records
}

// storeReport describes the store of records in snii inspect.
type storeReport struct {
	Format    string  `json:"format"`               // text, json or mixed
	TextField string  `json:"text_field,omitempty"` // the field a text record is
	Records   uint64  `json:"records"`
	Blocks    int     `json:"blocks"`
	Bytes     uint64  `json:"bytes"`     // stored: blocks and block index
	RawBytes  uint64  `json:"raw_bytes"` // the records' own bytes
	Ratio     float64 `json:"ratio"`     // raw bytes / stored bytes
}

// newStoreReport describes seg's store, or nil when it keeps none.
func newStoreReport(seg *reader.Segment) *storeReport {
	st, ok := seg.Store()
	if !ok {
		return nil
	}
	r := &storeReport{Format: st.Format.String(), TextField: st.TextField, Records: st.Records, Blocks: st.Blocks, Bytes: st.Bytes, RawBytes: st.RawBytes}
	if st.Bytes > 0 {
		r.Ratio = float64(st.RawBytes) / float64(st.Bytes)
	}
	return r
}

func newInspectCmd(e *env) *cobra.Command {
	var (
		top    int
		fields []string
		asJSON bool
		s3f    s3Flags
	)
	cmd := &cobra.Command{
		Use:   "inspect SEGMENT",
		Short: "Show where the bytes of a segment go, per field",
		Long: `Show, per field: documents, terms by storage class, bytes per section
(dictionary, doc postings, preludes, prx frames in the posting region and inline),
.prx windows and bytes per codec, bits per position, the codec policy and its outcome
(eligible windows, bytes traded for speed, the budget's allowance and final share),
and the terms with the highest document frequency; and the store of records: how many,
their format, blocks, stored and raw bytes and the compression ratio.`,
		Example: `  snii inspect app.snii
  snii inspect app.snii --top 20 --field text
  snii inspect app.snii --json | jq '.indexes[0].outcome'`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if top < 0 {
				return usagef("--top %d: want 0 or more", top)
			}
			return runInspect(cmd.Context(), e, &s3f, args[0], fields, top, asJSON)
		},
		ValidArgsFunction: segmentFiles,
	}
	fs := cmd.Flags()
	fs.IntVar(&top, "top", 10, "show the N terms with the highest document frequency (0: none)")
	fs.StringSliceVar(&fields, "field", nil, "only these fields (default: all)")
	fs.BoolVar(&asJSON, "json", false, "print JSON")
	s3f.add(fs)
	return cmd
}

// segmentFiles completes segment file names.
func segmentFiles(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return []string{"snii"}, cobra.ShellCompDirectiveFilterFileExt
}

// openSegment opens a segment, naming the file in errors; o is optional (the
// first one is used).
func openSegment(path string, o ...reader.Options) (*reader.Segment, error) {
	var opts reader.Options
	if len(o) > 0 {
		opts = o[0]
	}
	seg, err := reader.Open(path, opts)
	if err != nil {
		if namesFile(err, path) {
			return nil, err
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return seg, nil
}

// fieldMeta returns the whole metadata of a segment's field, what the reports
// of build, merge, inspect and capture print.
func fieldMeta(seg *reader.Segment, name string) (format.IndexMeta, error) {
	return seam.IndexMeta(seg, name)
}

// namesFile reports whether err already names the file at path: a
// *snii.SegmentError about it, or an *fs.PathError of it.
func namesFile(err error, path string) bool {
	var se *snii.SegmentError
	if errors.As(err, &se) && se.Segment == path {
		return true
	}
	var pe *fs.PathError
	return errors.As(err, &pe) && pe.Path == path
}

// pickFields checks the requested fields against the segment (all when none).
func pickFields(seg *reader.Segment, want []string) ([]string, error) {
	have := seg.Fields()
	if len(want) == 0 {
		return have, nil
	}
	for _, f := range want {
		if !slices.Contains(have, f) {
			return nil, usagef("no field %q in the segment (fields: %s)", f, strings.Join(have, ", "))
		}
	}
	return want, nil
}

func runInspect(ctx context.Context, e *env, s3f *s3Flags, path string, fields []string, top int, asJSON bool) error {
	seg, err := openAny(ctx, s3f, path, reader.Options{})
	if err != nil {
		return err
	}
	defer seg.Close()
	fields, err = pickFields(seg.Segment, fields)
	if err != nil {
		return err
	}
	rep := inspectReport{File: path, Docs: seg.DocCount(), FileBytes: seg.size, Store: newStoreReport(seg.Segment)}
	for _, name := range fields {
		if err := ctx.Err(); err != nil {
			return err
		}
		m, err := fieldMeta(seg.Segment, name)
		if err != nil {
			return err
		}
		r := newFieldReport(&m)
		if top > 0 {
			if r.TopTerms, err = topTerms(seg.Segment, name, top); err != nil {
				return err
			}
		}
		rep.Indexes = append(rep.Indexes, r)
	}
	if asJSON {
		return writeJSON(e.stdout, rep)
	}
	fmt.Fprintf(e.stdout, "segment %s: %s, %s, %s\n", path, plural(int64(rep.Docs), "doc", "docs"),
		plural(int64(len(seg.Fields())), "field", "fields"), formatBytes(rep.FileBytes))
	if err := printStore(e.stdout, rep.Store); err != nil {
		return err
	}
	for i := range rep.Indexes {
		if err := printFieldReport(e.stdout, &rep.Indexes[i]); err != nil {
			return err
		}
	}
	return nil
}

// textField renders a store's text field for inspect.
func textField(name string) string {
	if name == "" {
		return ""
	}
	return fmt.Sprintf(", text field %q", name)
}

// topTerms walks the dictionary of field and keeps the n terms with the highest
// df (ties: the term first in byte order), in that order.
func topTerms(seg *reader.Segment, field string, n int) ([]termDF, error) {
	h := &termHeap{}
	terms, errf := seg.Terms(context.Background(), field, "", 0)
	for term, df := range terms {
		if h.Len() < n {
			heap.Push(h, termDF{term, df})
		} else if worse((*h)[0], termDF{term, df}) {
			(*h)[0] = termDF{term, df}
			heap.Fix(h, 0)
		}
	}
	if err := errf(); err != nil {
		return nil, err
	}
	out := make([]termDF, h.Len())
	for i := len(out) - 1; i >= 0; i-- {
		out[i] = heap.Pop(h).(termDF)
	}
	return out, nil
}

// worse reports whether a ranks below b: lower df, or equal df and later term.
func worse(a, b termDF) bool {
	if a.DF != b.DF {
		return a.DF < b.DF
	}
	return a.Term > b.Term
}

// termHeap is a min-heap by rank: the worst kept term on top.
type termHeap []termDF

func (h termHeap) Len() int           { return len(h) }
func (h termHeap) Less(i, j int) bool { return worse(h[i], h[j]) }
func (h termHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *termHeap) Push(x any)        { *h = append(*h, x.(termDF)) }
func (h *termHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
