package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/snii-go/snii/index"
	"github.com/snii-go/snii/internal/errs"
	"github.com/snii-go/snii/prx"
	"github.com/snii-go/snii/prx/capture"
	"github.com/snii-go/snii/reader"
	"github.com/spf13/cobra"
)

type captureFlags struct {
	output string
	fields []string
	all    bool
	quiet  bool
}

func newCaptureCmd() *cobra.Command {
	f := &captureFlags{}
	cmd := &cobra.Command{
		Use:   "capture SEGMENT -o WINDOWS.cap",
		Short: "Capture the .prx windows of a segment for snii replay",
		Long: `Read back the .prx windows of a segment, in the order the writer emitted them
(terms in byte order, windows ascending), and write their plain payloads with their
doc counts to a capture file, with each logical index's policy, zstd level, limits
and recorded outcome. By default only the eligible windows are kept (those that got
a zstd frame and went through the codec policy); --all keeps the fast-path windows
too. snii replay then measures what other policies would store and decode.

The windows are checked as they are read: re-encoded under the segment's own policy
they must reproduce the windows and bytes per codec the segment recorded, or the
capture fails. The capture is written to a temp file and renamed into place.`,
		Example: `  snii capture app.snii -o app.cap
  snii capture events.snii --field msg --all -o msg.cap
  snii replay app.cap --svg app.svg`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCapture(cmd, f, args[0])
		},
		ValidArgsFunction: segmentFiles,
	}
	fs := cmd.Flags()
	fs.StringVarP(&f.output, "output", "o", "", "the capture file to write (required)")
	fs.StringSliceVar(&f.fields, "field", nil, "only these logical indexes (default: all)")
	fs.BoolVar(&f.all, "all", false, "keep the fast-path windows too (default: eligible windows only)")
	fs.BoolVarP(&f.quiet, "quiet", "q", false, "no progress bar and no summary")
	_ = cmd.MarkFlagFilename("output", "cap")
	return cmd
}

func runCapture(cmd *cobra.Command, f *captureFlags, path string) error {
	if f.output == "" {
		return usagef("--output (-o) is required: the capture file to write")
	}
	seg, err := openSegment(path)
	if err != nil {
		return err
	}
	defer seg.Close()
	fields, err := pickFields(seg, f.fields)
	if err != nil {
		return err
	}
	stderr := cmd.ErrOrStderr()
	show := !f.quiet && isTerminal(stderr)
	var total int
	for _, name := range fields {
		m, err := seg.Info(name)
		if err != nil {
			return err
		}
		total += int(m.TermCount)
	}
	bar := newReplayBar(stderr, show, "capturing")
	var sums []captureSummary
	err = writeOutputFile(f.output, func(w io.Writer) error {
		cw, err := capture.NewWriter(w, capture.WriterOptions{All: f.all})
		if err != nil {
			return err
		}
		done := 0
		for _, name := range fields {
			s, err := captureIndex(cmd.Context(), seg, name, cw, func(terms int) { bar.update(done+terms, total) })
			if err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
			done += s.terms
			sums = append(sums, s)
		}
		return cw.Close()
	})
	bar.finish()
	if err != nil {
		return err
	}
	if f.quiet {
		return nil
	}
	out := cmd.OutOrStdout()
	for _, s := range sums {
		fmt.Fprintf(out, "index %q: %s eligible of %s windows, %s captured (%s plain bytes)\n", s.name,
			groupDigits(s.eligible), groupDigits(s.windows), groupDigits(s.captured), groupDigits(s.plainBytes))
	}
	fmt.Fprintf(out, "wrote %s\n", f.output)
	return nil
}

type captureSummary struct {
	name                                    string
	terms                                   int
	windows, eligible, captured, plainBytes int64
}

// captureIndex writes the windows of one logical index to cw in emission order.
//
// The segment reader has no API yet that walks the stored .prx frames; until it
// has, the windows are rebuilt from the postings with the writer's window rule
// (index.SlimMaxDF, WindowDocs, WindowDocsLarge, LargeDF; a window prx refuses
// with ErrNeedsSplit is halved, the first half taking ceil(n/2) docs) and
// re-encoded under the index's own policy. The encoder's outcome must equal the
// outcome the segment recorded (windows and bytes per codec, and the budget's
// accounting), which proves the windows are the segment's, in its order.
func captureIndex(ctx context.Context, seg *reader.Segment, name string, cw *capture.Writer, progress func(terms int)) (captureSummary, error) {
	sum := captureSummary{name: name}
	m, err := seg.Info(name)
	if err != nil {
		return sum, err
	}
	idx, err := cw.AddIndex(capture.IndexInfo{Name: name, Known: true, Policy: m.Policy, ZstdLevel: m.ZstdLevel, Limits: m.Limits})
	if err != nil {
		return sum, err
	}
	enc, err := prx.NewEncoder(prx.EncoderOptions{ZstdLevel: m.ZstdLevel, Limits: m.Limits, Policy: m.Policy})
	if err != nil {
		return sum, fmt.Errorf("index %q: %w", name, err)
	}
	defer enc.Close()
	var (
		win, sub prx.Window
		plain    []byte
		werr     error
	)
	// emit encodes docs [lo, hi) of win, halving while prx asks for a split.
	var emit func(lo, hi int) error
	emit = func(lo, hi int) error {
		w := &win
		if lo != 0 || hi != win.Docs() {
			base := win.Offsets[lo]
			sub.Offsets = sub.Offsets[:0]
			for _, o := range win.Offsets[lo : hi+1] {
				sub.Offsets = append(sub.Offsets, o-base)
			}
			sub.Positions = win.Positions[base:win.Offsets[hi]]
			w = &sub
		}
		f, err := enc.Encode(w)
		if errors.Is(err, prx.ErrNeedsSplit) && hi-lo > 1 {
			mid := lo + (hi-lo+1)/2
			if err := emit(lo, mid); err != nil {
				return err
			}
			return emit(mid, hi)
		}
		if err != nil {
			return err
		}
		sum.windows++
		if f.Eligible {
			sum.eligible++
		}
		if f.Eligible || cw.All() {
			plain = prx.AppendPlain(plain[:0], w)
			sum.captured++
			sum.plainBytes += int64(len(plain))
			return cw.Window(idx, f.Eligible, plain)
		}
		return nil
	}
	err = seg.Terms(name, "", 0, func(term string, df uint64) bool {
		sum.terms++
		if sum.terms%1024 == 0 {
			if werr = ctx.Err(); werr != nil {
				return false
			}
			progress(sum.terms)
		}
		size := int(df)
		if df >= index.SlimMaxDF {
			size = index.WindowDocs
			if df >= index.LargeDF {
				size = index.WindowDocsLarge
			}
		}
		p, err := seg.Postings(name, term)
		if err != nil {
			werr = err
			return false
		}
		defer p.Close()
		win.Reset()
		for p.Next() {
			pos, err := p.Positions()
			if err != nil {
				werr = err
				return false
			}
			win.AppendDoc(pos)
			if win.Docs() == size {
				if werr = emit(0, size); werr != nil {
					return false
				}
				win.Reset()
			}
		}
		if werr = p.Err(); werr != nil {
			return false
		}
		if win.Docs() > 0 {
			werr = emit(0, win.Docs())
		}
		if werr != nil {
			werr = fmt.Errorf("term %q: %w", term, werr)
		}
		return werr == nil
	})
	if werr != nil {
		err = werr
	}
	if err != nil {
		return sum, fmt.Errorf("index %q: %w", name, err)
	}
	progress(sum.terms)
	got, want := enc.Outcome(), capture.Outcome(m.Outcome)
	if capture.Outcome(got) != want {
		return sum, errs.Corruptf("index %q: the windows read back, re-encoded under the index's policy %s, give %+v; the segment recorded %+v",
			name, m.Policy, got, want)
	}
	if err := cw.SetOutcome(idx, want); err != nil {
		return sum, err
	}
	return sum, nil
}

// groupDigits renders n with thousands separators.
func groupDigits(n int64) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return "-" + groupDigits(-n)
	}
	out := make([]byte, 0, len(s)+len(s)/3)
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return string(out)
}
