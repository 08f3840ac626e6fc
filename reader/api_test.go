package reader_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/snii-go/snii/internal/codec/prx"
	"github.com/snii-go/snii/internal/errs"
	"github.com/snii-go/snii/internal/seam"
	"github.com/snii-go/snii/internal/testkit/oracle"
	"github.com/snii-go/snii/reader"
)

func smallCorpus() []oracle.Doc {
	return oracle.Generate(21, oracle.GenOptions{Docs: 1200})
}

func TestAPIErrors(t *testing.T) {
	docs := smallCorpus()
	s := open(t, build(t, docs, options(-1, "host", "text")))
	if s.DocCount() != uint32(len(docs)) {
		t.Fatalf("DocCount = %d, want %d", s.DocCount(), len(docs))
	}
	if got := s.Fields(); !slices.Equal(got, []string{"host", "text"}) {
		t.Fatalf("Fields = %q", got)
	}
	_, err := s.Docs(bg, reader.Term("nope", "a"), nil)
	if !errors.Is(err, errs.NotFound) || !strings.Contains(err.Error(), `"nope"`) || !strings.Contains(err.Error(), "host, text") {
		t.Fatalf("unknown field: %v", err)
	}
	for _, q := range []reader.Query{
		reader.Phrase("text"),
		reader.PhrasePrefix("text", 0),
		reader.Prefix("text", "a", -1),
		reader.PhrasePrefix("text", -2, "a", "b"),
		reader.And(reader.Term("text", "a"), nil),
		nil,
	} {
		if _, err := s.Docs(bg, q, nil); !errors.Is(err, errs.InvalidArgument) {
			t.Errorf("%v: err = %v, want invalid argument", q, err)
		}
	}
	if _, err := s.Info("nope"); !errors.Is(err, errs.NotFound) {
		t.Errorf("Info(nope) = %v", err)
	}
	if _, err := s.Postings(t.Context(), "nope", "a"); !errors.Is(err, errs.NotFound) {
		t.Errorf("Postings(nope) = %v", err)
	}
	ctx, cancel := context.WithCancel(bg)
	cancel()
	if _, err := s.Docs(ctx, reader.Term("text", "the"), nil); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled context: %v", err)
	}
	terms, err := s.Analyze("text", "Connection RESET by peer, İstanbul")
	if err != nil || !slices.Equal(terms, oracle.Terms("Connection RESET by peer, İstanbul")) {
		t.Errorf("Analyze = %q, %v", terms, err)
	}
	info, err := seam.IndexMeta(s, "text")
	if err != nil || info.Name != "text" || minSavingPercent(info.Policy) != -1 || info.TermCount == 0 {
		t.Errorf("Info = %+v, %v", info, err)
	}
	// Empty results are empty, not nil.
	if d, err := s.Docs(bg, reader.Term("text", "zzzz-absent"), nil); err != nil || d == nil || len(d) != 0 {
		t.Errorf("absent term: %v, %v", d, err)
	}
	p, err := s.Postings(t.Context(), "text", "zzzz-absent")
	if err != nil || p.Next() || p.Advance(0) || p.Err() != nil {
		t.Errorf("absent term postings: %v", err)
	}
	p.Close()
	// Close: later queries fail with errs.Closed; a second Close is a no-op.
	p, err = s.Postings(t.Context(), "text", "the")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Docs(bg, reader.Term("text", "the"), nil); !errors.Is(err, errs.Closed) {
		t.Errorf("after Close: %v", err)
	}
	// An open Postings keeps the mapping alive.
	n := 0
	for p.Next() {
		if _, err := p.Positions(); err != nil {
			t.Fatal(err)
		}
		n++
	}
	if p.Err() != nil || n == 0 {
		t.Fatalf("postings after Close: %d docs, %v", n, p.Err())
	}
	p.Close()
}

// TestPostingsAndTerms checks the iterator (Next, Advance, Freq, Positions)
// and the term enumeration against the oracle, for every term of both fields.
func TestPostingsAndTerms(t *testing.T) {
	docs := smallCorpus()
	c := corpusOf(docs)
	for _, o := range []reader.Options{{}, {NoMmap: true, BlockCacheBytes: -1}} {
		path := build(t, docs, options(0, "host", "text"))
		s, err := reader.Open(path, o)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(1, 2))
		for _, field := range []string{"host", "text"} {
			vocab := c.Vocabulary(field)
			var got []oracle.TermStat
			terms, errf := s.Terms(t.Context(), field, "", 0)
			for term, df := range terms {
				got = append(got, oracle.TermStat{Term: term, DF: int(df)})
			}
			if err := errf(); err != nil {
				t.Fatal(err)
			}
			if len(got) != len(vocab) {
				t.Fatalf("%s: %d terms, oracle %d", field, len(got), len(vocab))
			}
			for i := range got {
				if got[i].Term != vocab[i].Term || got[i].DF != vocab[i].DF {
					t.Fatalf("%s: term %d = %+v, oracle %+v", field, i, got[i], vocab[i])
				}
			}
			for i, v := range vocab {
				if i%3 != 0 && v.DF < 50 {
					continue // every third rare term, every common term
				}
				want := c.Eval(oracle.Term{Field: field, Term: v.Term})
				p, err := s.Postings(t.Context(), field, v.Term)
				if err != nil {
					t.Fatal(err)
				}
				var gotDocs []uint32
				ttf := 0
				for p.Next() {
					d := p.Doc()
					gotDocs = append(gotDocs, d)
					if rng.IntN(3) == 0 {
						continue // positions stay lazy
					}
					pos, err := p.Positions()
					if err != nil {
						t.Fatal(err)
					}
					if wp := c.Positions(d, field, v.Term); !slices.Equal(pos, wp) {
						t.Fatalf("%s:%q doc %d positions %v, oracle %v", field, v.Term, d, pos, wp)
					}
					ttf += len(pos)
				}
				if p.Err() != nil || !slices.Equal(gotDocs, want) {
					t.Fatalf("%s:%q docs %s, oracle %s (%v)", field, v.Term, oracle.Describe(gotDocs), oracle.Describe(want), p.Err())
				}
				p.Close()
				// Advance to random targets.
				p, _ = s.Postings(t.Context(), field, v.Term)
				target := uint32(0)
				for {
					target += uint32(rng.IntN(200))
					ok := p.Advance(target)
					j, _ := slices.BinarySearch(want, target)
					if !ok {
						if j != len(want) || p.Err() != nil {
							t.Fatalf("%s:%q Advance(%d) = false, oracle has %d (%v)", field, v.Term, target, len(want)-j, p.Err())
						}
						break
					}
					if p.Doc() != want[j] {
						t.Fatalf("%s:%q Advance(%d) = %d, want %d", field, v.Term, target, p.Doc(), want[j])
					}
					if rng.IntN(2) == 0 && p.Next() {
						if j+1 >= len(want) || p.Doc() != want[j+1] {
							t.Fatalf("%s:%q Next after Advance = %d", field, v.Term, p.Doc())
						}
					}
					target = p.Doc() + 1
				}
				p.Close()
			}
			// Prefix enumeration with limits.
			for _, pre := range []string{"", "a", "b", "na", "x", "zzz", "é"} {
				for _, max := range []int{0, 1, 5} {
					var terms []string
					seq, errf := s.Terms(t.Context(), field, pre, max)
					for term := range seq {
						terms = append(terms, term)
					}
					if err := errf(); err != nil {
						t.Fatal(err)
					}
					if want := c.Expand(field, pre, max); !slices.Equal(terms, want) {
						t.Fatalf("Terms(%s, %q, %d) = %q, oracle %q", field, pre, max, terms, want)
					}
				}
			}
		}
		s.Close()
	}
}

// TestProfile checks the profile counters of a phrase query against what the
// query must have done.
func TestProfile(t *testing.T) {
	docs := smallCorpus()
	c := corpusOf(docs)
	s := open(t, build(t, docs, options(0, "host", "text")))
	var total reader.Profile
	for _, q := range []oracle.Query{
		oracle.Phrase{Field: "text", Terms: []string{"connection", "reset", "by", "peer"}},
		oracle.Phrase{Field: "text", Terms: []string{"na", "na", "batman"}},
		oracle.PhrasePrefix{Field: "text", Terms: []string{"no", "such", "fi"}, MaxExpansions: 0},
	} {
		var p reader.Profile
		got, err := s.Docs(bg, rq(q), &reader.SearchOptions{Profile: &p})
		if err != nil || !slices.Equal(got, c.Eval(q)) || len(got) == 0 {
			t.Fatalf("%s: %v (%v)", q, oracle.Describe(got), err)
		}
		frames := p.Frames[prx.CodecRaw] + p.Frames[prx.CodecZstd] + p.Frames[prx.CodecPFOR]
		switch {
		case frames == 0 || frames < p.WindowsRead: // every window read parses at least one unit
			t.Errorf("%s: frames %v, windows read %d", q, p.Frames, p.WindowsRead)
		case p.SelectedDocs > p.TotalDocs || p.SelectedPositions > p.TotalPositions || p.SelectedDocs < int64(len(got)):
			t.Errorf("%s: selected %d/%d docs, %d/%d positions", q, p.SelectedDocs, p.TotalDocs, p.SelectedPositions, p.TotalPositions)
		case p.BytesRead <= 0 || p.ReadRanges <= 0 || p.DocWindowsRead <= 0 || p.TotalTime <= 0:
			t.Errorf("%s: profile %+v", q, p)
		}
		total.Add(&p)
	}
	if total.WindowsRead == 0 {
		t.Fatal("no windows")
	}
	// Without a profile nothing is counted, and the answers are the same.
	n, err := s.Count(bg, reader.Phrase("text", "connection", "reset"), nil)
	if err != nil || n == 0 {
		t.Fatal(n, err)
	}
}

// TestEmptySegment: a segment without documents opens, answers nothing and
// verifies.
func TestEmptySegment(t *testing.T) {
	s := open(t, build(t, nil, options(-1, "text")))
	if s.DocCount() != 0 {
		t.Fatal(s.DocCount())
	}
	for _, q := range []reader.Query{reader.Term("text", "a"), reader.Phrase("text", "a", "b"),
		reader.Prefix("text", "", 0), reader.PhrasePrefix("text", 0, "a", ""), reader.Or(reader.Term("text", "a"))} {
		if d, err := s.Docs(bg, q, nil); err != nil || len(d) != 0 {
			t.Errorf("%s: %v, %v", q, d, err)
		}
	}
	if err := s.Verify(bg); err != nil {
		t.Fatal(err)
	}
	terms, errf := s.Terms(t.Context(), "text", "", 0)
	for range terms {
		t.Error("a term")
	}
	if err := errf(); err != nil {
		t.Fatal(err)
	}
}
