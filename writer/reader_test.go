package writer_test

import (
	"context"
	"slices"
	"testing"

	"github.com/snii-go/snii/reader"
)

// phraseOracle returns the docs where terms occur at consecutive positions.
func phraseOracle(post map[string][]posting, terms ...string) []uint32 {
	at := make([]map[uint32][]uint32, len(terms))
	for i, t := range terms {
		at[i] = make(map[uint32][]uint32)
		for _, p := range post[t] {
			at[i][p.Doc] = p.Pos
		}
	}
	var docs []uint32
	for doc, first := range at[0] {
	next:
		for _, p := range first {
			for i := 1; i < len(terms); i++ {
				if _, ok := slices.BinarySearch(at[i][doc], p+uint32(i)); !ok {
					continue next
				}
			}
			docs = append(docs, doc)
			break
		}
	}
	slices.Sort(docs)
	return docs
}

// TestReaderRoundTrip opens a spilled build with the reader package, runs
// its structural verification and checks phrase queries against the oracle.
func TestReaderRoundTrip(t *testing.T) {
	docs := genDocs(4, 3000)
	o := genOptions()
	o.MemoryLimit = 600 << 10 // a few spills
	path, st := build(t, t.TempDir(), "seg.snii", o, docs)
	if st.Spills == 0 {
		t.Fatal("no spill")
	}
	seg, err := reader.Open(path, reader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer seg.Close()
	ctx := context.Background()
	if err := seg.Verify(ctx); err != nil {
		t.Fatalf("Verify: %v", err)
	}
	want, _ := oracle(t, o, docs)
	for _, q := range [][]string{{"connection", "reset", "by", "peer"}, {"reset", "by"}, {"info"}, {"peer", "connection"}} {
		got, err := seg.Docs(ctx, reader.Phrase("text", q...), nil)
		if err != nil {
			t.Fatal(err)
		}
		if exp := phraseOracle(want["text"], q...); !slices.Equal(got, exp) {
			t.Errorf("phrase %q: %d docs, oracle %d", q, len(got), len(exp))
		}
	}
}

// segRecords is a BuildFromSources record feed of the records of the segment at path.
func segRecords(t testing.TB, path string) func(add func(rec []byte) error) error {
	return func(add func(rec []byte) error) error {
		seg, err := reader.Open(path, reader.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer seg.Close()
		ids := make([]uint32, seg.DocCount())
		for i := range ids {
			ids[i] = uint32(i)
		}
		return seg.Records(context.Background(), ids, func(_ uint32, rec []byte) error { return add(rec) })
	}
}
