package reader_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"sync/atomic"
	"testing"

	"github.com/snii-go/snii/internal/testkit/oracle"
	"github.com/snii-go/snii/reader"
)

// shortReaderAt serves a prefix of each read (keep(len) bytes) and reports
// io.EOF or no error at all, as a misbehaving remote reader might.
type shortReaderAt struct {
	r     io.ReaderAt
	short atomic.Bool // when false, reads are served whole
	eof   bool        // report io.EOF with the short count (else nil)
	keep  func(n int) int
}

func (s *shortReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if !s.short.Load() {
		return s.r.ReadAt(p, off)
	}
	n := s.keep(len(p))
	m, err := s.r.ReadAt(p[:n], off)
	if err == nil && s.eof {
		err = io.EOF
	}
	return m, err
}

// TestShortReadIsAnError: a ReaderAt returning fewer bytes than asked (with
// io.EOF or with no error) fails Open and queries with io.ErrUnexpectedEOF; the
// stale bytes of a pooled buffer are never taken as data.
func TestShortReadIsAnError(t *testing.T) {
	docs := oracle.Generate(71, oracle.GenOptions{Docs: 1500})
	b, err := os.ReadFile(build(t, docs, options(-1, "host", "text")))
	if err != nil {
		t.Fatal(err)
	}
	c := corpusOf(docs)
	qs := genQueries(c, "text", 7, 5).qs
	keeps := map[string]func(int) int{
		"nothing": func(int) int { return 0 },
		"half":    func(n int) int { return n / 2 },
		"one less": func(n int) int {
			return max(n-1, 0)
		},
	}
	for name, keep := range keeps {
		for _, eof := range []bool{false, true} {
			sr := &shortReaderAt{r: bytes.NewReader(b), eof: eof, keep: keep}
			sr.short.Store(true)
			if _, err := reader.OpenReaderAt(context.Background(), sr, int64(len(b)), reader.Options{}); !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Errorf("%s, eof %v: Open: %v, want io.ErrUnexpectedEOF", name, eof, err)
			}
			// Open whole, warm the query buffers, then go short: every query that
			// reads must fail (the dict cache is off, so each one reads).
			sr.short.Store(false)
			s, err := reader.OpenReaderAt(context.Background(), sr, int64(len(b)), reader.Options{BlockCacheBytes: -1})
			if err != nil {
				t.Fatal(err)
			}
			for _, q := range qs {
				if _, err := s.Count(bg, rq(q), nil); err != nil {
					t.Fatalf("%s: %v", q, err)
				}
			}
			sr.short.Store(true)
			failed := 0
			for _, q := range qs {
				var p reader.Profile
				n, err := s.Count(bg, rq(q), &reader.SearchOptions{Profile: &p})
				switch {
				case err == nil && n != 0 && p.BytesRead == 0:
					// answered from memory (a kept pair's df): nothing was read
				case err == nil && n != 0:
					t.Errorf("%s, eof %v: %s counted %d from short reads", name, eof, q, n)
				case err != nil && !errors.Is(err, io.ErrUnexpectedEOF):
					t.Errorf("%s, eof %v: %s: %v, want io.ErrUnexpectedEOF", name, eof, q, err)
				case err != nil:
					failed++
				}
			}
			if failed < len(qs)/2 {
				t.Errorf("%s, eof %v: only %d of %d queries failed", name, eof, failed, len(qs))
			}
			s.Close()
		}
	}
}
