package writer_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/snii-go/snii/analysis"
	"github.com/snii-go/snii/budget"
	"github.com/snii-go/snii/internal/codec/format"
	"github.com/snii-go/snii/internal/errs"
	"github.com/snii-go/snii/internal/seam"
	"github.com/snii-go/snii/internal/testkit"
	"github.com/snii-go/snii/limits"
	"github.com/snii-go/snii/reader"
	"github.com/snii-go/snii/writer"
)

func TestRoundTripGenerated(t *testing.T) {
	docs := genDocs(1, 3000)
	o := genOptions()
	path, st := build(t, t.TempDir(), "seg.snii", o, docs)
	seg := checkAgainstOracle(t, path, o, docs)
	text := seg.index(t, "text")
	m := &text.Meta
	if m.InlineTerms == 0 || m.SlimTerms == 0 || m.WindowedTerms == 0 {
		t.Errorf("want every class in the text index: inline %d slim %d windowed %d", m.InlineTerms, m.SlimTerms, m.WindowedTerms)
	}
	if m.Outcome.Budget.Eligible == 0 {
		t.Error("no eligible window: the generated corpus does not exercise the budget")
	}
	if st.Docs != 3000 || st.Spills != 0 || st.BytesOut != int64(seg.Size) || st.BytesIn == 0 || st.Positions != countPositions(seg) {
		t.Errorf("stats %+v (segment %d bytes, %d positions)", st, seg.Size, countPositions(seg))
	}
	var terms uint64
	for _, d := range seg.Indexes {
		terms += d.Meta.TermCount
	}
	if st.Terms != terms {
		t.Errorf("stats terms %d, segment has %d", st.Terms, terms)
	}
}

func countPositions(seg *segDump) uint64 {
	var n uint64
	for _, d := range seg.Indexes {
		n += d.Meta.SumTTF
	}
	return n
}

// TestLargeDF covers windows of 1024 docs (df >= 8192) and a term in every document.
func TestLargeDF(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	docs := make([]writer.Document, 9000)
	for i := range docs {
		s := "common line"
		if i%2 == 0 {
			s += " even"
		}
		docs[i] = writer.Doc("text", s)
	}
	o := writer.DefaultOptions("text")
	path, _ := build(t, t.TempDir(), "seg.snii", o, docs)
	seg := checkAgainstOracle(t, path, o, docs)
	for _, td := range seg.index(t, "text").Terms {
		want := 1024
		if td.Term == "even" {
			want = 256
		}
		if td.Entry.Class != format.ClassWindowed || int(td.Windows[0].Docs) != want {
			t.Errorf("term %q: class %v, first window %d docs, want windowed with %d", td.Term, td.Entry.Class, td.Windows[0].Docs, want)
		}
	}
}

func TestEdgeCases(t *testing.T) {
	long := strings.Repeat("a", analysis.DefaultMaxTokenBytes+45)
	docs := []writer.Document{
		{},                                  // no fields at all
		writer.Doc("text", ""),              // an empty value
		writer.Doc("title", "only a title"), // no text field
		writer.Doc("text", "caf\xff\xfeé ok\xc3"),      // invalid UTF-8 separates tokens
		writer.Doc("text", long+" after "+long+" end"), // over-long tokens keep their position
		{Fields: []writer.Field{{Name: "text", Values: []string{"a b", "", "c a"}}, {Name: "title"}}},
		writer.Doc("text", "x", "text", "y"), // a field twice = two values
		writer.Doc("text", "!!! ... ---"),    // only separators
	}
	o := writer.DefaultOptions("text", "title")
	path, st := build(t, t.TempDir(), "seg.snii", o, docs)
	seg := checkAgainstOracle(t, path, o, docs)
	got := seg.index(t, "text").postings()
	check := func(term string, want ...posting) {
		t.Helper()
		if !equalPostings(got[term], want) {
			t.Errorf("term %q: postings %v, want %v", term, got[term], want)
		}
	}
	check("caf", posting{3, []uint32{0}})
	check("é", posting{3, []uint32{1}})
	check("after", posting{4, []uint32{1}})
	check("end", posting{4, []uint32{3}})
	check("a", posting{5, []uint32{0, 2 + 100 + 0 + 100 + 1}})
	check("c", posting{5, []uint32{2 + 100 + 0 + 100}})
	check("y", posting{6, []uint32{1 + 100}})
	if _, ok := got[long]; ok {
		t.Error("an over-long token was indexed")
	}
	if m := seg.index(t, "text").Meta; m.DocsWithField != 4 {
		t.Errorf("text: docs with field %d, want 4", m.DocsWithField)
	}
	if st.Docs != uint64(len(docs)) {
		t.Errorf("stats docs %d", st.Docs)
	}
}

func equalPostings(a, b []posting) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Doc != b[i].Doc || len(a[i].Pos) != len(b[i].Pos) {
			return false
		}
		for j := range a[i].Pos {
			if a[i].Pos[j] != b[i].Pos[j] {
				return false
			}
		}
	}
	return true
}

func TestEmptySegment(t *testing.T) {
	o := writer.DefaultOptions("text", "b")
	path, st := build(t, t.TempDir(), "seg.snii", o, nil)
	seg := checkAgainstOracle(t, path, o, nil)
	if seg.DocCount != 0 || st.Terms != 0 || len(seg.Indexes) != 2 {
		t.Errorf("empty segment: %d docs, %d terms, %d indexes", seg.DocCount, st.Terms, len(seg.Indexes))
	}
}

// TestMillionTokenDocument indexes one document of 1,000,000 tokens among small ones.
func TestMillionTokenDocument(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	var sb strings.Builder
	words := []string{"alpha", "beta", "gamma", "delta", "eps"}
	for i := 0; i < 1_000_000; i++ {
		sb.WriteString(words[i%len(words)])
		if i%1000 == 0 {
			sb.WriteString(" n")
			sb.WriteString(strings.Repeat("x", i%7))
			i++
		}
		sb.WriteByte(' ')
	}
	docs := []writer.Document{writer.Doc("text", "alpha first"), writer.Doc("text", sb.String()), writer.Doc("text", "beta last")}
	o := writer.DefaultOptions("text")
	path, st := build(t, t.TempDir(), "seg.snii", o, docs)
	seg := checkAgainstOracle(t, path, o, docs)
	if st.Positions < 1_000_000 {
		t.Errorf("positions %d", st.Positions)
	}
	for _, td := range seg.index(t, "text").Terms {
		if td.Term == "alpha" && len(td.Postings[1].Pos) != 200_000 {
			t.Errorf("alpha: %d positions in the big document", len(td.Postings[1].Pos))
		}
	}
}

// TestWindowSplit lowers the window limits so that windows must be split.
func TestWindowSplit(t *testing.T) {
	var docs []writer.Document
	for i := 0; i < 700; i++ {
		s := "many"
		if i < 10 {
			s += strings.Repeat(" few", 30)
		}
		if i%100 == 0 {
			s += " rare"
		}
		docs = append(docs, writer.Doc("text", s))
	}
	o := writer.DefaultOptions("text")
	o.Limits = limits.Limits{MaxDocs: 100, MaxPositions: 100}
	path, _ := build(t, t.TempDir(), "seg.snii", o, docs)
	seg := checkAgainstOracle(t, path, o, docs)
	wins := map[string][]uint32{}
	for _, td := range seg.index(t, "text").Terms {
		for _, w := range td.Windows {
			wins[td.Term] = append(wins[td.Term], w.Docs)
		}
		if td.Term == "rare" && td.Entry.Class == format.ClassWindowed {
			t.Errorf("rare: windowed")
		}
	}
	// few: 10 docs × 30 positions = 300 > 100 → 5+5 → (3+2)+(3+2).
	if got := wins["few"]; !equalU32(got, []uint32{3, 2, 3, 2}) {
		t.Errorf("few: windows %v, want [3 2 3 2]", got)
	}
	// many: df 700 → windows of 256, 256, 188; over 100 docs → 64 ×4, 64 ×4, 94 ×2.
	want := []uint32{64, 64, 64, 64, 64, 64, 64, 64, 94, 94}
	if got := wins["many"]; !equalU32(got, want) {
		t.Errorf("many: windows %v, want %v", got, want)
	}
}

// TestWindowSplitBytes splits windows by their plain payload size.
func TestWindowSplitBytes(t *testing.T) {
	var docs []writer.Document
	for i := 0; i < 700; i++ {
		docs = append(docs, writer.Doc("text", "many words here"))
	}
	o := writer.DefaultOptions("text")
	o.Limits = limits.Limits{MaxBytes: 64}
	path, _ := build(t, t.TempDir(), "seg.snii", o, docs)
	seg := checkAgainstOracle(t, path, o, docs) // checks every window's plain size <= 64
	for _, td := range seg.index(t, "text").Terms {
		if len(td.Windows) < 700/32 {
			t.Errorf("term %q: %d windows", td.Term, len(td.Windows))
		}
	}
	o.Limits.MaxBytes = 16
	w, err := writer.Create(context.Background(), t.TempDir()+"/x.snii", o)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Add(writer.Doc("text", strings.Repeat("boom ", 20))); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); !errors.Is(err, errs.Limit) || !strings.Contains(err.Error(), "boom") {
		t.Errorf("single doc over MaxBytes: %v", err)
	}
}

func equalU32(a, b []uint32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestSingleDocOverLimit: one document over a window limit fails the build,
// naming the term, and leaves nothing behind.
func TestSingleDocOverLimit(t *testing.T) {
	dir := t.TempDir()
	o := writer.DefaultOptions("text")
	o.Limits = limits.Limits{MaxPositions: 10}
	w, err := writer.Create(context.Background(), dir+"/seg.snii", o)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"ok fine", strings.Repeat("boom ", 11) + "ok", "ok"} {
		if _, err := w.Add(writer.Doc("text", s)); err != nil {
			t.Fatal(err)
		}
	}
	err = w.Close()
	if !errors.Is(err, errs.Limit) || !strings.Contains(err.Error(), `"boom"`) {
		t.Fatalf("Close: %v, want a limit error naming term \"boom\"", err)
	}
	if names := testkit.ListDir(t, dir); len(names) != 0 {
		t.Errorf("files left: %v", names)
	}
	if _, err := w.Add(writer.Doc("text", "x")); err == nil {
		t.Error("Add after a failed Close succeeded")
	}
}

func TestAPIErrors(t *testing.T) {
	dir := t.TempDir()
	w, err := writer.Create(context.Background(), dir+"/seg.snii", writer.DefaultOptions("text"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Add(writer.Doc("text", "a", "nope", "b")); !errors.Is(err, errs.InvalidArgument) {
		t.Errorf("unknown field: %v", err)
	}
	if id, err := w.Add(writer.Doc("text", "a")); err != nil || id != 0 {
		t.Errorf("Add after a rejected document: id %d, %v (want 0: nothing was added)", id, err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Add(writer.Doc("text", "a")); !errors.Is(err, errs.Closed) {
		t.Errorf("Add after Close: %v", err)
	}
	if err := w.Close(); !errors.Is(err, errs.Closed) {
		t.Errorf("Close after Close: %v", err)
	}
	if err := w.Abort(); err != nil {
		t.Errorf("Abort after Close: %v", err)
	}
	if names := testkit.ListDir(t, dir); len(names) != 1 || names[0] != "seg.snii" {
		t.Errorf("files: %v", names)
	}

	// Abort leaves nothing.
	w, err = writer.Create(context.Background(), dir+"/other.snii", writer.DefaultOptions("text"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Add(writer.Doc("text", "a")); err != nil {
		t.Fatal(err)
	}
	if err := w.Abort(); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Add(writer.Doc("text", "a")); !errors.Is(err, errs.Closed) {
		t.Errorf("Add after Abort: %v", err)
	}
	if names := testkit.ListDir(t, dir); len(names) != 1 {
		t.Errorf("files after Abort: %v", names)
	}
}

func TestOptionsValidation(t *testing.T) {
	dir := t.TempDir()
	bad := map[string]func(*writer.Options){
		"no fields":     func(o *writer.Options) { o.Fields = nil },
		"empty name":    func(o *writer.Options) { o.Fields = append(o.Fields, writer.FieldOptions{}) },
		"duplicate":     func(o *writer.Options) { o.Fields = append(o.Fields, writer.FieldOptions{Name: "text"}) },
		"analyzer":      func(o *writer.Options) { o.Fields[0].Analyzer = "standard;max_token_bytes=0" },
		"policy":        func(o *writer.Options) { o.Policy = budget.Policy{Kind: budget.FixedShare} },
		"budget":        func(o *writer.Options) { o.Policy = budget.Policy{Kind: budget.Budget, Percent: 101} },
		"zstd level":    func(o *writer.Options) { o.ZstdLevel = 5 },
		"memory limit":  func(o *writer.Options) { o.MemoryLimit = -1 },
		"limits raised": func(o *writer.Options) { o.Limits.MaxDocs = limits.DefaultMaxDocs + 1 },
		"temp dir":      func(o *writer.Options) { o.TempDir = dir + "/missing" },
	}
	for name, f := range bad {
		o := writer.DefaultOptions("text")
		f(&o)
		if _, err := writer.Create(context.Background(), dir+"/seg.snii", o); !errors.Is(err, errs.InvalidArgument) || len(errs.Kinds(err)) != 1 {
			t.Errorf("%s: %v, want an invalid-argument error", name, err)
		}
	}
	// An analyzer that is not registered is not found (as for analysis.New and
	// reader.Open), and of that kind only.
	o := writer.DefaultOptions("text")
	o.Fields[0].Analyzer = "klingon"
	if _, err := writer.Create(context.Background(), dir+"/seg.snii", o); !errors.Is(err, errs.NotFound) || len(errs.Kinds(err)) != 1 {
		t.Errorf("unregistered analyzer: %v, want a not-found error", err)
	}
	// A missing output directory is named, not a temp dir the caller never set.
	_, err := writer.Create(context.Background(), dir+"/missing/seg.snii", writer.DefaultOptions("text"))
	if !errors.Is(err, errs.InvalidArgument) || !strings.Contains(err.Error(), "output directory "+dir+"/missing does not exist") ||
		strings.Contains(err.Error(), "temp") {
		t.Errorf("missing output directory: %v", err)
	}
	if names := testkit.ListDir(t, dir); len(names) != 0 {
		t.Errorf("files left: %v", names)
	}
}

func TestDocHelper(t *testing.T) {
	d := writer.Doc("a", "1", "b", "2", "a", "3", "c")
	want := []writer.Field{{Name: "a", Values: []string{"1"}}, {Name: "b", Values: []string{"2"}}, {Name: "a", Values: []string{"3"}}, {Name: "c", Values: []string{""}}}
	if len(d.Fields) != len(want) {
		t.Fatalf("Doc: %+v", d)
	}
	for i := range want {
		if d.Fields[i].Name != want[i].Name || strings.Join(d.Fields[i].Values, ",") != strings.Join(want[i].Values, ",") {
			t.Errorf("field %d: %+v, want %+v", i, d.Fields[i], want[i])
		}
	}
}

// TestDeterminism: the same documents and options give byte-identical
// segments, whatever the order of the fields in the options.
func TestDeterminism(t *testing.T) {
	docs := genDocs(2, 2000)
	dir := t.TempDir()
	o := genOptions()
	a, _ := build(t, dir, "a.snii", o, docs)
	b, _ := build(t, dir, "b.snii", o, docs)
	o2 := genOptions()
	o2.Fields = []writer.FieldOptions{o.Fields[2], o.Fields[0], o.Fields[1]}
	c, _ := build(t, dir, "c.snii", o2, docs)
	ab, bb, cb := testkit.ReadFile(t, a), testkit.ReadFile(t, b), testkit.ReadFile(t, c)
	if !bytes.Equal(ab, bb) {
		t.Error("two builds differ")
	}
	if !bytes.Equal(ab, cb) {
		t.Error("field order in the options changed the bytes")
	}
}

// TestSpillInvariance: a build forced through many spills equals the build
// that never spilled.
func TestSpillInvariance(t *testing.T) {
	docs := genDocs(3, 1500)
	dir := t.TempDir()
	ref, st := build(t, dir, "ref.snii", genOptions(), docs)
	if st.Spills != 0 {
		t.Fatalf("reference build spilled %d times", st.Spills)
	}
	want := testkit.ReadFile(t, ref)
	if seg, err := reader.Open(ref, reader.Options{}); err != nil {
		t.Fatal(err)
	} else {
		if m, _ := seam.IndexMeta(seg, "text"); m.PairCount == 0 {
			t.Error("reference keeps no pair: spilled pair counting would go unchecked")
		}
		if st, ok := seg.Store(); !ok || st.Records != uint64(len(docs)) {
			t.Errorf("reference store %+v %v: the store's bytes would go unchecked", st, ok)
		}
		seg.Close()
	}
	refSmall, _ := build(t, dir, "ref-small.snii", genOptions(), docs[:300])
	wantSmall := testkit.ReadFile(t, refSmall)
	for _, c := range []struct {
		limit     int64
		docs      int
		minSpills int
	}{
		{1, 300, 300},                       // a spill after every document
		{st.PeakBuffered / 2, len(docs), 1}, // a few large runs
		{st.PeakBuffered * 3 / 4, len(docs), 1},
	} {
		o := genOptions()
		o.MemoryLimit = c.limit
		o.TempDir = t.TempDir()
		path, st := build(t, dir, "spilled.snii", o, docs[:c.docs])
		if st.Spills < c.minSpills {
			t.Errorf("limit %d: only %d spills", c.limit, st.Spills)
		}
		w := want
		if c.docs != len(docs) {
			w = wantSmall
		}
		if got := testkit.ReadFile(t, path); !bytes.Equal(got, w) {
			t.Errorf("limit %d (%d spills): segment differs from the unspilled build", c.limit, st.Spills)
		}
		if names := testkit.ListDir(t, o.TempDir); len(names) != 0 {
			t.Errorf("limit %d: temp files left: %v", c.limit, names)
		}
	}

	// One field, many documents per run, dozens of runs.
	text := make([]writer.Document, 8000)
	for i, d := range genDocs(4, len(text)) {
		text[i] = writer.Document{Fields: d.Fields[:1]}
	}
	o := writer.DefaultOptions("text")
	ref, _ = build(t, dir, "ref-text.snii", o, text)
	o.MemoryLimit = 200 << 10
	path, st := build(t, dir, "spilled-text.snii", o, text)
	if st.Spills < 20 || st.Spills > len(text)/20 {
		t.Errorf("text only, limit %d: %d spills (want dozens of multi-document runs)", o.MemoryLimit, st.Spills)
	}
	if !bytes.Equal(testkit.ReadFile(t, path), testkit.ReadFile(t, ref)) {
		t.Errorf("text only: %d spills: segment differs from the unspilled build", st.Spills)
	}
	t.Logf("text only: %d docs, %d spills, run file %d bytes", len(text), st.Spills, st.RunBytes)
}
