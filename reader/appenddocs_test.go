package reader_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/snii-go/snii"
	"github.com/snii-go/snii/internal/testkit/oracle"
	"github.com/snii-go/snii/reader"
)

// TestAppendDocs: AppendDocs appends exactly Docs' answer (the oracle's) after
// what dst holds, for every kind of query, and leaves dst as it was on error.
func TestAppendDocs(t *testing.T) {
	docs := zstdCorpus()
	c := corpusOf(docs)
	s, err := reader.Open(build(t, docs, options(0, "text")), reader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	cases := []struct {
		q  reader.Query
		oq oracle.Query
	}{
		{reader.Term("text", "alpha"), oracle.Term{Field: "text", Term: "alpha"}},
		{reader.Term("text", "rare"), oracle.Term{Field: "text", Term: "rare"}},
		{reader.Term("text", "absent"), oracle.Term{Field: "text", Term: "absent"}},
		{reader.Prefix("text", "id1", 0), oracle.Prefix{Field: "text", Prefix: "id1"}},
		{reader.Phrase("text", "rare", "alpha", "beta"), oracle.Phrase{Field: "text", Terms: []string{"rare", "alpha", "beta"}}},
		{reader.And(reader.Term("text", "w3"), reader.Prefix("text", "id2", 0)), oracle.And{oracle.Term{Field: "text", Term: "w3"}, oracle.Prefix{Field: "text", Prefix: "id2"}}},
	}
	for _, tc := range cases {
		want := c.Eval(tc.oq)
		head := []uint32{7, 9}
		for _, dst := range [][]uint32{nil, head, append(make([]uint32, 0, len(want)+8), head...)} {
			got, err := s.AppendDocs(bg, tc.q, nil, dst)
			if err != nil {
				t.Fatalf("%s: %v", tc.q, err)
			}
			if !slices.Equal(got[:len(dst)], dst) || !slices.Equal(got[len(dst):], want) {
				t.Fatalf("%s into %d docs: got %d docs after them, want %d", tc.q, len(dst), len(got)-len(dst), len(want))
			}
		}
	}
	dst := []uint32{1, 2, 3}
	got, err := s.AppendDocs(bg, reader.Term("nosuchfield", "alpha"), nil, dst)
	if !errors.Is(err, snii.ErrNotFound) || !slices.Equal(got, dst) {
		t.Fatalf("unknown field: %v, %v (want ErrNotFound and dst unchanged)", got, err)
	}
}

// TestAppendDocsAllocs: a warmed term query into a buffer with room allocates
// nothing, whatever its df (Docs allocates its result).
func TestAppendDocsAllocs(t *testing.T) {
	allocTest(t)
	s, err := reader.Open(build(t, zstdCorpus(), options(0, "text")), reader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	buf := make([]uint32, 0, 8192)
	for _, term := range []string{"alpha", "rare"} {
		q := reader.Term("text", term)
		run := func() {
			var err error
			if buf, err = s.AppendDocs(bg, q, nil, buf[:0]); err != nil {
				t.Fatal(err)
			}
		}
		on := gcOff()
		for i := 0; i < 5; i++ {
			run()
		}
		if a := testing.AllocsPerRun(50, run); a != 0 {
			t.Errorf("AppendDocs %q (%d docs): %.0f allocs, want 0", term, len(buf), a)
		}
		on()
	}
}
