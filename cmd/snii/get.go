package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"strconv"

	"github.com/snii-go/snii/internal/errs"
	"github.com/snii-go/snii/reader"
	"github.com/spf13/cobra"
)

func newGetCmd(e *env) *cobra.Command {
	var (
		asJSON bool
		dec    decodeFlags
		s3f    s3Flags
	)
	cmd := &cobra.Command{
		Use:   "get SEGMENT ID...",
		Short: "Print stored records by doc id",
		Long: `Print the records of documents by doc id, in the order given, one per line: exactly
the bytes the build stored (the input line for lines input, the JSON line for jsonl),
followed by a newline. --json prints one JSON object per line instead,
{"id":N,"record":"..."} (the record as a JSON string; invalid UTF-8 becomes U+FFFD,
so use the plain output for the exact bytes). A segment built with --no-store keeps
no records: get fails (exit 1) and says so. The records of all the ids are read in
one batch: each compressed block is decoded once, and over S3 every block needed
is fetched in one round.`,
		Example: `  snii get app.snii 0 41 42
  snii query app.snii --ids '"connection refused"' | head -3 | xargs snii get app.snii
  snii get s3://logs/app.snii 7 --json`,
		Args: cobra.MinimumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			ids := make([]uint32, 0, len(args)-1)
			for _, a := range args[1:] {
				id, err := strconv.ParseUint(a, 10, 32)
				if err != nil {
					return usagef("doc id %q: want a number 0..%d (doc ids as query --ids prints them)", a, uint32(1<<32-1))
				}
				ids = append(ids, uint32(id))
			}
			o, err := dec.options()
			if err != nil {
				return err
			}
			return runGet(cmd.Context(), e, &s3f, args[0], ids, asJSON, o)
		},
		ValidArgsFunction: segmentFiles,
	}
	fs := cmd.Flags()
	fs.BoolVar(&asJSON, "json", false, `print {"id":N,"record":"..."} per line`)
	dec.add(fs)
	s3f.add(fs)
	return cmd
}

// getRecord is one line of snii get --json.
type getRecord struct {
	ID     uint32 `json:"id"`
	Record string `json:"record"`
}

func runGet(ctx context.Context, e *env, s3f *s3Flags, path string, ids []uint32, asJSON bool, o reader.Options) error {
	seg, err := openAny(ctx, s3f, path, o)
	if err != nil {
		return err
	}
	defer seg.Close()
	for _, id := range ids {
		if id >= seg.DocCount() {
			return usagef("doc id %d: %s has %s (ids 0..%d)", id, path, plural(int64(seg.DocCount()), "document", "documents"), max(int64(seg.DocCount())-1, 0))
		}
	}
	w := bufio.NewWriterSize(e.stdout, 64<<10)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	err = seg.Records(ctx, ids, func(id uint32, rec []byte) error {
		if asJSON {
			return enc.Encode(getRecord{ID: id, Record: string(rec)})
		}
		if _, err := w.Write(rec); err != nil {
			return err
		}
		return w.WriteByte('\n')
	})
	if err != nil {
		if errors.Is(err, errs.InvalidArgument) {
			return asUsage(err)
		}
		w.Flush() // the records read before the failure stay printed
		return err
	}
	return w.Flush()
}
