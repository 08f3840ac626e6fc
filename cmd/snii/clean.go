package main

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/snii-go/snii/internal/s3url"
	"github.com/snii-go/snii/internal/tmpfile"
	"github.com/spf13/cobra"
)

func newCleanCmd(e *env) *cobra.Command {
	var (
		quiet     bool
		olderThan time.Duration
		s3f       s3Flags
	)
	cmd := &cobra.Command{
		Use:   "clean [DIR | s3://bucket/prefix]...",
		Short: "Remove the temp files of killed builds and merges (and their incomplete uploads)",
		Long: `Remove the hidden temp files (.snii-tmp-*, .snii-run-*, .snii-spool-*, .snii-merge-*)
and upload directories (.snii-upload-*: the local copy of a segment built for
build -o s3://..., under --temp-dir or the system's temp directory) that a build or
merge killed with SIGKILL (or by a crash or power loss) left in a directory (default:
the current one).

Given s3://bucket/prefix, clean aborts the incomplete multipart uploads under the
prefix that began more than --older-than ago (what a build -o s3://... killed
during its upload left on the server: stored parts that are no object). Younger
ones are left alone: they may be live uploads.

Every run holds an flock(2) on its own lock file (.snii-lock-ID) while it runs, and
names its temp files with that ID. clean removes the files of an ID only when it can
take that lock, i.e. when the process that created them is gone; the files of running
builds and merges, and anything else, are left alone. build and merge do the same in
their output and temp directories before they start.`,
		Example: `  snii clean out/
  snii clean -q /var/lib/logs /tmp
  snii clean --endpoint http://127.0.0.1:7070 s3://logs/2026/`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				args = []string{"."}
			}
			if olderThan < 0 {
				return usagef("--older-than %v: want 0 or more", olderThan)
			}
			total, n, dirs := int64(0), 0, 0
			for _, dir := range args {
				if s3url.IsURL(dir) {
					if err := abortUploads(cmd.Context(), e, &s3f, dir, olderThan, quiet); err != nil {
						return err
					}
					continue
				}
				dirs++
				removed, err := tmpfile.Clean(dir)
				for _, r := range removed {
					n++
					total += r.Size
					if !quiet {
						fmt.Fprintf(e.stdout, "removed %s (%s)\n", r.Path, formatBytes(r.Size))
					}
				}
				if err != nil {
					return fmt.Errorf("clean %s: %w", dir, err)
				}
			}
			if !quiet && dirs > 0 {
				fmt.Fprintf(e.stdout, "%s removed, %s\n", plural(int64(n), "file", "files"), formatBytes(total))
			}
			return nil
		},
	}
	cmd.Flags().BoolVarP(&quiet, "quiet", "q", false, "print nothing")
	cmd.Flags().DurationVar(&olderThan, "older-than", 24*time.Hour, "with s3:// URLs: abort the incomplete uploads begun longer ago than this")
	s3f.add(cmd.Flags())
	return cmd
}

// cleanLeftovers removes what killed runs left in the directories of a build
// or merge (see snii clean) and says so on stderr unless quiet. Failures only
// warn: the command itself may still succeed.
func cleanLeftovers(e *env, quiet bool, dirs ...string) {
	seen := map[string]bool{}
	for _, d := range dirs {
		if d == "" {
			continue
		}
		d = filepath.Clean(d)
		if seen[d] {
			continue
		}
		seen[d] = true
		removed, err := tmpfile.Clean(d)
		if quiet {
			continue
		}
		if len(removed) > 0 {
			var total int64
			for _, r := range removed {
				total += r.Size
			}
			fmt.Fprintf(e.stderr, "snii: removed %s (%s) left in %s by a killed build or merge\n",
				plural(int64(len(removed)), "temp file", "temp files"), formatBytes(total), d)
		}
		if err != nil && !errors.Is(err, fs.ErrNotExist) { // a missing directory holds nothing; the build says it is missing
			fmt.Fprintf(e.stderr, "snii: warning: removing leftover temp files in %s: %v\n", d, err)
		}
	}
}
