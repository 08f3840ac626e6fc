package s3_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/snii-go/snii"
	"github.com/snii-go/snii/internal/testkit/s3test"
	"github.com/snii-go/snii/objstore/s3"
)

// TestUploadMultipart: a file over the part size goes up in parts (their
// bodies through the progress deadline's transport) and reads back whole.
func TestUploadMultipart(t *testing.T) {
	srv := s3test.Shared(t)
	srv.MakeBucket(t, "upload")
	ctx := t.Context()
	data := randomBytes(s3.UploadPartSize+12345, 8)
	p := filepath.Join(t.TempDir(), "big")
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	c := client(t, srv.Endpoint, s3.Config{ProgressTimeout: 5 * time.Second}, nil)
	if err := c.Upload(ctx, "upload", "big", p, nil); err != nil {
		t.Fatal(err)
	}
	o, err := c.Open(ctx, "upload", "big", 0)
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	got := make([]byte, len(data))
	if _, err := o.ReadAt(got, 0); err != nil || !bytes.Equal(got, data) {
		t.Fatalf("read back: %v (equal %v)", err, bytes.Equal(got, data))
	}
}

// TestAbortIncomplete: incomplete multipart uploads under a prefix older
// than the bound are aborted, younger ones and those of other prefixes stay.
func TestAbortIncomplete(t *testing.T) {
	srv := s3test.Shared(t)
	srv.MakeBucket(t, "mpu")
	ctx := t.Context()
	mc, err := srv.Client()
	if err != nil {
		t.Fatal(err)
	}
	core := minio.Core{Client: mc}
	begin := func(key string) string {
		id, err := core.NewMultipartUpload(ctx, "mpu", key, minio.PutObjectOptions{})
		if err != nil {
			t.Fatal(err)
		}
		part := randomBytes(1000, 9)
		if _, err := core.PutObjectPart(ctx, "mpu", key, id, 1, bytes.NewReader(part), int64(len(part)), minio.PutObjectPartOptions{}); err != nil {
			t.Fatal(err)
		}
		return id
	}
	id := begin("logs/a.snii")
	begin("other/b.snii")
	c := client(t, srv.Endpoint, s3.Config{}, nil)
	if got, err := c.AbortIncomplete(ctx, "mpu", "logs/", time.Hour); err != nil || len(got) != 0 {
		t.Fatalf("younger than an hour: aborted %v, %v; want none", got, err)
	}
	got, err := c.AbortIncomplete(ctx, "mpu", "logs/", 0)
	if err != nil || len(got) != 1 || got[0].Key != "logs/a.snii" || got[0].UploadID != id || got[0].Size != 1000 {
		t.Fatalf("aborted %+v, %v; want logs/a.snii's upload %s", got, err, id)
	}
	left := map[string]bool{}
	for u := range mc.ListIncompleteUploads(ctx, "mpu", "", true) {
		if u.Err != nil {
			t.Fatal(u.Err)
		}
		left[u.Key] = true
	}
	if left["logs/a.snii"] || !left["other/b.snii"] {
		t.Errorf("incomplete uploads left: %v, want other/b.snii only", left)
	}
	if _, err := c.AbortIncomplete(context.Background(), "nosuchbucket", "", 0); !errors.Is(err, snii.ErrNotFound) {
		t.Errorf("missing bucket: %v, want ErrNotFound", err)
	}
	c.AbortIncomplete(ctx, "mpu", "", 0)
}
