//go:build nos3 && unix

package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/snii-go/snii/internal/s3url"
	"github.com/snii-go/snii/reader"
)

// A build with -tags nos3 is snii without S3: it does not link objstore/s3
// and minio-go, whose package initialization is most of the instructions a
// short local query runs. A command line naming an s3:// path is handed to
// the full snii installed beside it as s3Companion (handOffS3); without one,
// the command fails at the path with errNoS3.

// errNoS3 is the error of an s3:// path in a nos3 build without its companion.
var errNoS3 = usageError{errors.New("this snii is built without S3 (-tags nos3) and finds no " + s3Companion +
	" beside it: install a full build (go build ./cmd/snii) as " + s3Companion + " next to it, or use a full build")}

// handOffS3 replaces the process with s3Companion when args name an s3://
// path and the companion exists; otherwise it returns.
func handOffS3(args []string) {
	if !slices.ContainsFunc(args, func(a string) bool { return strings.Contains(a, "s3://") }) {
		return
	}
	exe, err := os.Executable()
	if err != nil {
		return
	}
	bin := filepath.Join(filepath.Dir(exe), s3Companion)
	if st, err := os.Stat(bin); err != nil || st.IsDir() {
		return
	}
	_ = syscall.Exec(bin, append([]string{bin}, args...), os.Environ())
}

func openObject(context.Context, *s3Flags, s3url.URL, reader.Options) (*anySegment, error) {
	return nil, errNoS3
}

// remoteSegments stands for the segments under an s3:// prefix, which a nos3
// build does not open.
type remoteSegments struct {
	keys []string
	segs []struct{ *reader.Segment }
}

func (r *remoteSegments) Close() error { return nil }

func openMany(context.Context, *s3Flags, s3url.URL, reader.Options) (*remoteSegments, error) {
	return nil, errNoS3
}

// s3Upload stands for an upload, which a nos3 build does not make.
type s3Upload struct{ parent, local string }

func (s *s3Flags) prepareUpload(context.Context, string, string) (*s3Upload, error) {
	return nil, errNoS3
}

func (up *s3Upload) upload(context.Context, *env, bool) error { return errNoS3 }

func (up *s3Upload) cleanup() {}

func abortUploads(context.Context, *env, *s3Flags, string, time.Duration, bool) error {
	return errNoS3
}
