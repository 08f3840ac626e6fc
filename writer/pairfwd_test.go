package writer_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/snii-go/snii/analysis"
	"github.com/snii-go/snii/internal/testkit"
	"github.com/snii-go/snii/writer"
)

// pairPathDocs are log-like documents shaped for the forward index's
// layouts: some with the text in several values (ValueGap apart: sparse
// documents when short, dense with empty slots when long), empty values,
// documents without text, pairs repeated within a document and "a a" pairs;
// with max_token_bytes=6 many words are skipped and leave empty positions.
func pairPathDocs(n int) []writer.Document {
	docs := genDocs(17, n)
	for i := range docs {
		for j := range docs[i].Fields {
			f := &docs[i].Fields[j]
			if f.Name != "text" {
				continue
			}
			words := strings.Fields(f.Values[0])
			switch i % 7 {
			case 1: // three values, the middle one empty
				h := len(words) / 2
				f.Values = []string{strings.Join(words[:h], " "), "", strings.Join(words[h:], " ")}
			case 2: // a value per word pair: sparse
				f.Values = nil
				for k := 0; k < len(words); k += 2 {
					f.Values = append(f.Values, strings.Join(words[k:min(k+2, len(words))], " "))
				}
			case 3: // repeats
				f.Values[0] += " retry retry later later retry later"
			case 4:
				f.Values = nil // no token
			}
		}
	}
	return docs
}

func pairPathOptions() writer.Options {
	o := writer.DefaultOptions("text", "title")
	o.Fields[0].Analyzer = "standard;max_token_bytes=6"
	o.Fields = append(o.Fields, writer.FieldOptions{Name: "host", Analyzer: analysis.Keyword})
	o.Pairs = writer.Pairs{Percent: 20, MinDF: 3}
	return o
}

// TestPairCountingPaths: a build counts its pairs from a forward index
// recorded as documents are added, bucketed by first term (or, past a
// memory share, through the record sorter), a spilled build or a merge from
// the postings alone. All three give the same bytes and the oracle's
// selection, on documents that exercise the forward index's layouts.
func TestPairCountingPaths(t *testing.T) {
	docs := pairPathDocs(3000)
	o := pairPathOptions()
	dir := t.TempDir()
	var ref []byte
	for i, c := range []struct {
		fl   *writer.Faults
		path int
	}{
		{&writer.Faults{FailAfter: -1}, 0},
		{&writer.Faults{FailAfter: -1, PairWide: true}, 0},   // 8-byte bucket records
		{&writer.Faults{FailAfter: -1, PairSplit: 3}, 0},     // 4-byte records with the docs' high parts per bucket
		{&writer.Faults{FailAfter: -1, PairNoBits: true}, 0}, // co from the term buffer only
		{&writer.Faults{FailAfter: -1, PairNoFwd: true, PairNoBits: true}, 2},
		{&writer.Faults{FailAfter: -1, PairRecords: true}, 1},
		{&writer.Faults{FailAfter: -1, PairNoFwd: true}, 2},
	} {
		fl := c.fl
		path, _ := build(t, dir, fmt.Sprintf("path%d.snii", i), writer.WithFaults(o, fl), docs)
		if got := fl.PairPaths(); got[c.path] != 3 || got[0]+got[1]+got[2] != 3 {
			t.Fatalf("build %d: pair counting paths %v (want every field on path %d)", i, got, c.path)
		}
		if c.fl.PairSplit > 0 && fl.PairSplits() != 3 {
			t.Fatalf("build %d: %d fields split the docs of their bucket records (want 3)", i, fl.PairSplits())
		}
		b := testkit.ReadFile(t, path)
		if i == 0 {
			ref = b
			checkPairSelection(t, "paths", path, o, docs, "text", "title")
		} else if !bytes.Equal(b, ref) {
			t.Errorf("build %d (paths %v): segment differs from the forward index's", i, fl.PairPaths())
		}
	}
}

// TestPairForwardDropped: past its memory share (no spill) the forward index
// keeps its slots in a temp file and the buckets fill in several passes, with
// the same bytes; it is dropped, and the pairs counted from the postings with
// the same result, when an analyzer puts two tokens at one position.
func TestPairForwardDropped(t *testing.T) {
	docs := pairPathDocs(3000)
	o := pairPathOptions()
	o.NoStore = true // the limits below are the term buffers' alone
	dir := t.TempDir()
	fl0 := &writer.Faults{FailAfter: -1}
	ref, st := build(t, dir, "ref.snii", writer.WithFaults(o, fl0), docs)
	want := testkit.ReadFile(t, ref)
	if fl0.PairFills() != 3 {
		t.Errorf("uncapped: %d bucket fills (want one per field)", fl0.PairFills())
	}

	// The term buffers peak near st.PeakBuffered (they leave Add's batches
	// their reserve besides); a forward index holds 4
	// bytes per position, far more than a quarter of that: it goes to a
	// temp file. Buckets of a few KiB fill in several passes per field, and
	// buckets too small for maxPairPasses passes send the pairs through the
	// record sorter. The candidates' entries go to a temp file past 4 KiB.
	for _, c := range []struct {
		bucket    int64
		records   int // fields expected on the record sorter's path (-1: one or more)
		manyFills bool
	}{{0, 0, false}, {32 << 10, 0, true}, {64, -1, false}} {
		fl := &writer.Faults{FailAfter: -1, PairBucket: c.bucket, PairEntries: 4 << 10}
		o2 := writer.WithFaults(o, fl)
		o2.MemoryLimit = st.PeakBuffered + 1 + writer.BatchReserve(2*(st.PeakBuffered+1)) // (the reserve grows with the limit)
		path, st2 := build(t, dir, fmt.Sprintf("capped%d.snii", c.bucket), o2, docs)
		p := fl.PairPaths()
		if okRecords := p[1] == c.records || (c.records < 0 && p[1] > 0); st2.Spills != 0 || p[2] != 0 || !okRecords || fl.PairFwdFiles() == 0 {
			t.Errorf("limit %d, buckets %d: %d spills, pair counting paths %v, %d forward indexes in a file (want no spill, no index from the postings, %d from records, one or more in a file)",
				o2.MemoryLimit, c.bucket, st2.Spills, p, fl.PairFwdFiles(), c.records)
		}
		if fl.PairEntryFiles() == 0 {
			t.Errorf("limit %d, buckets %d: no index kept its pair entries in a temp file", o2.MemoryLimit, c.bucket)
		}
		if c.manyFills && fl.PairFills() <= 2*3 {
			t.Errorf("buckets %d: %d bucket fills (want several passes an index)", c.bucket, fl.PairFills())
		}
		if !bytes.Equal(testkit.ReadFile(t, path), want) {
			t.Errorf("buckets %d: a build with its forward index in a temp file differs", c.bucket)
		}
	}

	// Two terms at every position.
	o3 := pairPathOptions()
	o3.Fields[0].Analyzer = synAnalyzer
	fl := &writer.Faults{FailAfter: -1}
	path, _ := build(t, dir, "syn.snii", writer.WithFaults(o3, fl), docs)
	if got := fl.PairPaths(); got != [3]int{2, 0, 1} {
		t.Errorf("synonym analyzer: pair counting paths %v (want text from the postings, the others from buckets)", got)
	}
	checkPairSelection(t, "synonyms", path, o3, docs, "text")
}

// synAnalyzer emits every whitespace-separated word twice at its position:
// as itself and with the suffix "~".
const synAnalyzer = "pairtest-synonyms"

func init() {
	analysis.Register(synAnalyzer, 1, func(analysis.Spec) (analysis.Analyzer, error) { return synonyms{}, nil })
}

type synonyms struct{}

func (synonyms) Analyze(text string, emit func(term []byte, pos uint32)) (uint32, uint32) {
	words := strings.Fields(text)
	for i, w := range words {
		emit([]byte(w), uint32(i))
		emit([]byte(w+"~"), uint32(i))
	}
	return uint32(len(words)), 0
}
