package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// writeJSON writes v as indented JSON and a newline.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// plural renders "1 doc", "2 docs".
func plural(n int64, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func ub(n uint64) string { return formatBytes(int64(n)) }

// printBuildReport prints the build summary: totals, then one row per field.
func printBuildReport(w io.Writer, r *buildReport) error {
	rate := ""
	if r.Seconds > 0 {
		rate = fmt.Sprintf(", %.0f docs/s", float64(r.Docs)/r.Seconds)
	}
	fmt.Fprintf(w, "built %s in %.2fs: %s%s, %s read, %s written\n", r.Output, r.Seconds,
		plural(int64(r.Docs), "doc", "docs"), rate, formatBytes(r.InputBytes), formatBytes(r.FileBytes))
	if r.BadLines > 0 {
		fmt.Fprintf(w, "skipped %s\n", plural(r.BadLines, "bad line", "bad lines"))
	}
	if r.Spills > 0 {
		fmt.Fprintf(w, "spilled %s to temp files (raise --memory to avoid it)\n", plural(int64(r.Spills), "sorted run", "sorted runs"))
	}
	if r.SkippedTokens > 0 {
		fmt.Fprintf(w, "skipped %s longer than the analyzers' max_token_bytes (not indexed; see --max-token-bytes)\n",
			plural(int64(r.SkippedTokens), "token", "tokens"))
	}
	if err := printFieldTable(w, r.Indexes); err != nil {
		return err
	}
	return printStore(w, r.Store)
}

// printStore prints the store line of build and inspect.
func printStore(w io.Writer, st *storeReport) error {
	if st == nil {
		_, err := fmt.Fprintf(w, "store: none (built with --no-store, or a segment of format 7 or older)\n")
		return err
	}
	_, err := fmt.Fprintf(w, "store: %s (%s%s) in %s: %s stored of %s raw (%.2fx)\n",
		plural(int64(st.Records), "record", "records"), st.Format, textField(st.TextField), plural(int64(st.Blocks), "block", "blocks"),
		formatBytes(int64(st.Bytes)), formatBytes(int64(st.RawBytes)), st.Ratio)
	return err
}

// printFieldTable prints one row per field: docs, terms, skipped
// tokens and bytes per section. The byte columns add up to total: the
// dictionary column includes the inline terms (their doc postings and prx
// frames sit inside dict entries), the doc postings and prx frames columns
// are the posting region's; a note below gives the inline frames' share.
func printFieldTable(w io.Writer, fields []fieldReport) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "field\tdocs\tterms\tskipped\tdictionary\tdoc postings\tprx frames\tpairs\ttotal\tbits/pos\t")
	var inline uint64
	for _, x := range fields {
		b := &x.Bytes
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%s\t%s\t%s\t%s\t%s\t%.2f\t\n", x.Name, x.DocsWithField, x.Terms, x.SkippedTokens,
			ub(b.Dictionary), ub(b.PostingRegion-b.PrxFrames), ub(b.PrxFrames), ub(b.Pairs), ub(b.Total), x.Prx.BitsPerPosition)
		inline += b.InlineFrames
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "dictionary + doc postings + prx frames + pairs = total; the dictionary includes the inline terms' postings and prx frames (%s of prx frames)\n", ub(inline))
	return err
}

// printFieldReport prints one field for snii inspect.
func printFieldReport(w io.Writer, x *fieldReport) error {
	fmt.Fprintf(w, "\nindex %s (analyzer %s)\n", x.Name, x.Analyzer)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	row := func(k, format string, args ...any) {
		fmt.Fprintf(tw, "  %s\t"+format+"\n", append([]any{k}, args...)...)
	}
	row("docs", "%d with the field, of %d", x.DocsWithField, x.Docs)
	row("terms", "%d: %d inline, %d slim, %d windowed", x.Terms, x.Classes.Inline, x.Classes.Slim, x.Classes.Windowed)
	row("positions", "%d (sum of df %d)", x.Positions, x.SumDF)
	row("skipped tokens", "%d longer than the analyzer's max_token_bytes (not indexed; each takes a position)", x.SkippedTokens)
	switch {
	case x.SkippedTokens == 0:
	case x.SkippedDocs != nil:
		row("  in documents", "%d (listed for the regexes of snii grep)", *x.SkippedDocs)
	case x.SkippedTokens > 0:
		row("  in documents", "not recorded (a segment of format 8 or older, or a merge of one)")
	}
	b := x.Bytes
	row("bytes", "%s = dictionary %s + posting region %s + pairs %s", ub(b.Total), ub(b.Dictionary), ub(b.PostingRegion), ub(b.Pairs))
	row("  doc postings", "%s (preludes %s; inline terms' postings included)", ub(b.DocPostings), ub(b.Prelude))
	row("  prx frames", "%s in the posting region, %s inline in the dictionary", ub(b.PrxFrames), ub(b.InlineFrames))
	row("  dictionary", "%s in %s (%d zstd-compressed)", ub(b.Dictionary), plural(int64(x.Dictionary.Blocks), "block", "blocks"), x.Dictionary.CompressedBlocks)
	p := x.Prx
	row("prx windows", "%d raw (%s), %d pfor (%s), %d zstd (%s)",
		p.Windows.Raw, formatBytes(p.Bytes.Raw), p.Windows.PFOR, formatBytes(p.Bytes.PFOR), p.Windows.Zstd, formatBytes(p.Bytes.Zstd))
	row("bits/position", "%.2f (prx frames, inline ones before dictionary compression)", p.BitsPerPosition)
	row("policy", "%s", describePolicy(&x.Policy))
	row("outcome", "%s", describeOutcome(x))
	row("pairs", "%s", describePairs(&x.Pairs))
	if len(x.TopTerms) > 0 {
		parts := make([]string, len(x.TopTerms))
		for i, t := range x.TopTerms {
			parts[i] = fmt.Sprintf("%s %d", quoteTerm(t.Term), t.DF)
		}
		row(fmt.Sprintf("top %d by df", len(x.TopTerms)), "%s", strings.Join(parts, ", "))
	}
	return tw.Flush()
}

// quoteTerm quotes a term only when it holds spaces, commas, quotes or
// non-printable bytes.
func quoteTerm(t string) string {
	if t == "" || strings.ContainsAny(t, " ,\"\t\n") || !isPrintable(t) {
		return fmt.Sprintf("%q", t)
	}
	return t
}

func isPrintable(s string) bool {
	for _, r := range s {
		if r == '\uFFFD' || r < ' ' || r == 0x7f {
			return false
		}
	}
	return true
}

func describePolicy(p *policyReport) string {
	var s string
	switch {
	case p.MinSavingPercent < 0:
		s = fmt.Sprintf("budget: %d%% of the eligible windows' smallest frames (--prx-zstd-min-saving -1 --budget-percent %d)", p.BudgetPercent, p.BudgetPercent)
	case p.MinSavingPercent == 0:
		s = "always the smallest frame (--prx-zstd-min-saving 0)"
	default:
		s = fmt.Sprintf("fixed share: the faster frame when zstd saves less than %d%% (--prx-zstd-min-saving %d)", p.MinSavingPercent, p.MinSavingPercent)
	}
	lvl := "default"
	if p.ZstdLevel > 0 {
		lvl = fmt.Sprint(p.ZstdLevel)
	}
	return s + "; zstd level " + lvl
}

func describeOutcome(x *fieldReport) string {
	o := x.Outcome
	s := fmt.Sprintf("%s eligible (smallest frames %s); %s stored fast for %s traded (%.2f%% of the smallest frames)",
		plural(o.EligibleWindows, "window", "windows"), formatBytes(o.SumSmallest),
		plural(o.TradedWindows, "window", "windows"), formatBytes(o.TradedBytes), o.TradedPercent)
	switch {
	case x.Policy.MinSavingPercent < 0:
		s += fmt.Sprintf("; allowance %s, final share %d", formatBytes(o.Allowance), o.FinalShare)
	case x.Policy.MinSavingPercent > 0:
		s += fmt.Sprintf("; share %d", o.FinalShare)
	}
	return s
}

func describePairs(p *pairsReport) string {
	if p.BudgetPercent == 0 {
		return "none (--pairs-budget 0)"
	}
	return fmt.Sprintf("%d kept of %d eligible (df >= %d), %s of the %s allowance (%.2f%%; --pairs-budget %d: %d%% of the prx frames)",
		p.Kept, p.Eligible, p.MinDF, formatBytes(int64(p.Bytes)), formatBytes(int64(p.Allowance)), p.UsedPercent, p.BudgetPercent, p.BudgetPercent)
}
