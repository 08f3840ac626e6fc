package snii_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/snii-go/snii"
	"github.com/snii-go/snii/analysis"
	"github.com/snii-go/snii/budget"
	"github.com/snii-go/snii/internal/codec/format"
	"github.com/snii-go/snii/internal/errs"
	"github.com/snii-go/snii/limits"
	"github.com/snii-go/snii/query"
	"github.com/snii-go/snii/reader"
	"github.com/snii-go/snii/search"
	"github.com/snii-go/snii/writer"
	"github.com/snii-go/snii/writer/merge"
)

// kindCase is one way a public package returns an error of one kind.
type kindCase struct {
	pkg, what string
	err       func(t *testing.T) error
	// contains is a phrase the message must hold ("" for none).
	contains string
}

// TestErrorContract reaches every error kind through each public package that
// can return it, and checks that the error wraps that kind and no other, and
// names its kind at most once (query's errors, shown under the query with a
// caret, do not name it). (objstore/s3 is tested against a server in its own
// package.)
func TestErrorContract(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path, err := buildSegment(t, writer.DefaultOptions("text"), "connection refused", "timeout after 3s", "connection reset by peer")
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	open := func(t *testing.T, b []byte) *reader.Segment {
		t.Helper()
		s, err := reader.OpenReaderAt(context.Background(), bytes.NewReader(b), int64(len(b)), reader.Options{Name: "mem"})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	all := reader.Prefix("text", "", 0)
	// damaged: a copy whose header, directory and metadata are intact but
	// whose postings are not, so that Open succeeds and a query fails.
	damaged := func(t *testing.T) []byte {
		t.Helper()
		for off := 16; off < len(data); off++ {
			b := bytes.Clone(data)
			b[off] ^= 0x55
			s, err := reader.OpenReaderAt(context.Background(), bytes.NewReader(b), int64(len(b)), reader.Options{Name: "mem"})
			if err != nil {
				continue
			}
			_, qerr := s.Count(ctx, all, nil)
			s.Close()
			if qerr != nil {
				return b
			}
		}
		t.Fatal("no single damaged byte fails a query after Open")
		return nil
	}
	closed := func(t *testing.T) *reader.Segment {
		t.Helper()
		s, err := reader.Open(path, reader.Options{})
		if err != nil {
			t.Fatal(err)
		}
		s.Close()
		return s
	}
	newer := func() []byte {
		b := bytes.Clone(data)
		b[4], b[6] = 0xff, 0xff // format version 255, min reader version 255
		copy(b[12:16], le32(format.Checksum(b[:12])))
		return b
	}
	writeFile := func(t *testing.T, name string, b []byte) string {
		t.Helper()
		p := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	compile := func(seg query.Analyzer, q string, o query.Options) error {
		_, err := query.Compile(q, seg, o)
		return err
	}

	kinds := []struct {
		kind  error
		cases []kindCase
	}{
		{snii.ErrCorrupt, []kindCase{
			{"reader", "Open of a damaged directory", func(t *testing.T) error {
				b := bytes.Clone(data)
				b[len(b)-40] ^= 0xff
				_, err := reader.OpenReaderAt(context.Background(), bytes.NewReader(b), int64(len(b)), reader.Options{Name: "mem"})
				return err
			}, "segment mem: "},
			{"reader", "Open of a 47-byte text file", func(t *testing.T) error {
				_, err := reader.Open(writeFile(t, "notes.txt", []byte(strings.Repeat("x", 46)+"\n")), reader.Options{})
				return err
			}, "not a snii segment"},
			{"reader", "Open of a text file longer than a header and a tail", func(t *testing.T) error {
				_, err := reader.Open(writeFile(t, "notes.txt", []byte(strings.Repeat("plain text\n", 20))), reader.Options{})
				return err
			}, "not a snii segment"},
			{"reader", "a query over damaged postings", func(t *testing.T) error {
				_, err := open(t, damaged(t)).Count(ctx, all, nil)
				return err
			}, "segment mem: "},
			{"search", "a query over a damaged segment", func(t *testing.T) error {
				s, err := search.New([]*reader.Segment{open(t, data), open(t, damaged(t))}, search.Options{})
				if err != nil {
					return err
				}
				_, err = s.Count(ctx, all, nil)
				return err
			}, "segment mem: "},
			{"writer/merge", "a damaged source", func(t *testing.T) error {
				_, err := merge.Merge(context.Background(), filepath.Join(dir, "m1.snii"), []merge.Source{{Path: path}, {Path: writeFile(t, "bad.snii", damaged(t))}}, merge.Options{})
				return err
			}, ""},
		}},
		{snii.ErrVersion, []kindCase{
			{"reader", "Open of a newer format", func(t *testing.T) error {
				_, err := reader.OpenReaderAt(context.Background(), bytes.NewReader(newer()), int64(len(data)), reader.Options{})
				return err
			}, ""},
			{"writer/merge", "a source of a newer format", func(t *testing.T) error {
				_, err := merge.Merge(context.Background(), filepath.Join(dir, "m2.snii"), []merge.Source{{Path: writeFile(t, "new.snii", newer())}}, merge.Options{})
				return err
			}, ""},
		}},
		{snii.ErrInvalidArgument, []kindCase{
			{"reader", "a negative MaxUnitBytes", func(t *testing.T) error {
				_, err := reader.Open(path, reader.Options{MaxUnitBytes: -1})
				return err
			}, ""},
			{"writer", "Options without fields", func(t *testing.T) error {
				_, err := writer.Create(context.Background(), filepath.Join(dir, "x.snii"), writer.Options{})
				return err
			}, ""},
			{"writer", "Create into a missing directory", func(t *testing.T) error {
				_, err := writer.Create(context.Background(), filepath.Join(dir, "missing", "x.snii"), writer.DefaultOptions("text"))
				return err
			}, "output directory " + filepath.Join(dir, "missing") + " does not exist"},
			{"writer/merge", "sources that disagree on the policy", func(t *testing.T) error {
				o := writer.DefaultOptions("text")
				o.Policy = budget.Policy{Kind: budget.Smallest}
				other, err := buildSegment(t, o, "connection reset")
				if err != nil {
					t.Fatal(err)
				}
				_, err = merge.Merge(context.Background(), filepath.Join(dir, "m5.snii"), []merge.Source{{Path: path}, {Path: other}}, merge.Options{})
				if _, ok := errors.AsType[*merge.ConflictError](err); !ok {
					t.Fatalf("%v is not a *merge.ConflictError", err)
				}
				return err
			}, "set Options.Policy"},
			{"writer/merge", "no sources", func(t *testing.T) error {
				_, err := merge.Merge(context.Background(), filepath.Join(dir, "m3.snii"), nil, merge.Options{})
				return err
			}, ""},
			{"query", "a syntax error", func(t *testing.T) error {
				_, err := query.Compile(`"connection refused`, nil, query.Options{})
				return err
			}, "at column 1"},
			{"query", "bare text and no default field", func(t *testing.T) error {
				return compile(open(t, data), `refused`, query.Options{})
			}, "DefaultField"},
			{"query", "a text without searchable terms", func(t *testing.T) error {
				return compile(open(t, data), `"!!"`, query.Options{DefaultField: "text"})
			}, "no searchable terms"},
			{"index", "a malformed analyzer spec", func(t *testing.T) error {
				_, err := analysis.New("standard;max_token_bytes=0")
				return err
			}, ""},
			{"budget", "a share out of range", func(t *testing.T) error {
				return budget.Policy{Kind: budget.FixedShare, Percent: 101}.Validate()
			}, ""},
			{"search", "a nil segment", func(t *testing.T) error {
				_, err := search.New([]*reader.Segment{nil}, search.Options{})
				return err
			}, ""},
		}},
		{snii.ErrLimit, []kindCase{
			{"writer", "a document over the window limit", func(t *testing.T) error {
				o := writer.DefaultOptions("text")
				o.Limits = limits.Limits{MaxPositions: 2}
				_, err := buildSegment(t, o, "a a a a a")
				return err
			}, ""},
		}},
		{snii.ErrNotFound, []kindCase{
			{"reader", "a query on an unknown field", func(t *testing.T) error {
				_, err := open(t, data).Count(ctx, reader.Term("nope", "x"), nil)
				return err
			}, `no field "nope"`},
			{"reader", "Analyze of an unknown field", func(t *testing.T) error {
				_, err := open(t, data).Analyze("nope", "x")
				return err
			}, `no field "nope"`},
			{"writer", "an unregistered analyzer", func(t *testing.T) error {
				o := writer.DefaultOptions("text")
				o.Fields[0].Analyzer = "no-such-analyzer"
				_, err := writer.Create(context.Background(), filepath.Join(dir, "x.snii"), o)
				return err
			}, "not registered"},
			{"index", "an unregistered analyzer", func(t *testing.T) error {
				_, err := analysis.New("no-such-analyzer")
				return err
			}, "not registered"},
			{"query", "a field the segment does not have", func(t *testing.T) error {
				return compile(open(t, data), `nope:x`, query.Options{DefaultField: "text"})
			}, `no field "nope"`},
		}},
		{snii.ErrClosed, []kindCase{
			{"reader", "a query after Close", func(t *testing.T) error {
				_, err := closed(t).Count(ctx, all, nil)
				return err
			}, ""},
			{"reader", "Analyze after Close", func(t *testing.T) error {
				_, err := closed(t).Analyze("text", "connection")
				return err
			}, ""},
			{"query", "Compile with a closed segment", func(t *testing.T) error {
				return compile(closed(t), `connection`, query.Options{DefaultField: "text"})
			}, ""},
			{"search", "a query over a closed segment", func(t *testing.T) error {
				s, err := search.New([]*reader.Segment{closed(t)}, search.Options{})
				if err != nil {
					return err
				}
				_, err = s.Count(ctx, all, nil)
				return err
			}, ""},
			{"writer/merge", "a closed source", func(t *testing.T) error {
				_, err := merge.Merge(context.Background(), filepath.Join(dir, "m4.snii"), []merge.Source{{Segment: closed(t)}}, merge.Options{})
				return err
			}, ""},
		}},
	}
	for _, k := range kinds {
		for _, c := range k.cases {
			t.Run(k.kind.Error()+"/"+c.pkg+"/"+c.what, func(t *testing.T) {
				err := c.err(t)
				if !errors.Is(err, k.kind) {
					t.Fatalf("%v, want an error wrapping %v", err, k.kind)
				}
				if got := errs.Kinds(err); len(got) != 1 {
					t.Fatalf("%v wraps %d kinds %v, want one", err, len(got), got)
				}
				if n := strings.Count(err.Error(), k.kind.Error()); n > 1 {
					t.Fatalf("%v names its kind %d times", err, n)
				}
				if !strings.Contains(err.Error(), c.contains) {
					t.Fatalf("%v, want a message with %q", err, c.contains)
				}
			})
		}
	}
}
