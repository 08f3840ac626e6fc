package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"sync"
	"time"

	"github.com/snii-go/snii/internal/s3url"
	"github.com/snii-go/snii/internal/tmpfile"
	"github.com/snii-go/snii/objstore"
	"github.com/snii-go/snii/objstore/s3"
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

// client returns an S3 client: a malformed --endpoint is a usage error (exit
// 2), missing credentials a failure (exit 1: the environment lacks them).
func (s *s3Flags) client() (*s3.Client, error) {
	c, err := s3.New(s3.Config{Endpoint: s.endpoint, Region: s.region}, nil)
	switch {
	case errors.Is(err, s3.ErrNoCredentials):
		return nil, err
	case err != nil:
		return nil, asUsage(err)
	}
	return c, nil
}

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
	size  int64 // bytes of the file or object
	close func() error
	obj   *s3.Segment // nil for a file
}

// prefetchAll fetches a remote segment whole in one round when it fits in
// half the client's cache (verify reads every byte; piece by piece each
// read would be a round trip).
func (a *anySegment) prefetchAll(ctx context.Context) {
	if a.obj != nil && a.size <= s3.DefaultCacheBytes/2 {
		_, _ = a.obj.Prefetch(ctx, []objstore.Range{{Off: 0, Len: a.size}})
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
	c, err := s.client()
	if err != nil {
		return nil, err
	}
	rs, err := c.OpenSegment(ctx, u.Bucket, u.Key, o)
	if err != nil {
		return nil, err
	}
	return &anySegment{Segment: rs.Segment, size: rs.Size(), close: rs.Close, obj: rs}, nil
}

// remoteSegments is every segment under an s3:// prefix or glob, opened with
// one cache, block cache and decoder pool.
type remoteSegments struct {
	keys []string
	segs []*s3.Segment
}

func (r *remoteSegments) Close() error {
	var errs []error
	for _, s := range r.segs {
		if s != nil {
			errs = append(errs, s.Close())
		}
	}
	return errors.Join(errs...)
}

// openMany lists u and opens its segments, 16 at a time.
func openMany(ctx context.Context, s *s3Flags, u s3url.URL, o reader.Options) (*remoteSegments, error) {
	c, err := s.client()
	if err != nil {
		return nil, err
	}
	keys, err := c.List(ctx, u.Bucket, u.Key)
	if err != nil {
		return nil, err
	}
	o.BlockCache = reader.NewBlockCache(0)
	if o.Decoders, err = reader.NewDecoders(o.Limits, 0); err != nil {
		return nil, err
	}
	r := &remoteSegments{keys: keys, segs: make([]*s3.Segment, len(keys))}
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
		sem   = make(chan struct{}, 16)
	)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	for i, k := range keys {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			seg, err := c.OpenSegment(ctx, u.Bucket, k, o)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				if first == nil {
					first = err
					cancel()
				}
				return
			}
			r.segs[i] = seg
		})
	}
	wg.Wait()
	if first != nil {
		r.Close()
		return nil, first
	}
	return r, nil
}

// s3Upload is a build whose output goes to S3: the segment is written into a
// private temp directory, then uploaded. The directory is owned like the
// other temp files (internal/tmpfile): named .snii-upload-ID-* under the
// temp directory, whose lock the run holds, so that snii clean and the next
// build remove what a killed run left.
type s3Upload struct {
	url    s3url.URL
	c      *s3.Client
	parent string // the temp directory holding dir
	owner  *tmpfile.Owner
	dir    string
	local  string
}

// prepareUpload checks the URL, the credentials and the bucket before the
// build starts, and picks the local path to build into (under tempDir, or the
// system's temp directory).
func (s *s3Flags) prepareUpload(ctx context.Context, output, tempDir string) (*s3Upload, error) {
	u, err := parseS3(output)
	if err != nil {
		return nil, err
	}
	if u.IsPrefix() || u.IsGlob() {
		return nil, usagef("-o %s: want s3://bucket/key naming one object", output)
	}
	c, err := s.client()
	if err != nil {
		return nil, err
	}
	if err := c.CheckBucket(ctx, u.Bucket); err != nil {
		return nil, err
	}
	parent := tempDir
	if parent == "" {
		parent = os.TempDir()
	}
	owner, err := tmpfile.Claim(parent)
	if err != nil {
		return nil, err
	}
	dir, err := owner.Mkdir(tmpfile.UploadPrefix)
	if err != nil {
		owner.Release()
		return nil, err
	}
	return &s3Upload{url: u, c: c, parent: parent, owner: owner, dir: dir, local: filepath.Join(dir, path.Base(u.Key))}, nil
}

// upload sends the built segment, with a progress bar when show.
func (up *s3Upload) upload(ctx context.Context, e *env, show bool) error {
	st, err := os.Stat(up.local)
	if err != nil {
		return err
	}
	bar := newProgress(e.stderr, show, st.Size(), "uploading")
	var pr *progressReader
	if bar != nil {
		pr = &progressReader{p: bar}
	}
	err = up.c.Upload(ctx, up.url.Bucket, up.url.Key, up.local, pr.reader())
	bar.finish()
	if err != nil {
		return fmt.Errorf("upload %s: %w", up.url, err)
	}
	return nil
}

// cleanup removes the local copy and releases the temp directory.
func (up *s3Upload) cleanup() {
	os.RemoveAll(up.dir)
	up.owner.Release()
}

// progressReader advances a progress bar by the bytes minio-go reads through it.
type progressReader struct{ p *progress }

func (r *progressReader) Read(b []byte) (int, error) {
	r.p.addBytes(int64(len(b)))
	return len(b), nil
}

// reader returns r as a Progress reader, or nil (no bar).
func (r *progressReader) reader() io.Reader {
	if r == nil {
		return nil
	}
	return r
}
