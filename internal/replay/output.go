package replay

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
)

// WriteJSON writes the report as indented JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// WriteCSV writes every decode sample kept by Options.KeepSamples, one row per
// pass over a chunk of windows: index, policy, order, cycle, chunk, side
// (smallest or stored), sample, ns.
func (r *Report) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write([]string{"index", "policy", "order", "cycle", "chunk", "side", "sample", "ns"}); err != nil {
		return err
	}
	for _, ir := range r.Indexes {
		for _, res := range ir.Results {
			for _, cs := range res.samples {
				for _, s := range []struct {
					name string
					v    []int64
				}{{"smallest", cs.a}, {"stored", cs.b}} {
					for i, ns := range s.v {
						if err := cw.Write([]string{ir.Index, res.Policy, res.Order, strconv.Itoa(cs.cycle), strconv.Itoa(cs.chunk), s.name,
							strconv.Itoa(i), strconv.FormatInt(ns, 10)}); err != nil {
							return err
						}
					}
				}
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteText writes the report as aligned tables, one per field.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	e := r.Env
	fmt.Fprintf(&b, "replay")
	if r.Capture != "" {
		fmt.Fprintf(&b, " of %s", r.Capture)
	}
	fmt.Fprintf(&b, ": %s %s/%s, %s, GOMAXPROCS %d", e.GoVersion, e.OS, e.Arch, e.CPU, e.GOMAXPROCS)
	if e.Commit != "" {
		fmt.Fprintf(&b, ", commit %s", e.Commit)
	}
	b.WriteString("\n")
	if r.Cycles > 0 {
		fmt.Fprintf(&b, "decode: %d paired cycles; per cycle, chunks of ~%d KiB of windows timed in %d A-B-B-A blocks (A = smallest frames, B = stored frames);\n"+
			"        decode x = B/A of the summed per-chunk medians, median (min-max) over cycles\n", r.Cycles, r.ChunkBytes>>10, r.Blocks)
	} else {
		b.WriteString("decode: not timed\n")
	}
	if len(r.Indexes) == 0 {
		b.WriteString("\nthe capture holds no windows: nothing to replay\n")
	}
	for _, ir := range r.Indexes {
		b.WriteString("\n")
		writeFieldText(&b, &ir)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeFieldText(b *strings.Builder, ir *IndexReport) {
	kept := "eligible windows only"
	if ir.All {
		kept = "all windows"
	}
	fmt.Fprintf(b, "index %q: %s eligible windows of %s captured (%s), %s plain bytes, %s positions, zstd level %d\n",
		ir.Index, group(int64(ir.Eligible)), group(int64(ir.Windows)), kept, group(ir.PlainBytes), group(ir.Positions), ir.ZstdLevel)
	if ir.Eligible == 0 {
		b.WriteString("  no eligible windows: every policy stores the same frames\n")
	} else {
		fmt.Fprintf(b, "  smallest frames %s B (zstd smallest in %s windows); fast frames %s B; zstd frames %s B\n",
			group(ir.SumSmallest), group(int64(ir.ZstdSmallest)), group(ir.SumFast), group(ir.SumZstd))
	}
	if ir.All && ir.FastPathFrames.Total() > 0 {
		fmt.Fprintf(b, "  fast-path windows: %s pfor (%s B), %s raw (%s B)\n", group(ir.FastPathFrames.PFOR),
			group(ir.FastPathBytes.PFOR), group(ir.FastPathFrames.Raw), group(ir.FastPathBytes.Raw))
	}
	if c := ir.Check; c != nil {
		scope := "eligible windows"
		if c.AllCodecs {
			scope = "all windows"
		}
		if c.OK {
			fmt.Fprintf(b, "  recorded outcome (policy %s): the replay reproduces it exactly (%s)\n", c.Policy, scope)
		} else {
			fmt.Fprintf(b, "  recorded outcome (policy %s): MISMATCH (%s): %s\n", c.Policy, scope, strings.Join(c.Mismatches, "; "))
		}
	}
	if ir.Eligible == 0 {
		return
	}
	tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "policy\torder\tstored B\textra B\textra %\tused %\tshare\tzstd\tpfor\traw\tdecode x\tmin-max\tchoice ns\t")
	for _, r := range ir.Results {
		used, share := "-", strconv.Itoa(r.FinalShare)
		if r.Allowance > 0 {
			used = fmt.Sprintf("%.0f", r.Utilisation)
		}
		if r.Policy == "0" { // exported fields only: a report read back from JSON renders alike
			share = "-"
		}
		dec, rng := "-", "-"
		if d := r.Decode; d != nil {
			dec, rng = fmt.Sprintf("%.3f", d.Ratio), fmt.Sprintf("%.3f-%.3f", d.Min, d.Max)
		}
		choice := "-"
		if r.ChoiceNs > 0 {
			choice = fmt.Sprintf("%.1f", r.ChoiceNs)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%.2f\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", r.Policy, r.Order, group(r.Stored),
			group(r.Extra), r.ExtraPercent, used, share, group(r.Frames.Zstd), group(r.Frames.PFOR), group(r.Frames.Raw),
			dec, rng, choice)
	}
	tw.Flush()
	b.WriteString("  extra % = stored bytes beyond the smallest frames, in % of the eligible windows' smallest frames;\n" +
		"  used % = share of the budget's allowance spent; zstd/pfor/raw = eligible windows per stored codec\n")
}

// group renders n with thousands separators: 1234567 -> "1,234,567".
func group(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
