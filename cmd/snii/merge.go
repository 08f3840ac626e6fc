package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/spf13/cobra"
)

// mergeInput is one source segment of snii merge.
type mergeInput struct {
	path    string
	deleted *roaring.Bitmap // doc ids of this source to drop; nil for none
}

type mergeFlags struct {
	output  string
	deleted []string
	policy  *policyFlags
	dec     decodeFlags
	quiet   bool
	json    bool
	noStore bool
	changed func(flag string) bool // whether a flag was given on the command line
}

func newMergeCmd(e *env) *cobra.Command {
	f := &mergeFlags{}
	cmd := &cobra.Command{
		Use:   "merge -o OUT.snii [flags] SEGMENT SEGMENT...",
		Short: "Merge segments into one, optionally dropping deleted documents",
		Long: `Merge segments into one. Doc ids are concatenated in the order of the arguments
(the first segment's documents first); documents listed with --deleted are dropped and
the later ids shift down. Every field of any source is in the output. The
windows are re-encoded through the same codec policy as a build, so merging gives the
same bytes as building the same documents in one go. The policy flags default to what
the sources recorded (they must agree); a flag given overrides it, e.g. to re-encode old
segments with the budget. --memory bounds the merge's buffers (default 64MiB): with more
sources than fit, the merge runs in passes through temp segments (same output bytes).
The output keeps the surviving documents' records when every source keeps records,
none when no source does; sources of both kinds need --no-store.

--deleted SEGMENT=FILE names a file of doc ids of that source (as it numbers them),
separated by white space or commas; # starts a comment.`,
		Example: `  snii merge -o all.snii day1.snii day2.snii
  snii merge -o all.snii day1.snii day2.snii --deleted day1.snii=gone.txt
  snii merge -o all.snii --prx-zstd-min-saving 0 a.snii b.snii`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			f.changed = cmd.Flags().Changed
			return runMerge(cmd.Context(), e, f, args)
		},
		ValidArgsFunction: segmentFiles,
	}
	fs := cmd.Flags()
	fs.StringVarP(&f.output, "output", "o", "", "the segment file to write (required)")
	fs.StringArrayVar(&f.deleted, "deleted", nil, "SEGMENT=FILE: drop the doc ids listed in FILE from that source (repeatable)")
	f.policy = addPolicyFlags(fs)
	f.dec.add(fs)
	fs.BoolVarP(&f.quiet, "quiet", "q", false, "no summary")
	fs.BoolVar(&f.json, "json", false, "print the summary as JSON")
	fs.BoolVar(&f.noStore, "no-store", false, "drop the sources' records: the output keeps none (needed to merge sources with records and sources without)")
	_ = cmd.MarkFlagFilename("output", "snii")
	return cmd
}

// mergeInputs pairs the sources with their --deleted files.
func mergeInputs(paths, deleted []string) ([]mergeInput, error) {
	ins := make([]mergeInput, len(paths))
	for i, p := range paths {
		ins[i].path = p
	}
	for _, d := range deleted {
		seg, file, ok := strings.Cut(d, "=")
		if !ok || seg == "" || file == "" {
			return nil, usagef("--deleted %q: want SEGMENT=FILE", d)
		}
		idx := -1
		for i, p := range paths {
			if p == seg || filepath.Clean(p) == filepath.Clean(seg) {
				idx = i
				break
			}
		}
		if idx < 0 {
			return nil, usagef("--deleted %q: %s is not one of the segments being merged", d, seg)
		}
		if ins[idx].deleted != nil {
			return nil, usagef("--deleted: %s given twice", seg)
		}
		bm, err := readDocIDs(file)
		if err != nil {
			return nil, err
		}
		ins[idx].deleted = bm
	}
	return ins, nil
}

// readDocIDs reads doc ids separated by white space or commas; '#' starts a
// comment that runs to the end of the line.
func readDocIDs(path string) (*roaring.Bitmap, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("--deleted: %w", err)
	}
	defer f.Close()
	bm := roaring.New()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for line := 1; sc.Scan(); line++ {
		text, _, _ := strings.Cut(sc.Text(), "#")
		for _, tok := range strings.FieldsFunc(text, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\r' }) {
			id, err := strconv.ParseUint(tok, 10, 32)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %q is not a doc id", path, line, tok)
			}
			bm.Add(uint32(id))
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return bm, nil
}

// mergeReport is the --json summary of snii merge.
type mergeReport struct {
	Output    string        `json:"output"`
	Sources   []string      `json:"sources"`
	Deleted   uint64        `json:"deleted"`
	Docs      uint32        `json:"docs"`
	FileBytes int64         `json:"file_bytes"`
	Seconds   float64       `json:"seconds"`
	Indexes   []fieldReport `json:"indexes"`
}

func runMerge(ctx context.Context, e *env, f *mergeFlags, args []string) error {
	start := time.Now()
	if f.output == "" {
		return usagef("--output (-o) is required: the segment file to write")
	}
	ins, err := mergeInputs(args, f.deleted)
	if err != nil {
		return err
	}
	ro, err := f.dec.options()
	if err != nil {
		return err
	}
	for _, in := range ins {
		if filepath.Clean(in.path) == filepath.Clean(f.output) {
			return usagef("the output %s is also a source; write to a new file", f.output)
		}
	}
	cleanLeftovers(e, f.quiet || f.json, filepath.Dir(f.output), f.policy.tempDir)
	if err := mergeSegments(ctx, f.output, ins, f.policy, ro, f.noStore, f.changed); err != nil {
		return err
	}
	if f.quiet && !f.json {
		return nil
	}
	rep := mergeReport{Output: f.output, Sources: args}
	for _, in := range ins {
		if in.deleted != nil {
			rep.Deleted += in.deleted.GetCardinality()
		}
	}
	seg, err := openSegment(f.output)
	if err != nil {
		return fmt.Errorf("reading back: %w", err)
	}
	defer seg.Close()
	rep.Docs = seg.DocCount()
	if st, err := os.Stat(f.output); err == nil {
		rep.FileBytes = st.Size()
	}
	for _, name := range seg.Fields() {
		m, err := fieldMeta(seg, name)
		if err != nil {
			return err
		}
		rep.Indexes = append(rep.Indexes, newFieldReport(&m))
	}
	rep.Seconds = time.Since(start).Seconds()
	if f.json {
		return writeJSON(e.stdout, rep)
	}
	fmt.Fprintf(e.stdout, "merged %s into %s in %.2fs: %s, %s\n", plural(int64(len(args)), "segment", "segments"),
		f.output, rep.Seconds, plural(int64(rep.Docs), "doc", "docs"), formatBytes(rep.FileBytes))
	if rep.Deleted > 0 {
		fmt.Fprintf(e.stdout, "dropped %s listed as deleted\n", plural(int64(rep.Deleted), "doc", "docs"))
	}
	return printFieldTable(e.stdout, rep.Indexes)
}
