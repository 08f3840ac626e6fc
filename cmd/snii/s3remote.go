//go:build !nos3

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
)

// The S3 side of the commands: the client, remote segments and uploads
// (objstore/s3, on minio-go). A build with -tags nos3 leaves it out
// (s3remote_nos3.go).

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

// openObject opens the segment s3://u.Bucket/u.Key.
func openObject(ctx context.Context, s *s3Flags, u s3url.URL, o reader.Options) (*anySegment, error) {
	c, err := s.client()
	if err != nil {
		return nil, err
	}
	rs, err := c.OpenSegment(ctx, u.Bucket, u.Key, o)
	if err != nil {
		return nil, err
	}
	a := &anySegment{Segment: rs.Segment, size: rs.Size(), close: rs.Close}
	a.fetchAll = func(ctx context.Context) {
		if a.size <= s3.DefaultCacheBytes/2 {
			_, _ = rs.Prefetch(ctx, []objstore.Range{{Off: 0, Len: a.size}})
		}
	}
	return a, nil
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

// abortUploads aborts the stale incomplete multipart uploads under an
// s3://bucket/prefix (a glob is a usage error).
func abortUploads(ctx context.Context, e *env, s3f *s3Flags, arg string, olderThan time.Duration, quiet bool) error {
	u, err := parseS3(arg)
	if err != nil {
		return err
	}
	if u.IsGlob() {
		return usagef("%s: clean takes s3://bucket/prefix, not a pattern", arg)
	}
	c, err := s3f.client()
	if err != nil {
		return err
	}
	aborted, err := c.AbortIncomplete(ctx, u.Bucket, u.Key, olderThan)
	var total int64
	for _, a := range aborted {
		total += a.Size
		if !quiet {
			fmt.Fprintf(e.stdout, "aborted the upload of s3://%s/%s begun %s (%s of parts)\n", u.Bucket, a.Key,
				a.Initiated.UTC().Format(time.RFC3339), formatBytes(a.Size))
		}
	}
	if err != nil {
		return fmt.Errorf("clean %s: %w", arg, err)
	}
	if !quiet {
		fmt.Fprintf(e.stdout, "%s aborted under %s, %s\n", plural(int64(len(aborted)), "incomplete upload", "incomplete uploads"), u, formatBytes(total))
	}
	return nil
}

// handOffS3 returns: a full build runs s3:// command lines itself (a nos3
// build hands them to its companion, s3remote_nos3.go).
func handOffS3([]string) {}
