//go:build unix

package reader_test

import (
	"errors"
	"os"
	"testing"

	"github.com/snii-go/snii"
	"github.com/snii-go/snii/internal/oracle"
	"github.com/snii-go/snii/reader"
)

// Issue 16 item 2: a mapped segment truncated in place (as cp over it does
// first) raises SIGBUS on the next read of a page past the new end. Queries
// and Verify return a corruption error instead of killing the process.
func TestMappedFileTruncatedInPlace(t *testing.T) {
	docs := oracle.Generate(11, oracle.GenOptions{Docs: 3000})
	path := build(t, docs, options(-1, "text", "level", "host"))
	queries := []struct {
		name string
		run  func(s *reader.Segment) error
	}{
		{"Docs", func(s *reader.Segment) error { _, err := s.Docs(bg, reader.Prefix("text", "", 0), nil); return err }},
		{"Count", func(s *reader.Segment) error { _, err := s.Count(bg, reader.Term("text", "zzzz"), nil); return err }},
		{"Bitmap", func(s *reader.Segment) error { _, err := s.Bitmap(bg, reader.Prefix("host", "", 0), nil); return err }},
		{"Verify", func(s *reader.Segment) error { return s.Verify(bg) }},
	}
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range queries {
		t.Run(q.name, func(t *testing.T) {
			if err := os.WriteFile(path, good, 0o644); err != nil {
				t.Fatal(err)
			}
			s, err := reader.Open(path, reader.Options{}) // mapped
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if err := os.Truncate(path, 0); err != nil {
				t.Fatal(err)
			}
			err = q.run(s)
			if !errors.Is(err, snii.ErrCorrupt) {
				t.Fatalf("err = %v, want a corruption error", err)
			}
			t.Log(err)
			// The segment stays usable as an object: another query fails the
			// same way, Close works.
			if err := q.run(s); !errors.Is(err, snii.ErrCorrupt) {
				t.Errorf("second query: err = %v", err)
			}
		})
	}
}
