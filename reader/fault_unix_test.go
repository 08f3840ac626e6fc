//go:build unix

package reader_test

import (
	"errors"
	"os"
	"testing"

	"github.com/snii-go/snii"
	"github.com/snii-go/snii/internal/testkit/oracle"
	"github.com/snii-go/snii/reader"
)

// Issues 16 (item 2) and 39 (item 3): a mapped segment truncated in place (as
// cp over it does first) raises SIGBUS on the next read of a page past the new
// end. Every entry point that reads the mapping returns a corruption error
// instead of killing the process: the queries, Verify, and also the calls
// made outside a query (Open, Postings and its iteration, Terms, TermIter,
// Version).
func TestMappedFileTruncatedInPlace(t *testing.T) {
	docs := oracle.Generate(11, oracle.GenOptions{Docs: 3000})
	path := build(t, docs, options(-1, "text", "level", "host"))
	// The most frequent term (windowed: its postings lie outside the dict).
	var term string
	var df int
	for _, ts := range corpusOf(docs).Vocabulary("text") {
		if ts.DF > df {
			term, df = ts.Term, ts.DF
		}
	}
	postings := func(t *testing.T, s *reader.Segment) *reader.Postings {
		p, err := s.Postings(bg, "text", term)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(p.Close)
		return p
	}
	// Each case prepares what it needs on the intact file and returns the
	// call to make once the file is truncated.
	type call func() error
	cases := []struct {
		name string
		prep func(t *testing.T, s *reader.Segment) call
	}{
		{"Docs", func(t *testing.T, s *reader.Segment) call {
			return func() error { _, err := s.Docs(bg, reader.Prefix("text", "", 0), nil); return err }
		}},
		{"Count", func(t *testing.T, s *reader.Segment) call {
			return func() error { _, err := s.Count(bg, reader.Term("text", "zzzz"), nil); return err }
		}},
		{"Bitmap", func(t *testing.T, s *reader.Segment) call {
			return func() error { _, err := s.Bitmap(bg, reader.Prefix("host", "", 0), nil); return err }
		}},
		{"Top+Explain", func(t *testing.T, s *reader.Segment) call {
			return func() error {
				_, err := s.Top(bg, reader.Term("text", term), 3, &reader.TopOptions{Explain: true})
				return err
			}
		}},
		{"Verify", func(t *testing.T, s *reader.Segment) call {
			return func() error { return s.Verify(bg) }
		}},
		{"FieldLengths", func(t *testing.T, s *reader.Segment) call {
			return func() error { _, err := s.FieldLengths(bg, "text"); return err }
		}},
		{"Version", func(t *testing.T, s *reader.Segment) call {
			return func() error { _, err := s.Version(); return err }
		}},
		{"Postings", func(t *testing.T, s *reader.Segment) call { // the dict lookup
			return func() error {
				p, err := s.Postings(bg, "text", term)
				if err == nil {
					p.Close()
				}
				return err
			}
		}},
		{"Postings.Next", func(t *testing.T, s *reader.Segment) call {
			p := postings(t, s)
			return func() error {
				for p.Next() {
				}
				return p.Err()
			}
		}},
		{"Postings.Advance", func(t *testing.T, s *reader.Segment) call {
			p := postings(t, s)
			return func() error {
				if p.Advance(2000) {
					return nil
				}
				return p.Err()
			}
		}},
		{"Postings.Positions", func(t *testing.T, s *reader.Segment) call {
			p := postings(t, s)
			if !p.Next() {
				t.Fatal(p.Err())
			}
			return func() error { _, err := p.Positions(); return err }
		}},
		{"Terms", func(t *testing.T, s *reader.Segment) call {
			return func() error {
				terms, errf := s.Terms(bg, "text", "", 0)
				for range terms {
				}
				return errf()
			}
		}},
		{"TermIter", func(t *testing.T, s *reader.Segment) call {
			it, err := s.TermIter(bg, "text")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(it.Close)
			return func() error {
				for it.Next() {
				}
				return it.Err()
			}
		}},
	}
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	restore := func(t *testing.T) {
		if err := os.WriteFile(path, good, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			restore(t)
			s, err := reader.Open(path, reader.Options{}) // mapped
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			run := c.prep(t, s)
			if err := os.Truncate(path, 0); err != nil {
				t.Fatal(err)
			}
			err = run()
			if !errors.Is(err, snii.ErrCorrupt) {
				t.Fatalf("err = %v, want a corruption error", err)
			}
			t.Log(err)
			// The segment stays usable as an object: the call fails the same
			// way again, Close works.
			if err := run(); !errors.Is(err, snii.ErrCorrupt) {
				t.Errorf("second call: err = %v", err)
			}
		})
	}
	// Open itself: the file shrinks between the mapping and the reads.
	for _, size := range []int64{0, 4096, int64(len(good)) / 2} {
		restore(t)
		s, err := reader.OpenMappedThen(path, reader.Options{}, func() {
			if err := os.Truncate(path, size); err != nil {
				t.Fatal(err)
			}
		})
		if err == nil {
			s.Close()
		}
		if !errors.Is(err, snii.ErrCorrupt) {
			t.Fatalf("Open, truncated to %d bytes after mapping: err = %v, want a corruption error", size, err)
		}
		t.Logf("Open, truncated to %d: %v", size, err)
	}
}
