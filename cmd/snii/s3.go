package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/snii-go/snii/internal/s3url"
	"github.com/snii-go/snii/reader"
	"github.com/spf13/pflag"
)

// s3Flags are the flags of the commands that take s3:// paths. Credentials
// come from the environment only (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
// AWS_SESSION_TOKEN): secrets do not belong on a command line.
type s3Flags struct {
	endpoint, region string
}

func (s *s3Flags) add(fs *pflag.FlagSet) {
	fs.StringVar(&s.endpoint, "endpoint", "", "S3 endpoint URL for s3:// paths, e.g. http://127.0.0.1:7070 "+
		"(default: $AWS_ENDPOINT_URL_S3, $AWS_ENDPOINT_URL, else AWS)")
	fs.StringVar(&s.region, "region", "", "S3 region for s3:// paths (default: $AWS_REGION, $AWS_DEFAULT_REGION, else us-east-1)")
}

// parse parses an s3:// URL; a malformed one is a usage error (exit 2).
func parseS3(p string) (s3url.URL, error) {
	u, err := s3url.ParseURL(p)
	if err != nil {
		return u, asUsage(err)
	}
	return u, nil
}

// s3Companion is the file name, in the directory of the running executable,
// of the full snii that runs the s3:// command lines of a build with -tags
// nos3 (s3remote_nos3.go).
const s3Companion = "snii-s3"

// defaultQueryTimeout is the default of query --timeout. Every remote
// request already fails when it stalls (s3.DefaultProgressTimeout, then
// retried); the overall deadline bounds what remains (a server trickling
// bytes, retries that keep failing) at a length no interactive or scripted
// query of a segment comes near: opening and querying thousands of segments
// takes seconds.
const defaultQueryTimeout = 5 * time.Minute

// withTimeout returns ctx with the deadline d from now (none when d <= 0).
func withTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if d <= 0 {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, d)
}

// timedOut names the --timeout in err when the deadline of ctx ended the
// command (and returns err as it is otherwise).
func timedOut(ctx context.Context, d time.Duration, err error) error {
	if err != nil && d > 0 && errors.Is(err, context.DeadlineExceeded) && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("gave up after --timeout %v (0: no limit): %w", d, err)
	}
	return err
}

// anySegment is a segment opened from a file or from S3.
type anySegment struct {
	*reader.Segment
	size     int64 // bytes of the file or object
	close    func() error
	fetchAll func(context.Context) // a remote segment's prefetchAll (nil for a file)
}

// prefetchAll fetches a remote segment whole in one round when it fits in
// half the client's cache (verify reads every byte; piece by piece each
// read would be a round trip).
func (a *anySegment) prefetchAll(ctx context.Context) {
	if a.fetchAll != nil {
		a.fetchAll(ctx)
	}
}

// Close closes the segment (and its object).
func (a *anySegment) Close() error { return a.close() }

// openAny opens a local segment, or one s3://bucket/key (one object: a prefix
// or glob is a usage error here).
func openAny(ctx context.Context, s *s3Flags, p string, o reader.Options) (*anySegment, error) {
	if !s3url.IsURL(p) {
		seg, err := openSegment(p, o)
		if err != nil {
			return nil, err
		}
		a := &anySegment{Segment: seg, close: seg.Close}
		if st, err := os.Stat(p); err == nil {
			a.size = st.Size()
		}
		return a, nil
	}
	u, err := parseS3(p)
	if err != nil {
		return nil, err
	}
	if u.IsPrefix() || u.IsGlob() {
		return nil, usagef("%s names many objects: this command takes one segment (s3://bucket/key)", p)
	}
	return openObject(ctx, s, u, o)
}
