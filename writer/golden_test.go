package writer_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/snii-go/snii/analysis"
	"github.com/snii-go/snii/internal/testkit"
	"github.com/snii-go/snii/reader"
	"github.com/snii-go/snii/writer"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/writer")

const goldenDir = "../testdata/writer"

// goldenDocs is a tiny corpus that still reaches every term class: inline
// (most terms), slim (positions that do not fit inline), and
// windowed (a term in >= 512 documents), in two fields.
func goldenDocs() []writer.Document {
	var docs []writer.Document
	docs = append(docs,
		writer.Doc("text", "Connection reset by peer", "host", "db-1"),
		writer.Doc("text", "GET /index.html 200", "host", "web-1"),
		writer.Doc("text", "connection timed out after 30s"),
		writer.Doc("host", "db-2"),
		writer.Doc(),
		writer.Doc("text", "connection reset again"), // a kept pair: "connection reset" (df 2)
		writer.Doc("text", "reset the connection"),
	)
	var big []byte
	for i := 0; i < 400; i++ {
		for j := 0; j < i*37%23; j++ {
			big = append(big, "f "...)
		}
		big = append(big, "slim "...) // irregular positions: too big for inline
	}
	docs = append(docs, writer.Doc("text", string(big)))
	for i := 0; i < 520; i++ {
		docs = append(docs, writer.Doc("text", "tick"))
	}
	return docs
}

// TestGolden pins the bytes of a tiny segment. Run with -update after an
// intended format change, and review the diff of the decoded dump.
func TestGolden(t *testing.T) {
	o := writer.DefaultOptions("text")
	o.Fields = append(o.Fields, writer.FieldOptions{Name: "host", Analyzer: analysis.Keyword})
	o.Pairs = writer.Pairs{Percent: 100, MinDF: 2} // pin a pair section too
	docs := goldenDocs()
	path, _ := build(t, t.TempDir(), "tiny.snii", o, docs)
	got := testkit.ReadFile(t, path)
	seg := checkAgainstOracle(t, path, o, docs)
	m := seg.index(t, "text").Meta
	if m.InlineTerms == 0 || m.SlimTerms == 0 || m.WindowedTerms == 0 {
		t.Errorf("golden corpus misses a class: %d inline, %d slim, %d windowed", m.InlineTerms, m.SlimTerms, m.WindowedTerms)
	}
	if m.PairCount == 0 {
		t.Errorf("golden corpus keeps no pair (%d eligible, allowance %d)", m.PairsEligible, m.PairsAllowance)
	}
	golden := filepath.Join(goldenDir, "tiny.snii")
	if *update {
		if err := os.MkdirAll(goldenDir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -run TestGolden -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		n := 0
		for n < len(got) && n < len(want) && got[n] == want[n] {
			n++
		}
		t.Errorf("segment (%d bytes) differs from %s (%d bytes) at offset %d", len(got), golden, len(want), n)
	}
}

// TestReadsOlderFormats: the golden segment as the last format-5 to 8
// writers wrote it (tiny-v5.snii to tiny-v8.snii, kept as they were) still
// decodes to the oracle's postings, and the reader answers terms and phrases
// on it as on the current golden; formats 5 to 7 keep no records, format 8
// and the current one every document's.
func TestReadsOlderFormats(t *testing.T) {
	o := writer.DefaultOptions("text")
	o.Fields = append(o.Fields, writer.FieldOptions{Name: "host", Analyzer: analysis.Keyword})
	o.Pairs = writer.Pairs{Percent: 100, MinDF: 2}
	queries := []reader.Query{
		reader.Term("text", "connection"), reader.Term("text", "tick"), reader.Term("host", "db-1"),
		reader.Phrase("text", "connection", "reset"), reader.Phrase("text", "slim", "f"),
		reader.Phrase("text", "f", "f", "slim"),
	}
	answers := func(path string) [][]uint32 {
		seg, err := reader.Open(path, reader.Options{})
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		defer seg.Close()
		var out [][]uint32
		for _, q := range queries {
			ids, err := seg.Docs(context.Background(), q, nil)
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			out = append(out, ids)
		}
		return out
	}
	want := answers(filepath.Join(goldenDir, "tiny.snii"))
	if len(want[3]) == 0 || len(want[4]) == 0 {
		t.Error("the phrases match nothing: the comparison proves little")
	}
	checkGoldenRecords(t, filepath.Join(goldenDir, "tiny.snii"))
	for _, v := range []byte{5, 6, 7, 8} {
		old := filepath.Join(goldenDir, fmt.Sprintf("tiny-v%d.snii", v))
		if b := testkit.ReadFile(t, old); len(b) < 8 || b[4] != v || b[6] != v {
			t.Fatalf("%s is not a format-%d file", old, v)
		}
		checkAgainstOracle(t, old, o, goldenDocs())
		if seg, err := reader.Open(old, reader.Options{}); err != nil {
			t.Fatal(err)
		} else if _, ok := seg.Store(); ok != (v >= 8) || seg.Close() != nil {
			t.Errorf("format-%d golden reports a store: %v", v, ok)
		}
		if v >= 8 {
			checkGoldenRecords(t, old)
		}
		if d := cmp.Diff(want, answers(old)); d != "" {
			t.Errorf("format-%d answers differ from the current format's (-current +old):\n%s", v, d)
		}
	}
}

// checkGoldenRecords: the golden segment's records are goldenDocs' fields as
// JSON objects.
func checkGoldenRecords(t *testing.T, path string) {
	t.Helper()
	seg, err := reader.Open(path, reader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer seg.Close()
	docs := goldenDocs()
	if info, ok := seg.Store(); !ok || info.Records != uint64(len(docs)) {
		t.Fatalf("golden store %+v %v", info, ok)
	}
	for i, d := range docs {
		rec, err := seg.Record(context.Background(), uint32(i))
		if err != nil {
			t.Fatal(err)
		}
		var got map[string]any
		if err := json.Unmarshal(rec, &got); err != nil {
			t.Fatalf("record %d: %v", i, err)
		}
		want := map[string]any{}
		for _, f := range d.Fields {
			for _, v := range f.Values {
				switch old := want[f.Name].(type) {
				case nil:
					want[f.Name] = v
				case string:
					want[f.Name] = []any{old, v}
				case []any:
					want[f.Name] = append(old, v)
				}
			}
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("record %d (-want +got):\n%s", i, diff)
		}
	}
}
