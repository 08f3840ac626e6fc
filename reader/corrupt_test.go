package reader_test

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/snii-go/snii/internal/errs"
	"github.com/snii-go/snii/internal/seam"
	"github.com/snii-go/snii/internal/testkit/oracle"
	"github.com/snii-go/snii/reader"
	"github.com/snii-go/snii/writer"
)

// sectionWords are the names an error about stored bytes must mention.
var sectionWords = []string{"header", "tail", "directory", "metadata", "dict block", "prelude",
	"doc window", "prx window", "term ", "file", "index ", "store"}

func namesSection(err error) bool {
	msg := err.Error()
	for _, w := range sectionWords {
		if strings.Contains(msg, w) {
			return true
		}
	}
	return false
}

// corruptQueries are run on every damaged segment.
func corruptQueries(c *oracle.Corpus) *querySet {
	qs := &querySet{qs: []oracle.Query{
		oracle.Term{Field: "text", Term: "the"},
		oracle.Term{Field: "text", Term: "peer"},
		oracle.Term{Field: "host", Term: "api"},
		oracle.Phrase{Field: "text", Terms: []string{"connection", "reset", "by", "peer"}},
		oracle.Phrase{Field: "text", Terms: []string{"the", "the"}},
		oracle.Phrase{Field: "text", Terms: []string{"na", "na", "batman"}},
		oracle.PhrasePrefix{Field: "text", Terms: []string{"failed", "pass"}, MaxExpansions: 2},
		oracle.SloppyPhrase{Field: "text", Terms: []string{"reset", "connection"}, Slop: 2},
		oracle.SloppyPhrase{Field: "text", Terms: []string{"na", "batman", "na"}, Slop: 2},
		oracle.Prefix{Field: "text", Prefix: "", MaxExpansions: 0},
		oracle.Prefix{Field: "host", Prefix: "w", MaxExpansions: 0},
		oracle.And{oracle.Term{Field: "host", Term: "cache"}, oracle.Phrase{Field: "text", Terms: []string{"user", "root"}}},
	}}
	for _, q := range qs.qs {
		qs.want = append(qs.want, c.Eval(q))
		qs.kinds = append(qs.kinds, "")
	}
	return qs
}

// checkDamaged opens a damaged copy and runs the queries and Verify: every
// failure must be a corruption (or version) error naming a section; every
// success must be the oracle's answer. It reports whether anything failed.
func checkDamaged(t *testing.T, b []byte, qs *querySet, what string) (detected bool) {
	t.Helper()
	s, err := openBytes(b)
	if err != nil {
		if !isKind(err, errs.Corrupt, errs.Version) || !namesSection(err) {
			t.Fatalf("%s: Open: %v (want a corruption error naming the section)", what, err)
		}
		if why := errShape(err); why != "" {
			t.Fatalf("%s: Open: %v: %s", what, err, why)
		}
		return true
	}
	defer s.Close()
	for i, q := range qs.qs {
		got, err := s.Docs(bg, rq(q), nil)
		if err != nil {
			if !isKind(err, errs.Corrupt) || !namesSection(err) {
				t.Fatalf("%s: %s: %v (want a corruption error naming the section)", what, q, err)
			}
			if why := errShape(err); why != "" {
				t.Fatalf("%s: %s: %v: %s", what, q, err, why)
			}
			detected = true
			continue
		}
		if !slices.Equal(got, qs.want[i]) {
			t.Fatalf("%s: %s: wrong answer %s, oracle %s", what, q, oracle.Describe(got), oracle.Describe(qs.want[i]))
		}
	}
	if err := s.Verify(bg); err != nil {
		if !isKind(err, errs.Corrupt) || !namesSection(err) {
			t.Fatalf("%s: Verify: %v", what, err)
		}
		if why := errShape(err); why != "" {
			t.Fatalf("%s: Verify: %v: %s", what, err, why)
		}
		detected = true
	}
	return detected
}

// corruptSegment builds the segment of corruptCorpus and returns the
// queries to run on its damaged copies, its path and its bytes.
func corruptSegment(t *testing.T) (*querySet, string, []byte) {
	t.Helper()
	docs := corruptCorpus()
	path := build(t, docs, options(0, "host", "text"))
	orig, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return corruptQueries(corpusOf(docs)), path, orig
}

// corruptCorpus is small but has inline, slim and windowed terms.
func corruptCorpus() []oracle.Doc {
	return oracle.Generate(41, oracle.GenOptions{Docs: 700, Vocab: 400, MaxValues: 2, MaxTokens: 12})
}

// TestCorruptFlip flips bytes of a small segment: every flip must be caught by
// Open, a query or Verify (every byte is under a CRC), with a corruption error
// naming the section, and queries that succeed must give the oracle's answers.
// Every byte of the header, the metadata groups, the directory and the tail is
// flipped (one bit each), and every 13th byte of the rest (61st with -short).
func TestCorruptFlip(t *testing.T) {
	qs, path, orig := corruptSegment(t)
	s := open(t, path)
	if err := s.Verify(bg); err != nil {
		t.Fatal(err)
	}
	// The small sections: header, metadata groups, directory and tail.
	small := map[int]bool{}
	mark := func(from, to uint64) {
		for i := from; i < to; i++ {
			small[int(i)] = true
		}
	}
	mark(0, 16)
	dirOff := binary.LittleEndian.Uint64(orig[len(orig)-32:])
	mark(dirOff, uint64(len(orig)))
	fields := s.Fields()
	for k, f := range fields {
		info, _ := seam.IndexMeta(s, f)
		end := dirOff
		if k+1 < len(fields) {
			next, _ := seam.IndexMeta(s, fields[k+1])
			end = next.PostingOff
		}
		mark(info.DictOff+info.DictLen, end)
	}
	stride := 13
	if testing.Short() {
		stride = 61
	}
	b := make([]byte, len(orig))
	flips := 0
	for i := range orig {
		if !small[i] && i%stride != 0 {
			continue
		}
		mask := byte(1) << (i % 8)
		copy(b, orig)
		b[i] ^= mask
		if !checkDamaged(t, b, qs, "flip") {
			t.Fatalf("flip of byte %d (mask %#x) of %d went unnoticed by Open, queries and Verify", i, mask, len(orig))
		}
		flips++
	}
	t.Logf("%d-byte segment: %d flips (%d in the small sections), all detected", len(orig), flips, len(small))
}

// TestCorruptTruncate opens every proper prefix of a small segment: all must
// fail with a corruption error.
func TestCorruptTruncate(t *testing.T) {
	docs := corruptCorpus()
	orig, err := os.ReadFile(build(t, docs, options(-1, "host", "text")))
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; n < len(orig); n++ {
		s, err := openBytes(orig[:n])
		if err == nil {
			s.Close()
			t.Fatalf("a segment truncated to %d of %d bytes opened", n, len(orig))
		}
		if !errors.Is(err, errs.Corrupt) || !namesSection(err) {
			t.Fatalf("truncated to %d: %v", n, err)
		}
	}
	// a file too short for a header and tail, through Open (mmap path)
	p := t.TempDir() + "/short.snii"
	os.WriteFile(p, orig[:10], 0o644)
	if _, err := reader.Open(p, reader.Options{}); !errors.Is(err, errs.Corrupt) {
		t.Fatalf("short file: %v", err)
	}
	os.WriteFile(p, nil, 0o644)
	if _, err := reader.Open(p, reader.Options{}); !errors.Is(err, errs.Corrupt) {
		t.Fatalf("empty file: %v", err)
	}
}

// FuzzOpenQuery opens mutated small segments, queries them, iterates postings
// and verifies them: nothing may panic, every error must be of a known kind.
// With fix set, the CRCs of the header, dict blocks, metadata, store,
// directory and tail are recomputed after the mutation, so that damaged
// lengths, offsets and counts reach the structural checks. Records reads the
// records of the first documents.
func FuzzOpenQuery(f *testing.F) {
	damagedSeeds(f)
	f.Fuzz(func(t *testing.T, b []byte, fix bool) {
		if fix { // recompute the CRCs so that mutations reach the checks behind them
			b = fixCRCs(b)
		}
		s, err := openBytes(b)
		if err != nil {
			openErrOK(t, err)
			return
		}
		defer s.Close()
		queryDamaged(t, s)
	})
}

// FuzzOpenQueryMapped is FuzzOpenQuery on a mapped file, whose regions
// verified by a query are trusted by the next (the segment's set of
// verified CRCs): the queries run twice, so that a damaged entry pointing
// at a region verified as another's is read trusted. Nothing may panic,
// every error must be of a known kind.
func FuzzOpenQueryMapped(f *testing.F) {
	damagedSeeds(f)
	f.Fuzz(func(t *testing.T, b []byte, fix bool) {
		if fix {
			b = fixCRCs(b)
		}
		path := filepath.Join(t.TempDir(), "seg.snii")
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := reader.Open(path, reader.Options{})
		if err != nil {
			openErrOK(t, err)
			return
		}
		defer s.Close()
		queryDamaged(t, s)
		queryDamaged(t, s)
	})
}

// damagedSeeds adds small segments of three shapes (inline, slim and
// windowed terms, a pair section), each with and without fixed CRCs.
func damagedSeeds(f *testing.F) {
	for i, docs := range [][]oracle.Doc{
		oracle.Generate(1, oracle.GenOptions{Docs: 8, MaxTokens: 6}),
		oracle.Generate(2, oracle.GenOptions{Docs: 60, Vocab: 30, MaxTokens: 10}),
		oracle.Generate(3, oracle.GenOptions{Docs: 600, Vocab: 50, MaxValues: 1, MaxTokens: 4}),
	} {
		o := options([]int{0, 30, -1}[i], "host", "text")
		o.Pairs = writer.Pairs{Percent: 100, MinDF: 2} // a pair section to damage too
		p := build(f, docs, o)
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, false)
		f.Add(b, true)
	}
}

// openErrOK fails unless err, from opening a damaged segment, is of a known
// kind (NotFound: a mutated analyzer name that is not registered).
func openErrOK(t *testing.T, err error) {
	t.Helper()
	if !isKind(err, errs.Corrupt, errs.Version, errs.Limit, errs.NotFound) {
		t.Fatalf("Open: unexpected error kind: %v", err)
	}
	shapeOK(t, "Open", err)
}

// damagedQueries are the queries run on damaged segments.
var damagedQueries = []reader.Query{
	reader.Term("text", "the"),
	reader.Phrase("text", "the", "the"),
	reader.Phrase("text", "na", "na", "batman"),
	reader.PhrasePrefix("text", 3, "no", "s"),
	reader.SloppyPhrase("text", 2, "na", "the", "na"),
	reader.Prefix("text", "", 0),
	reader.Or(reader.Term("host", "api"), reader.Prefix("host", "w", 0)),
	reader.And(reader.Term("host", "cache"), reader.Prefix("text", "a", 2)),
}

// queryDamaged runs damagedQueries, record reads, postings walks and Verify
// on s: nothing may panic, every error must be of a known kind.
func queryDamaged(t *testing.T, s *reader.Segment) {
	t.Helper()
	for _, q := range damagedQueries {
		_, err := s.Docs(bg, q, nil)
		if err != nil && !isKind(err, errs.Corrupt, errs.NotFound, errs.Limit) {
			t.Fatalf("%s: unexpected error kind: %v", q, err)
		}
		shapeOK(t, q.String(), err)
		_, err = s.Count(bg, q, nil)
		if err != nil && !isKind(err, errs.Corrupt, errs.NotFound, errs.Limit) {
			t.Fatalf("%s: unexpected error kind: %v", q, err)
		}
		shapeOK(t, q.String(), err)
		_, err = s.Top(bg, q, 5, nil)
		if err != nil && !isKind(err, errs.Corrupt, errs.NotFound, errs.Limit) {
			t.Fatalf("%s: Top: unexpected error kind: %v", q, err)
		}
		shapeOK(t, q.String()+": Top", err)
	}
	ids := make([]uint32, min(s.DocCount(), 700))
	for i := range ids {
		ids[i] = uint32(i)
	}
	if err := s.Records(bg, ids, func(uint32, []byte) error { return nil }); err != nil && !isKind(err, errs.Corrupt, errs.Limit, errs.NotFound) {
		t.Fatalf("Records: unexpected error kind: %v", err)
	}
	for _, field := range s.Fields() {
		n := 0
		terms, _ := s.Terms(bg, field, "", 20)
		for term := range terms {
			p, err := s.Postings(bg, field, term)
			if err != nil {
				continue
			}
			for p.Next() && n < 2000 {
				p.Positions()
				n++
			}
			p.Advance(p.Doc() + 3)
			p.Close()
		}
	}
	err := s.Verify(bg)
	if err != nil && !isKind(err, errs.Corrupt, errs.Limit) {
		t.Fatalf("Verify: unexpected error kind: %v", err)
	}
	shapeOK(t, "Verify", err)
}

// TestFixCRCs: on an intact segment fixCRCs changes nothing. A flip behind
// recomputed CRCs (a crafted file, not random damage) may go unnoticed by a
// query, but then Verify must report it whenever an answer is wrong, and nothing
// may panic or fail with another error kind.
func TestFixCRCs(t *testing.T) {
	docs := corruptCorpus()
	c := corpusOf(docs)
	qs := corruptQueries(c)
	orig, err := os.ReadFile(build(t, docs, options(-1, "host", "text")))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(fixCRCs(orig), orig) {
		t.Fatal("fixCRCs changed an intact segment")
	}
	dirOff := binary.LittleEndian.Uint64(orig[len(orig)-32:])
	wrong, silent := 0, 0
	for i := int(dirOff) - 400; i < len(orig)-32; i++ { // the end of the last metadata group and the directory
		b := append([]byte(nil), orig...)
		b[i] ^= 0x04
		s, err := openBytes(fixCRCs(b))
		if err != nil {
			if !isKind(err, errs.Corrupt, errs.Version, errs.NotFound) || !namesSection(err) {
				t.Fatalf("byte %d: Open: %v", i, err)
			}
			continue
		}
		bad := false
		for k, q := range qs.qs {
			got, err := s.Docs(bg, rq(q), nil)
			if err != nil && (!isKind(err, errs.Corrupt) || !namesSection(err)) {
				t.Fatalf("byte %d: %s: %v", i, q, err)
			}
			if err == nil && !slices.Equal(got, qs.want[k]) {
				bad = true
			}
		}
		verr := s.Verify(bg)
		if verr != nil && (!isKind(verr, errs.Corrupt) || !namesSection(verr)) {
			t.Fatalf("byte %d: Verify: %v", i, verr)
		}
		if bad {
			wrong++
			if verr == nil {
				t.Fatalf("byte %d: wrong answers and Verify found nothing", i)
			}
		}
		if verr == nil {
			silent++
		}
		s.Close()
	}
	t.Logf("flips behind recomputed CRCs: %d gave wrong answers (all caught by Verify), %d were harmless", wrong, silent)
}
