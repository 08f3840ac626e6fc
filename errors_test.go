package snii_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/snii-go/snii"
	"github.com/snii-go/snii/internal/codec/format"
	"github.com/snii-go/snii/limits"
	"github.com/snii-go/snii/reader"
	"github.com/snii-go/snii/writer"
)

func buildSegment(t *testing.T, o writer.Options, lines ...string) (string, error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "s.snii")
	w, err := writer.Create(context.Background(), path, o)
	if err != nil {
		return path, err
	}
	for _, l := range lines {
		if _, err := w.Add(writer.Doc("text", l)); err != nil {
			w.Abort()
			return path, err
		}
	}
	return path, w.Close()
}

// Every kind is reachable with errors.Is through the public packages.
func TestErrorKinds(t *testing.T) {
	ctx := context.Background()
	path, err := buildSegment(t, writer.DefaultOptions("text"), "connection refused", "timeout")
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}

	t.Run("corrupt", func(t *testing.T) {
		bad := bytes.Clone(data)
		bad[len(bad)-40] ^= 0xff // the directory
		_, err := reader.OpenReaderAt(context.Background(), bytes.NewReader(bad), int64(len(bad)), reader.Options{Name: "mem://s"})
		if !errors.Is(err, snii.ErrCorrupt) {
			t.Fatalf("err = %v, want ErrCorrupt", err)
		}
		var se *snii.SegmentError
		if !errors.As(err, &se) || se.Segment != "mem://s" || se.Section == "" {
			t.Fatalf("err = %#v, want a *snii.SegmentError naming mem://s and a section", err)
		}
	})
	t.Run("version", func(t *testing.T) {
		bad := bytes.Clone(data)
		bad[4], bad[6] = 0xff, 0xff // the header: format version 255, min reader version 255
		copy(bad[12:16], le32(format.Checksum(bad[:12])))
		if _, err := reader.OpenReaderAt(context.Background(), bytes.NewReader(bad), int64(len(bad)), reader.Options{}); !errors.Is(err, snii.ErrVersion) {
			t.Fatalf("err = %v, want ErrVersion", err)
		}
	})
	t.Run("invalid argument", func(t *testing.T) {
		if _, err := writer.Create(context.Background(), filepath.Join(t.TempDir(), "x.snii"), writer.Options{}); !errors.Is(err, snii.ErrInvalidArgument) {
			t.Fatalf("no fields: err = %v, want ErrInvalidArgument", err)
		}
		o := writer.DefaultOptions("text")
		o.Fields[0].Analyzer = "standard;max_token_bytes=0"
		if _, err := writer.Create(context.Background(), filepath.Join(t.TempDir(), "x.snii"), o); !errors.Is(err, snii.ErrInvalidArgument) {
			t.Fatalf("bad analyzer setting: err = %v, want ErrInvalidArgument", err)
		}
	})
	t.Run("limit", func(t *testing.T) {
		o := writer.DefaultOptions("text")
		o.Limits = limits.Limits{MaxPositions: 2}
		if _, err := buildSegment(t, o, "a a a a a"); !errors.Is(err, snii.ErrLimit) {
			t.Fatalf("err = %v, want ErrLimit", err)
		}
	})
	t.Run("not found", func(t *testing.T) {
		seg, err := reader.Open(path, reader.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer seg.Close()
		if _, err := seg.Count(ctx, reader.Term("nope", "x"), nil); !errors.Is(err, snii.ErrNotFound) {
			t.Fatalf("unknown field: err = %v, want ErrNotFound", err)
		}
		o := writer.DefaultOptions("text")
		o.Fields[0].Analyzer = "no-such-analyzer"
		if _, err := writer.Create(context.Background(), filepath.Join(t.TempDir(), "x.snii"), o); !errors.Is(err, snii.ErrNotFound) {
			t.Fatalf("unregistered analyzer: err = %v, want ErrNotFound", err)
		}
	})
	t.Run("closed", func(t *testing.T) {
		seg, err := reader.Open(path, reader.Options{})
		if err != nil {
			t.Fatal(err)
		}
		seg.Close()
		_, err = seg.Count(ctx, reader.Term("text", "timeout"), nil)
		if !errors.Is(err, snii.ErrClosed) {
			t.Fatalf("err = %v, want ErrClosed", err)
		}
		var se *snii.SegmentError
		if !errors.As(err, &se) || se.Segment != path {
			t.Fatalf("err = %v, want a *snii.SegmentError naming %s", err, path)
		}
	})
}

func le32(v uint32) []byte { return []byte{byte(v), byte(v >> 8), byte(v >> 16), byte(v >> 24)} }
