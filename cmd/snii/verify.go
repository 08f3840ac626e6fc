package main

import (
	"context"
	"fmt"

	"github.com/snii-go/snii/reader"

	"github.com/spf13/cobra"
)

func newVerifyCmd(e *env) *cobra.Command {
	var quiet bool
	var dec decodeFlags
	var s3f s3Flags
	cmd := &cobra.Command{
		Use:   "verify SEGMENT...",
		Short: "Check every byte of segments: structure, checksums, postings, positions",
		Long: `Run the full structural check of each segment: header and tail, directory, the
metadata of every field, every dictionary block, every term's doc postings and
preludes, every .prx frame (checksums, codecs, counts, order), and every block of the
store of records (checksum, decoded length, record lengths). On the first problem
in a segment it names the place (file, index, block, term, window) and moves on to the
next segment; the exit code is 1 when any segment failed, 0 when all are sound.`,
		Example: `  snii verify app.snii
  snii verify segments/*.snii && echo all good`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o, err := dec.options()
			if err != nil {
				return err
			}
			return runVerify(cmd.Context(), e, &s3f, args, quiet, o)
		},
		ValidArgsFunction: segmentFiles,
	}
	cmd.Flags().BoolVarP(&quiet, "quiet", "q", false, "print nothing for sound segments")
	dec.add(cmd.Flags())
	s3f.add(cmd.Flags())
	return cmd
}

func runVerify(ctx context.Context, e *env, s3f *s3Flags, paths []string, quiet bool, o reader.Options) error {
	failed := 0
	var first error
	for _, p := range paths {
		err := verifyOne(ctx, s3f, p, o)
		if err != nil {
			failed++
			if first == nil {
				first = err
			}
			if len(paths) > 1 {
				fmt.Fprintf(e.stderr, "snii: %v\n", err)
			}
			continue
		}
		if !quiet {
			fmt.Fprintf(e.stdout, "ok %s\n", p)
		}
	}
	switch {
	case failed == 0:
		return nil
	case len(paths) == 1:
		return first
	}
	return fmt.Errorf("%d of %d segments failed verification", failed, len(paths))
}

func verifyOne(ctx context.Context, s3f *s3Flags, path string, o reader.Options) error {
	seg, err := openAny(ctx, s3f, path, o)
	if err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	defer seg.Close()
	seg.prefetchAll(ctx)
	if err := seg.Verify(ctx); err != nil {
		if namesFile(err, path) {
			return fmt.Errorf("verify: %w", err)
		}
		return fmt.Errorf("verify %s: %w", path, err)
	}
	return nil
}
