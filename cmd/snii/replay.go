package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/snii-go/snii/internal/errs"
	"github.com/snii-go/snii/internal/replay"
	"github.com/spf13/cobra"
)

type replayFlags struct {
	field     string
	policies  string
	orders    string
	cycles    int
	blocks    int
	chunk     sizeValue
	zstdLevel int
	asJSON    bool
	svg       string
	csv       string
	verify    bool
	quiet     bool
}

func newReplayCmd() *cobra.Command {
	f := &replayFlags{}
	cmd := &cobra.Command{
		Use:   "replay CAPTURE",
		Short: "Replay codec policies on captured .prx windows: bytes spent vs decode time",
		Long: `Replay codec policies on the windows of a capture file (snii capture, or
snii build --capture) and report, per field, policy and order of the windows:

  - the bytes stored beyond the smallest frames, in % of the eligible windows'
    smallest frames (policy 0 stores the smallest frames: 0%),
  - the eligible windows per stored codec (zstd, pfor, raw),
  - the budget's allowance and the share of it spent,
  - the time to decode every stored frame over the time to decode every smallest
    frame, measured in paired cycles (A B B A, A = smallest frames) with the pooled
    decoder the segment reader uses: the median of the per-cycle ratios of medians,
    and its min-max over cycles,
  - the cost of the codec choice alone, in ns per eligible window.

Policies: 0 (smallest frame), 1..100 (a fixed share: keep the fast frame when zstd
saves less than that percent), budget:P (the per-field budget with P% allowance;
"budget" = budget:8). Orders: captured (the writer's order), ascending or descending
saving percent, shuffle:SEED.

Each eligible window's frames are built once, with the zstd level recorded in the
capture; each policy then decides on the exact frame sizes with the same chooser as
the writer (--verify re-encodes every window per policy and order with the writer's
encoder and fails unless the frames are identical). When the capture records the
field's outcome, the field's own policy is replayed in captured order and compared
with it. A progress bar is drawn on stderr when it is a terminal (not with --quiet).`,
		Example: `  snii replay windows.cap
  snii replay windows.cap --policies 0,30,budget:5,budget:8,budget:12 --orders captured,shuffle:7
  snii replay windows.cap --svg chart.svg --csv samples.csv --json > replay.json
  snii replay windows.cap --cycles 0          # bytes only, no decode timing`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runReplay(cmd, f, args[0])
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&f.field, "field", "", "replay only this field (default: every field of the capture)")
	fs.StringVar(&f.policies, "policies", "0,30,budget:5,budget:8,budget:12", "comma-separated policies: 0, a share 1..100, budget:P")
	fs.StringVar(&f.orders, "orders", "captured,ascending,descending,shuffle:1", "comma-separated orders: captured, ascending, descending, shuffle:SEED")
	fs.IntVar(&f.cycles, "cycles", 6, "paired decode cycles (0: no decode timing)")
	fs.IntVar(&f.blocks, "blocks", 4, "A-B-B-A blocks per cycle, policy and order")
	f.chunk.val = 64 << 10
	fs.Var(&f.chunk, "chunk", "plain payload bytes of the windows timed as one sample")
	fs.IntVar(&f.zstdLevel, "zstd-level", 0, "zstd level 1..4 of the replayed frames (0: the capture's)")
	fs.BoolVar(&f.asJSON, "json", false, "print the report as JSON")
	fs.StringVar(&f.svg, "svg", "", "write a chart (extra bytes vs decode time) to this SVG file")
	fs.StringVar(&f.csv, "csv", "", "write every decode sample to this CSV file")
	fs.BoolVar(&f.verify, "verify", false, "re-encode every window per policy and order with the writer's encoder and check the frames")
	fs.BoolVarP(&f.quiet, "quiet", "q", false, "no progress bar")
	_ = cmd.MarkFlagFilename("svg", "svg")
	_ = cmd.MarkFlagFilename("csv", "csv")
	return cmd
}

func runReplay(cmd *cobra.Command, f *replayFlags, path string) error {
	policies, err := replay.ParsePolicies(f.policies)
	if err != nil {
		return usagef("--policies: %s", parseMsg(err))
	}
	orders, err := replay.ParseOrders(f.orders)
	if err != nil {
		return usagef("--orders: %s", parseMsg(err))
	}
	switch {
	case f.cycles < 0:
		return usagef("--cycles %d: want 0 or more", f.cycles)
	case f.blocks < 1:
		return usagef("--blocks %d: want 1 or more", f.blocks)
	case f.chunk.val < 1 || f.chunk.val > 1<<30:
		return usagef("--chunk %d: want 1 B..1 GiB", f.chunk.val)
	case f.zstdLevel < 0 || f.zstdLevel > 4:
		return usagef("--zstd-level %d: want 0 (the capture's) or 1..4", f.zstdLevel)
	case f.svg != "" && f.cycles == 0:
		return usagef("--svg needs decode timings: drop --cycles 0")
	case f.csv != "" && f.cycles == 0:
		return usagef("--csv holds decode samples: drop --cycles 0")
	}
	ctx := cmd.Context()
	stderr := cmd.ErrOrStderr()
	show := !f.quiet && isTerminal(stderr)

	file, err := os.Open(path)
	if err != nil {
		return err
	}
	defer file.Close()
	bar := newReplayBar(stderr, show, "preparing windows")
	sets, err := replay.Load(file, replay.PrepareOptions{ZstdLevel: f.zstdLevel, Field: f.field, Progress: bar.update})
	bar.finish()
	if err != nil {
		if errors.Is(err, errs.NotFound) {
			return usageError{err}
		}
		return fmt.Errorf("%s: %w", path, err)
	}
	cycles := f.cycles
	if cycles == 0 {
		cycles = -1
	}
	bar = newReplayBar(stderr, show, "decoding")
	rep, err := replay.Run(ctx, sets, replay.Options{Policies: policies, Orders: orders, Cycles: cycles,
		Blocks: f.blocks, ChunkBytes: int(f.chunk.val), Verify: f.verify, KeepSamples: f.csv != "", Progress: bar.update})
	bar.finish()
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	rep.Capture = filepath.Base(path)
	if f.svg != "" {
		if err := writeOutputFile(f.svg, rep.WriteSVG); err != nil {
			return err
		}
	}
	if f.csv != "" {
		if err := writeOutputFile(f.csv, rep.WriteCSV); err != nil {
			return err
		}
	}
	out := cmd.OutOrStdout()
	if f.asJSON {
		return rep.WriteJSON(out)
	}
	return rep.WriteText(out)
}

// parseMsg returns the message of a replay.ParseError, without the error kind
// a usage message does not need.
func parseMsg(err error) string {
	var pe *replay.ParseError
	if errors.As(err, &pe) {
		return pe.Msg
	}
	return err.Error()
}

// writeOutputFile writes a file through a temp file in the same directory and
// renames it into place, so a failure leaves no partial file.
func writeOutputFile(path string, write func(io.Writer) error) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err = write(tmp); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err = tmp.Chmod(0o644); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// replayBar is a count progress bar on a terminal; nil draws nothing.
type replayBar struct {
	w    io.Writer
	what string
	bar  *progressbar.ProgressBar
}

func newReplayBar(w io.Writer, show bool, what string) *replayBar {
	if !show {
		return nil
	}
	return &replayBar{w: w, what: what}
}

// update sets the bar to done of total, creating it at the first call.
func (b *replayBar) update(done, total int) {
	if b == nil {
		return
	}
	if b.bar == nil {
		b.bar = progressbar.NewOptions(total,
			progressbar.OptionSetWriter(b.w),
			progressbar.OptionSetDescription(b.what),
			progressbar.OptionSetWidth(30),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionShowCount(),
			progressbar.OptionClearOnFinish(),
			progressbar.OptionUseANSICodes(true),
		)
	}
	_ = b.bar.Set(done)
}

func (b *replayBar) finish() {
	if b == nil || b.bar == nil {
		return
	}
	_ = b.bar.Finish()
}
