package reader_test

import (
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/snii-go/snii/internal/errs"
	"github.com/snii-go/snii/internal/seam"
	"github.com/snii-go/snii/internal/testkit/oracle"
	"github.com/snii-go/snii/reader"
)

// checkedBytes runs every query of qs on s with a profile, checks the answers
// against the oracle, and returns the .prx and doc-window bytes whose CRC the
// queries computed.
func checkedBytes(t *testing.T, s *reader.Segment, qs *querySet) (prxBytes, docBytes int64) {
	t.Helper()
	for i, q := range qs.qs {
		var p reader.Profile
		got, err := s.Docs(bg, rq(q), &reader.SearchOptions{Profile: &p})
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if !slices.Equal(got, qs.want[i]) {
			t.Fatalf("%s: %s, oracle %s", q, oracle.Describe(got), oracle.Describe(qs.want[i]))
		}
		prxBytes += p.CheckedBytes
		docBytes += p.DocCheckedBytes
	}
	return prxBytes, docBytes
}

// crcFixture builds a segment of n generated docs (skipping the test where
// segments are not mapped) and returns its path and a query set of every kind.
func crcFixture(t *testing.T, seed uint64, n int) (string, *querySet) {
	t.Helper()
	if !reader.CanMmap {
		t.Skip("no memory mapping on this platform")
	}
	docs := oracle.Generate(seed, oracle.GenOptions{Docs: n, Vocab: 300, MaxValues: 2, MaxTokens: 14})
	return build(t, docs, options(0, "host", "text")), genQueries(corpusOf(docs), "text", seed+4, 5)
}

// TestCRCOnce: on a mapped segment, the first run of a query set computes the
// CRCs of the .prx units and doc windows it reads, and a second run computes
// none (and answers the same); through a ReaderAt, every run computes every
// CRC it reads. Verify still checks everything after the queries.
func TestCRCOnce(t *testing.T) {
	path, qs := crcFixture(t, 7, 6000)
	mapped := open(t, path)
	p1, d1 := checkedBytes(t, mapped, qs)
	p2, d2 := checkedBytes(t, mapped, qs)
	if p1 == 0 || d1 == 0 || p2 != 0 || d2 != 0 {
		t.Errorf("mapped: CRC bytes computed %d prx + %d doc, then %d + %d (want some, then none)", p1, d1, p2, d2)
	}
	if err := mapped.Verify(bg); err != nil {
		t.Fatal(err)
	}
	unmapped, err := reader.Open(path, reader.Options{NoMmap: true})
	if err != nil {
		t.Fatal(err)
	}
	defer unmapped.Close()
	r1, e1 := checkedBytes(t, unmapped, qs)
	r2, e2 := checkedBytes(t, unmapped, qs)
	// (The first mapped run already skips a region an earlier query of the
	// set verified: it computes less than a ReaderAt run.)
	if r1 < p1 || e1 < d1 || r2 != r1 || e2 != e1 {
		t.Errorf("read: CRC bytes computed %d prx + %d doc, then %d + %d (want the same twice, at least the %d + %d of the first mapped run)", r1, e1, r2, e2, p1, d1)
	}
}

// TestCRCOnceConcurrent runs the query set from several goroutines on a fresh
// mapped segment (under the race detector in make test): every answer is the
// oracle's, and once all have run nothing is computed again.
func TestCRCOnceConcurrent(t *testing.T) {
	path, qs := crcFixture(t, 9, 3000)
	s := open(t, path)
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			checkedBytes(t, s, qs)
		}()
	}
	wg.Wait()
	if p, d := checkedBytes(t, s, qs); p != 0 || d != 0 {
		t.Errorf("after the concurrent runs: %d prx + %d doc CRC bytes computed (want none)", p, d)
	}
}

// TestCRCOnceCorruptMapped flips bytes of a mapped segment: a damaged region
// is never recorded as verified, so a query that fails on it fails again
// the second time, and every flip is caught by Open, a query or Verify.
func TestCRCOnceCorruptMapped(t *testing.T) {
	if !reader.CanMmap {
		t.Skip("no memory mapping on this platform")
	}
	qs, _, orig := corruptSegment(t)
	stride := 101
	if testing.Short() {
		stride = 401
	}
	dir := t.TempDir()
	b := make([]byte, len(orig))
	for i := 16; i < len(orig)-64; i += stride {
		copy(b, orig)
		b[i] ^= 1 << (i % 8)
		p := filepath.Join(dir, "flip.snii")
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := reader.Open(p, reader.Options{})
		if err != nil {
			continue // caught at Open
		}
		detected := false
		for k, q := range qs.qs {
			_, err1 := s.Docs(bg, rq(q), nil)
			got, err2 := s.Docs(bg, rq(q), nil)
			if (err1 == nil) != (err2 == nil) {
				t.Fatalf("flip of byte %d: %s: %v, then %v", i, q, err1, err2)
			}
			if err2 != nil {
				detected = true
			} else if !slices.Equal(got, qs.want[k]) {
				t.Fatalf("flip of byte %d: %s: %s, oracle %s", i, q, oracle.Describe(got), oracle.Describe(qs.want[k]))
			}
		}
		if err := s.Verify(bg); err != nil {
			detected = true
		}
		s.Close()
		if !detected {
			t.Fatalf("flip of byte %d went unnoticed by the queries and Verify", i)
		}
	}
}

// TestCRCOnceVerify: after queries have recorded a mapped segment's regions
// as verified, Verify still computes every CRC: a byte of the posting region
// changed in the file under the mapping (shared with the file) is caught by
// Verify, whatever the queries trust.
func TestCRCOnceVerify(t *testing.T) {
	if !reader.CanMmap {
		t.Skip("no memory mapping on this platform")
	}
	qs, path, _ := corruptSegment(t)
	s := open(t, path)
	checkedBytes(t, s, qs)
	if p, d := checkedBytes(t, s, qs); p != 0 || d != 0 {
		t.Fatalf("a second run computed %d + %d CRC bytes (want none)", p, d)
	}
	info, err := seam.IndexMeta(s, "text")
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	for off := int64(info.PostingOff); off < int64(info.DictOff); off += 211 {
		var b [1]byte
		if _, err := f.ReadAt(b[:], off); err != nil {
			t.Fatal(err)
		}
		flip := [1]byte{b[0] ^ 0x10}
		if _, err := f.WriteAt(flip[:], off); err != nil {
			t.Fatal(err)
		}
		verr := s.Verify(bg)
		if _, err := f.WriteAt(b[:], off); err != nil {
			t.Fatal(err)
		}
		if verr == nil || !isKind(verr, errs.Corrupt) {
			t.Fatalf("byte %d of the postings changed under the mapping: Verify gave %v (want a corruption error)", off, verr)
		}
		n++
	}
	if err := s.Verify(bg); err != nil {
		t.Fatalf("restored: %v", err)
	}
	t.Logf("%d changed bytes caught by Verify after the queries trusted their regions", n)
}
