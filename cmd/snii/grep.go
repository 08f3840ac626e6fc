package main

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"text/tabwriter"

	"github.com/snii-go/snii/grep"
	"github.com/snii-go/snii/reader"
	"github.com/spf13/cobra"
)

type grepFlags struct {
	rec      queryFlags // the records output: --color, -A/-B, -m, --profile, --json
	ignore   bool
	invert   bool
	count    bool
	only     bool
	contextN int
}

func newGrepCmd(e *env) *cobra.Command {
	f := &grepFlags{rec: queryFlags{color: newEnum("auto", "auto", "always", "never")}}
	cmd := &cobra.Command{
		Use:   "grep SEGMENT REGEX",
		Short: "Print the stored records a regular expression matches, narrowed by the index",
		Long: `Match a regular expression (Go's RE2 syntax) against the stored records of a segment and
print those it matches, as grep and rg print lines: in doc-id order, the matches highlighted
on a terminal (--color). The index narrows the records read first: the tokens and phrases
every match must contain are derived from the regexp and searched, and only their records are
matched (--profile shows the derived query, the candidates and the records matched). A
regexp without a literal the field's analyzer keeps ('[0-9]+', '.*'), an inverted match (-v)
and a store of JSON lines read every record, with a note on stderr.

\w, \b and \d are ASCII in Go's syntax (Unicode in rg's).`,
		Example: `  snii grep app.snii 'conn(ection)? refused'
  snii grep app.snii -i 'timeout after [0-9]+ ?ms' -C 1
  snii grep app.snii -o 'user=\w+' | sort | uniq -c
  snii grep app.snii -c -v 'INFO'`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			fl := cmd.Flags()
			if err := f.rec.checkRecords(f.contextN, fl.Changed("context"), fl.Changed("after-context"), fl.Changed("before-context")); err != nil {
				return err
			}
			switch {
			case f.rec.limit < 0:
				return usagef("--max-count %d: want 0 (all) or more", f.rec.limit)
			case f.only && (f.rec.after > 0 || f.rec.before > 0):
				return usagef("-o prints the matches alone: not with -A/-B/-C")
			case f.only && f.invert:
				return usagef("-o prints the matches: not with -v")
			case f.count && (f.only || f.rec.json || f.rec.after > 0 || f.rec.before > 0):
				return usagef("-c prints only the number of matching records: not with -o, --json or -A/-B/-C")
			case f.only && f.rec.json:
				return usagef("-o prints the matches as text: not with --json")
			}
			expr := args[1]
			if f.ignore {
				expr = "(?i)" + expr
			}
			re, err := regexp.Compile(expr)
			if err != nil {
				return usagef("regexp %q: %v", args[1], err)
			}
			return runGrep(cmd.Context(), e, f, args[0], re)
		},
		ValidArgsFunction: func(cmd *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
			if len(args) == 0 {
				return segmentFiles(cmd, args, "")
			}
			return nil, cobra.ShellCompDirectiveNoFileComp
		},
	}
	fs := cmd.Flags()
	fs.BoolVarP(&f.ignore, "ignore-case", "i", false, "match case-insensitively")
	fs.BoolVarP(&f.invert, "invert-match", "v", false, "print the records the regexp does not match (reads every record)")
	fs.BoolVarP(&f.count, "count", "c", false, "print only the number of matching records")
	fs.BoolVarP(&f.only, "only-matching", "o", false, "print each match alone on its own line")
	fs.Var(f.rec.color, "color", "highlight matches: auto (when stdout is a terminal and NO_COLOR is unset), always or never")
	fs.IntVarP(&f.rec.after, "after-context", "A", 0, "print N records after each matching one")
	fs.IntVarP(&f.rec.before, "before-context", "B", 0, "print N records before each matching one")
	fs.IntVarP(&f.contextN, "context", "C", 0, "print N records before and after each matching one")
	fs.IntVarP(&f.rec.limit, "max-count", "m", 0, "stop after N matching records (0: all)")
	fs.BoolVar(&f.rec.profile, "profile", false, "print on stderr the derived query, the candidates and the records matched")
	fs.BoolVar(&f.rec.json, "json", false, "print one JSON object per record: its id, the record and the match ranges")
	f.rec.dec.add(fs)
	f.rec.s3.add(fs)
	_ = cmd.RegisterFlagCompletionFunc("color", f.rec.color.complete)
	return cmd
}

// errEnough stops a grep at --max-count matches.
var errEnough = errors.New("enough matches")

func runGrep(ctx context.Context, e *env, f *grepFlags, path string, re *regexp.Regexp) error {
	o, err := f.rec.dec.options()
	if err != nil {
		return err
	}
	seg, err := openAny(ctx, &f.rec.s3, path, o)
	if err != nil {
		return err
	}
	defer seg.Close()
	if err := needStore(seg.Segment, path); err != nil {
		return err
	}
	var prof grep.Profile
	pr := newRecordPrinter(e.stdout, &f.rec, useColor(f.rec.color.val, e.stdout))
	if !f.invert {
		pr.spans = func(rec []byte) []reader.Span { return matchSpans(re, rec) }
	}
	var matches []uint32
	withContext := f.rec.after > 0 || f.rec.before > 0
	n := 0
	err = grep.Grep(ctx, seg.Segment, re, &grep.Options{Invert: f.invert, Profile: &prof}, func(id uint32, rec []byte) error {
		if f.only {
			for _, sp := range matchSpans(re, rec) {
				if pr.color {
					pr.w.WriteString(colorMatch)
				}
				pr.w.Write(rec[sp.Start:sp.End])
				if pr.color {
					pr.w.WriteString(colorReset)
				}
				pr.w.WriteByte('\n')
			}
		} else if withContext {
			matches = append(matches, id) // printed with their neighbours below
		} else if !f.count {
			if err := pr.record(seg.Segment, nil, uint64(id), rec, true, nil); err != nil {
				return err
			}
		}
		if n++; f.rec.limit > 0 && n >= f.rec.limit {
			return errEnough
		}
		return nil
	})
	if err != nil && !errors.Is(err, errEnough) {
		return pr.fail(fmt.Errorf("grep %s: %w", path, err))
	}
	if prof.Note != "" {
		fmt.Fprintf(e.stderr, "snii: note: %s\n", prof.Note)
	}
	if f.count {
		fmt.Fprintln(pr.w, n)
	} else if withContext {
		if err := pr.printSegment(ctx, seg.Segment, nil, matches, nil, 0); err != nil {
			return pr.fail(fmt.Errorf("grep %s: %w", path, err))
		}
	}
	if err := pr.w.Flush(); err != nil {
		return err
	}
	if f.rec.profile {
		tw := tabwriter.NewWriter(e.stderr, 0, 0, 2, ' ', 0)
		q := prof.Query
		if q == "" {
			q = "(none: every record is read)"
		}
		fmt.Fprintf(tw, "derived query\t%s\n", q)
		fmt.Fprintf(tw, "records read\t%s of %s (matched against the regexp) in %s\n", strconv.Itoa(prof.Candidates), strconv.FormatUint(uint64(seg.DocCount()), 10),
			plural(int64(prof.Batches), "batch", "batches"))
		if prof.Sampled > 0 {
			fmt.Fprintf(tw, "sampled\t%d records read to decide the walk of the dictionary\n", prof.Sampled)
		}
		fmt.Fprintf(tw, "matched\t%d\n", n)
		if prof.Query != "" {
			printProfileRows(tw, newProfileReport(&prof.Search))
		}
		return tw.Flush()
	}
	return nil
}

// matchSpans returns the non-empty matches of re in rec.
func matchSpans(re *regexp.Regexp, rec []byte) []reader.Span {
	var out []reader.Span
	for _, m := range re.FindAllIndex(rec, -1) {
		if m[1] > m[0] {
			out = append(out, reader.Span{Start: m[0], End: m[1]})
		}
	}
	return out
}
