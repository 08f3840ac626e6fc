package reader_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/snii-go/snii"
	"github.com/snii-go/snii/internal/seam"
	"github.com/snii-go/snii/internal/testkit/oracle"
	"github.com/snii-go/snii/objstore"
	"github.com/snii-go/snii/reader"
)

// Issue 39 item 5: fuzzy terms (Lucene's term~N) against the oracle's full
// distance tables: local and through a ReaderAt, within filters and limits,
// and ranked (every match scores 1, as a prefix).
func TestFuzzyOracle(t *testing.T) {
	docs := oracle.Generate(39, oracle.GenOptions{Docs: 2000, Vocab: 8000})
	c := corpusOf(docs)
	path := build(t, docs, options(-1, "text", "host"))
	g := oracle.NewGen(c, "text", 5)
	var qs []oracle.Fuzzy
	for range 60 {
		qs = append(qs, g.Fuzzy().(oracle.Fuzzy))
	}
	for _, v := range c.Vocabulary("text")[:20] { // short terms among them
		for d := range reader.MaxEdits + 1 {
			qs = append(qs, oracle.Fuzzy{Field: "text", Term: v.Term, MaxEdits: d})
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	pread, err := openBytes(b)
	if err != nil {
		t.Fatal(err)
	}
	defer pread.Close()
	wants := make([][]uint32, len(qs))
	ands := make([]oracle.Query, len(qs))
	andWants := make([][]uint32, len(qs))
	parallel(len(qs), func(i int) {
		wants[i] = c.Eval(qs[i])
		ands[i] = oracle.And{qs[i], oracle.Prefix{Field: "text", Prefix: "a"}}
		andWants[i] = c.Eval(ands[i])
	})
	matched := 0
	for _, s := range []*reader.Segment{open(t, path), pread} {
		for i, q := range qs {
			want := wants[i]
			got, err := s.Docs(bg, rq(q), nil)
			if err != nil {
				t.Fatalf("%s: %v", q, err)
			}
			if !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
				t.Fatalf("%s: %d docs, oracle %d (expansions %q)", q, len(got), len(want), c.Near(q.Field, q.Term, q.MaxEdits, q.MaxExpansions))
			}
			if len(want) > 0 {
				matched++
			}
			n, err := s.Count(bg, rq(q), &reader.SearchOptions{Limit: 5})
			if err != nil || n != uint64(min(len(want), 5)) {
				t.Fatalf("%s: count with limit 5 = %d, %v; want %d", q, n, err, min(len(want), 5))
			}
			hits, err := s.Top(bg, rq(q), 3, nil)
			if err != nil || len(hits) != min(len(want), 3) {
				t.Fatalf("%s: top 3 = %v, %v", q, hits, err)
			}
			for i, h := range hits {
				if h.Doc != want[i] || h.Score != 1 {
					t.Fatalf("%s: hit %d = %+v, want doc %d with score 1", q, i, h, want[i])
				}
			}
			// Within another query's documents (a filter).
			if got, err := s.Docs(bg, rq(ands[i]), nil); err != nil || !slices.Equal(got, andWants[i]) && len(got)+len(andWants[i]) > 0 {
				t.Fatalf("%s: %d docs, %v; oracle %d", ands[i], len(got), err, len(andWants[i]))
			}
		}
	}
	if matched < len(qs) {
		t.Logf("%d of %d fuzzy queries match documents", matched/2, len(qs))
	}
	if matched == 0 {
		t.Fatal("no fuzzy query matched anything")
	}
}

// The transposition counts one edit, characters are runes, and the
// expansions are the first in byte order.
func TestFuzzyEdits(t *testing.T) {
	words := []string{"hello", "hlelo", "héllo", "hallo", "helo", "helloo", "ehllo", "hxllx", "world", "help", "yellow"}
	var docs []oracle.Doc
	for _, w := range words {
		docs = append(docs, oracle.Doc{{Name: "text", Values: []string{w}}})
	}
	s := open(t, build(t, docs, options(-1, "text")))
	for _, c := range []struct {
		term        string
		edits, max  int
		wantTermsOf []int // doc ids (one word each)
	}{
		{"hello", 0, 0, []int{0}},
		{"hello", 1, 0, []int{0, 1, 2, 3, 4, 5, 6}},
		{"hello", 1, 2, []int{6, 3}}, // byte order: "ehllo" < "hallo"
		{"hello", 2, 0, []int{0, 1, 2, 3, 4, 5, 6, 7, 9, 10}},
		{"wrold", 1, 0, []int{8}},
		{"héllo", 1, 0, []int{0, 2, 3}},
		{"zzzzzz", 2, 0, nil},
	} {
		q := reader.Fuzzy("text", c.term, c.edits, c.max)
		got, err := s.Docs(bg, q, nil)
		if err != nil {
			t.Fatal(err)
		}
		want := []uint32{}
		for _, d := range c.wantTermsOf {
			want = append(want, uint32(d))
		}
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: %v, want %v", q, got, want)
		}
	}
	for _, q := range []reader.Query{reader.Fuzzy("text", "a", 3, 0), reader.Fuzzy("text", "a", -1, 0), reader.Fuzzy("text", "a", 1, -1)} {
		if _, err := s.Docs(bg, q, nil); !errors.Is(err, snii.ErrInvalidArgument) {
			t.Errorf("%s: %v, want an invalid-argument error", q, err)
		}
	}
	if _, err := s.Docs(bg, reader.Fuzzy("nope", "a", 1, 0), nil); !errors.Is(err, snii.ErrNotFound) {
		t.Errorf("unknown field: %v", err)
	}
}

// The walk skips the dictionary blocks whose terms share a prefix no
// continuation brings within the edits. The vocabulary is 6 groups of 20000
// terms, each group behind a prefix 3 or more edits from the others': a fuzzy
// term reads the blocks of its own group and those that straddle two groups
// (counted with the block cache off, so every block read is decoded), and
// finds what the oracle finds.
func TestFuzzySkipsBlocks(t *testing.T) {
	docs, c := groupedVocabulary()
	s, err := reader.Open(build(t, docs, options(-1, "text")), reader.Options{BlockCacheBytes: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	m, err := seam.IndexMeta(s, "text")
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Blocks) < 2*len(vocabGroups) {
		t.Fatalf("%d dict blocks: too few for the test", len(m.Blocks))
	}
	for _, q := range []oracle.Fuzzy{
		{Field: "text", Term: "hotel00042", MaxEdits: 1},
		{Field: "text", Term: "hotle00042", MaxEdits: 2},
		{Field: "text", Term: "delta1234", MaxEdits: 2},
		{Field: "text", Term: "juliet", MaxEdits: 2},
		{Field: "text", Term: "bravo19", MaxEdits: 2},
	} {
		var p reader.Profile
		got, err := s.Docs(bg, rq(q), &reader.SearchOptions{Profile: &p})
		if err != nil {
			t.Fatal(err)
		}
		if want := c.Eval(q); !slices.Equal(got, want) && len(got)+len(want) > 0 {
			t.Fatalf("%s: %d docs, oracle %d", q, len(got), len(want))
		}
		// Its group's blocks, one straddling each boundary between groups,
		// and the last block (no next first term bounds it).
		limit := int64(len(m.Blocks)/len(vocabGroups) + len(vocabGroups) + 2)
		t.Logf("%s: %d docs, %d of %d dict blocks read", q, len(got), p.DictBlocksRead, len(m.Blocks))
		if p.DictBlocksRead > limit {
			t.Errorf("%s read %d of %d dict blocks, want at most %d", q, p.DictBlocksRead, len(m.Blocks), limit)
		}
	}
}

// vocabGroups are the prefixes of groupedVocabulary's terms, each 3 or more
// edits from the others.
var vocabGroups = []string{"alpha", "bravo", "charlie", "delta", "hotel", "juliet"}

// groupedVocabulary returns documents of 100 distinct terms each: 20000
// terms behind each prefix of vocabGroups.
func groupedVocabulary() ([]oracle.Doc, *oracle.Corpus) {
	var docs []oracle.Doc
	var words []string
	for _, g := range vocabGroups {
		for i := range 20000 {
			words = append(words, fmt.Sprintf("%s%05d", g, i*7919%100000))
			if len(words) == 100 {
				docs = append(docs, oracle.Doc{{Name: "text", Values: []string{strings.Join(words, " ")}}})
				words = words[:0]
			}
		}
	}
	return docs, corpusOf(docs)
}

// roundCountingRemote is an objstore.ReaderAt over bytes that counts its rounds: a read
// outside what was prefetched costs one.
type roundCountingRemote struct {
	b    []byte
	held [][2]int64
}

func (r *roundCountingRemote) ReadAt(p []byte, off int64) (int, error) {
	_, err := r.ReadAtContext(context.Background(), p, off)
	return len(p), err
}

func (r *roundCountingRemote) ReadAtContext(_ context.Context, p []byte, off int64) (objstore.Cost, error) {
	copy(p, r.b[off:])
	for _, h := range r.held {
		if off >= h[0] && off+int64(len(p)) <= h[1] {
			return objstore.Cost{}, nil
		}
	}
	return objstore.Cost{Rounds: 1, Requests: 1, Bytes: int64(len(p))}, nil
}

func (r *roundCountingRemote) Prefetch(_ context.Context, rs []objstore.Range) (objstore.Cost, error) {
	var f objstore.Cost
	for _, x := range rs {
		r.held = append(r.held, [2]int64{x.Off, x.Off + x.Len})
		f.Requests++
		f.Bytes += x.Len
	}
	if len(rs) > 0 {
		f.Rounds = 1
	}
	return f, nil
}

// On a remote segment a fuzzy term costs a round for the dictionary blocks
// its walk reads (not those it skips, nor a round per block) and one for its
// expansions' postings heads.
func TestFuzzyRemoteRounds(t *testing.T) {
	docs, c := groupedVocabulary()
	b, err := os.ReadFile(build(t, docs, options(-1, "text")))
	if err != nil {
		t.Fatal(err)
	}
	r := &roundCountingRemote{b: bytes.Clone(b)}
	s, err := reader.OpenReaderAt(context.Background(), r, int64(len(b)), reader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	m, err := seam.IndexMeta(s, "text")
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []oracle.Fuzzy{
		{Field: "text", Term: "hotel00042", MaxEdits: 1},
		{Field: "text", Term: "delta1234", MaxEdits: 2},
	} {
		var p reader.Profile
		got, err := s.Docs(bg, rq(q), &reader.SearchOptions{Profile: &p})
		if err != nil {
			t.Fatal(err)
		}
		if want := c.Eval(q); !slices.Equal(got, want) {
			t.Fatalf("%s: %d docs, oracle %d", q, len(got), len(want))
		}
		t.Logf("%s: %d rounds, %d bytes fetched; the dictionary holds %d bytes in %d blocks", q, p.Rounds, p.FetchedBytes, m.DictLen, len(m.Blocks))
		if p.Rounds > 3 || p.FetchedBytes > int64(m.DictLen)/2 {
			t.Errorf("%s: %d rounds, %d bytes; want at most 3 rounds (dictionary, heads, windows) and half the dictionary's %d bytes",
				q, p.Rounds, p.FetchedBytes, m.DictLen)
		}
	}
}
