package main

import (
	"bytes"
	"context"
	"fmt"
	"io"

	"github.com/snii-go/snii/internal/seam"

	"github.com/snii-go/snii/internal/codec/prx"
	"github.com/snii-go/snii/internal/codec/prx/capture"
	"github.com/snii-go/snii/reader"
	"github.com/spf13/cobra"
)

type captureFlags struct {
	output string
	fields []string
	all    bool
	quiet  bool
	dec    decodeFlags
}

func newCaptureCmd() *cobra.Command {
	f := &captureFlags{}
	cmd := &cobra.Command{
		Use:   "capture SEGMENT -o WINDOWS.cap",
		Short: "Capture the .prx windows of a segment for snii replay",
		Long: `Read back the .prx windows of a segment, in the order the writer emitted them
(terms in byte order, windows ascending), and write their plain payloads with their
doc counts to a capture file, with each field's policy, zstd level, limits
and recorded outcome. By default only the eligible windows are kept (those that got
a zstd frame and went through the codec policy); --all keeps the fast-path windows
too. snii replay then measures what other policies would store and decode.

The windows are decoded from the frames the segment stores, and the index is checked
as snii verify checks it while it is read: a corrupt segment fails the capture.
snii replay checks that the capture, replayed under the field's own policy,
reproduces what the segment recorded. The capture is written to a temp file and
renamed into place.`,
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
	fs.StringSliceVar(&f.fields, "field", nil, "only these fields (default: all)")
	fs.BoolVar(&f.all, "all", false, "keep the fast-path windows too (default: eligible windows only)")
	fs.BoolVarP(&f.quiet, "quiet", "q", false, "no progress bar and no summary")
	f.dec.add(fs)
	_ = cmd.MarkFlagFilename("output", "cap")
	return cmd
}

func runCapture(cmd *cobra.Command, f *captureFlags, path string) error {
	if f.output == "" {
		return usagef("--output (-o) is required: the capture file to write")
	}
	o, err := f.dec.options()
	if err != nil {
		return err
	}
	seg, err := openSegment(path, o)
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
		m, err := fieldMeta(seg, name)
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
			s, err := captureField(cmd.Context(), seg, name, cw, func(terms int) { bar.update(done+terms, total) })
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

// captureField writes the windows of one field, decoded from the frames the
// segment stores, in emission order (Segment.Windows walks and checks the field
// as verify does), followed by the outcome the field recorded.
func captureField(ctx context.Context, seg *reader.Segment, name string, cw *capture.Writer, progress func(terms int)) (captureSummary, error) {
	sum := captureSummary{name: name}
	m, err := fieldMeta(seg, name)
	if err != nil {
		return sum, err
	}
	idx, err := cw.AddIndex(capture.IndexInfo{Name: name, Known: true, Policy: m.Policy, ZstdLevel: m.ZstdLevel, Limits: m.Limits})
	if err != nil {
		return sum, err
	}
	var plain, last []byte
	var sub prx.Window
	err = seam.SegmentWindows(ctx, seg, name, func(term []byte, w *prx.Window, units []prx.Unit) error {
		if sum.terms == 0 || !bytes.Equal(term, last) {
			last = append(last[:0], term...)
			if sum.terms++; sum.terms%1024 == 0 {
				progress(sum.terms)
			}
		}
		// One record per unit, the encoder's unit of choice.
		for _, u := range units {
			sum.windows++
			uw := w.Slice(u.Lo, u.Hi, &sub)
			eligible := prx.Eligible(uw)
			if eligible {
				sum.eligible++
			}
			if !eligible && !cw.All() {
				continue
			}
			plain = prx.AppendPlain(plain[:0], uw)
			sum.captured++
			sum.plainBytes += int64(len(plain))
			if err := cw.Window(idx, eligible, plain); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return sum, fmt.Errorf("index %q: %w", name, err)
	}
	progress(sum.terms)
	if err := cw.SetOutcome(idx, capture.Outcome{Windows: m.Outcome.Windows, Bytes: m.Outcome.Bytes, Budget: m.Outcome.Budget}); err != nil {
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
