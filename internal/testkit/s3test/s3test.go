package s3test

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
)

// Version is the versitygw release the tests are written against.
const Version = "v1.8.0"

// Install is the command that installs the server.
const Install = "go install github.com/versity/versitygw/cmd/versitygw@" + Version

// Root credentials of the test server.
const (
	AccessKey = "sniitestaccess"
	SecretKey = "sniitestsecret0123456789"
)

// Server is a running versitygw.
type Server struct {
	Endpoint string // http://127.0.0.1:PORT
	Dir      string // the POSIX backend's root (buckets are its directories)
	cmd      *exec.Cmd
	done     chan struct{}
}

// Binary returns the path of the versitygw binary, or "".
func Binary() string {
	if p, err := exec.LookPath("versitygw"); err == nil {
		return p
	}
	gopath := os.Getenv("GOPATH")
	if gopath == "" {
		if h, err := os.UserHomeDir(); err == nil {
			gopath = filepath.Join(h, "go")
		}
	}
	for _, dir := range filepath.SplitList(gopath) {
		p := filepath.Join(dir, "bin", "versitygw")
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p
		}
	}
	return ""
}

// need skips tb (or fails it under CI) when the server cannot run.
func need(tb testing.TB) string {
	tb.Helper()
	bin := Binary()
	if bin == "" {
		msg := "versitygw not found in PATH or GOPATH/bin: install the S3 test server with `" + Install + "`"
		if os.Getenv("CI") == "true" {
			tb.Fatal(msg + " (CI=true: the S3 tests must run)")
		}
		tb.Skip(msg)
	}
	return bin
}

// Start starts a server over a new directory under dir and waits until it
// answers. Stop it with Close.
func Start(dir string, bin string) (*Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	addr := ln.Addr().String()
	ln.Close()
	root := filepath.Join(dir, "s3root")
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "--port", addr, "--quiet", "--keep-alive", "posix", root)
	cmd.Env = append(os.Environ(), "ROOT_ACCESS_KEY="+AccessKey, "ROOT_SECRET_KEY="+SecretKey)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &Server{Endpoint: "http://" + addr, Dir: root, cmd: cmd, done: make(chan struct{})}
	go func() { cmd.Wait(); close(s.done) }()
	deadline := time.Now().Add(20 * time.Second)
	for {
		mc, err := s.Client()
		if err == nil {
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			_, err = mc.ListBuckets(ctx)
			cancel()
			if err == nil {
				return s, nil
			}
		}
		select {
		case <-s.done:
			return nil, fmt.Errorf("versitygw exited: %s", out.String())
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			s.Close()
			return nil, fmt.Errorf("versitygw did not answer within 20s: %v; output: %s", err, out.String())
		}
	}
}

// Close stops the server.
func (s *Server) Close() {
	if s.cmd.Process != nil {
		s.cmd.Process.Kill()
	}
	<-s.done
}

// Client returns a minio client with the root credentials.
func (s *Server) Client() (*minio.Client, error) {
	return minio.New(strings.TrimPrefix(s.Endpoint, "http://"), &minio.Options{
		Creds: credentials.NewStaticV4(AccessKey, SecretKey, ""), Region: "us-east-1",
		BucketLookup: minio.BucketLookupPath,
	})
}

// MakeBucket creates a bucket (it may exist already).
func (s *Server) MakeBucket(tb testing.TB, bucket string) {
	tb.Helper()
	mc, err := s.Client()
	if err != nil {
		tb.Fatal(err)
	}
	err = mc.MakeBucket(context.Background(), bucket, minio.MakeBucketOptions{})
	if err != nil && minio.ToErrorResponse(err).Code != "BucketAlreadyOwnedByYou" {
		tb.Fatal(err)
	}
}

// Put uploads data as bucket/key.
func (s *Server) Put(tb testing.TB, bucket, key string, data []byte) {
	tb.Helper()
	mc, err := s.Client()
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := mc.PutObject(context.Background(), bucket, key, strings.NewReader(string(data)), int64(len(data)),
		minio.PutObjectOptions{DisableMultipart: true}); err != nil {
		tb.Fatal(err)
	}
}

var (
	sharedMu  sync.Mutex
	shared    *Server
	sharedDir string
)

// Shared returns the package's server, starting it on first use (skipping or
// failing tb when versitygw is absent). The test binary's TestMain must call
// StopShared after m.Run.
func Shared(tb testing.TB) *Server {
	tb.Helper()
	bin := need(tb)
	sharedMu.Lock()
	defer sharedMu.Unlock()
	if shared != nil {
		return shared
	}
	dir, err := os.MkdirTemp("", "snii-s3test-")
	if err != nil {
		tb.Fatal(err)
	}
	s, err := Start(dir, bin)
	if err != nil {
		os.RemoveAll(dir)
		tb.Fatal(err)
	}
	shared, sharedDir = s, dir
	return s
}

// StopShared stops the shared server, if started, and removes its directory.
func StopShared() {
	sharedMu.Lock()
	defer sharedMu.Unlock()
	if shared != nil {
		shared.Close()
		os.RemoveAll(sharedDir)
		shared = nil
	}
}
