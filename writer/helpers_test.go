package writer_test

import (
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/snii-go/snii/analysis"
	"github.com/snii-go/snii/internal/codec/format"
	"github.com/snii-go/snii/internal/testkit"
	"github.com/snii-go/snii/internal/testkit/segtest"
	"github.com/snii-go/snii/writer"
)

// build writes docs into dir/name with o and returns the path and the stats.
func build(t testing.TB, dir, name string, o writer.Options, docs []writer.Document) (string, writer.Stats) {
	t.Helper()
	path := filepath.Join(dir, name)
	return path, segtest.Build(t, path, o, docs)
}

// oracle computes the expected postings of every field by analyzing the
// documents directly: field → term → postings.
func oracle(t testing.TB, o writer.Options, docs []writer.Document) (map[string]map[string][]posting, map[string]uint64) {
	t.Helper()
	out := make(map[string]map[string][]posting)
	with := make(map[string]uint64)
	ans := make(map[string]analysis.Analyzer)
	for _, f := range o.Fields {
		an, err := analysis.New(f.Analyzer)
		if err != nil {
			t.Fatal(err)
		}
		ans[f.Name] = an
		out[f.Name] = make(map[string][]posting)
	}
	for id, d := range docs {
		pos := make(map[string]map[string][]uint32)
		next := make(map[string]uint64)
		seen := make(map[string]bool)
		for _, f := range d.Fields {
			for _, v := range f.Values {
				if seen[f.Name] {
					next[f.Name] += analysis.ValueGap
				}
				seen[f.Name] = true
				base := next[f.Name]
				n, _ := ans[f.Name].Analyze(v, func(term []byte, p uint32) {
					if pos[f.Name] == nil {
						pos[f.Name] = make(map[string][]uint32)
					}
					pos[f.Name][string(term)] = append(pos[f.Name][string(term)], uint32(base)+p)
				})
				next[f.Name] += uint64(n)
			}
		}
		for field, terms := range pos {
			with[field]++
			for term, ps := range terms {
				out[field][term] = append(out[field][term], posting{Doc: uint32(id), Pos: ps})
			}
		}
	}
	return out, with
}

// checkAgainstOracle decodes the segment at path and compares every field
// with the oracle, its stats and its recounted codec outcome.
func checkAgainstOracle(t *testing.T, path string, o writer.Options, docs []writer.Document) *segDump {
	t.Helper()
	seg := dumpFile(t, path)
	want, with := oracle(t, o, docs)
	if seg.DocCount != uint64(len(docs)) {
		t.Errorf("doc count %d, want %d", seg.DocCount, len(docs))
	}
	if len(seg.Indexes) != len(o.Fields) {
		t.Fatalf("%d indexes, want %d", len(seg.Indexes), len(o.Fields))
	}
	for _, f := range o.Fields {
		d := seg.index(t, f.Name)
		comparePostings(t, f.Name, want[f.Name], d.postings())
		if d.Meta.DocsWithField != with[f.Name] {
			t.Errorf("index %q: docs with field %d, want %d", f.Name, d.Meta.DocsWithField, with[f.Name])
		}
		an := f.Analyzer
		if an == "" {
			an = analysis.Standard
		}
		if d.Meta.Analyzer != an {
			t.Errorf("index %q: analyzer %q, want %q", f.Name, d.Meta.Analyzer, an)
		}
		checkClasses(t, d)
		recount(t, d)
		checkNorms(t, f, d, want[f.Name], len(docs))
	}
	return seg
}

// comparePostings reports the terms whose postings differ (cmp.Diff is
// only used on those: it is far too slow for a whole index).
func comparePostings(t *testing.T, name string, want, got map[string][]posting) {
	t.Helper()
	bad := 0
	for term, w := range want {
		if g, ok := got[term]; !ok || !equalPostings(w, g) {
			if bad++; bad <= 5 {
				t.Errorf("index %q term %q: postings differ (-want +got):\n%.2000s", name, term, cmp.Diff(w, g))
			}
		}
	}
	for term := range got {
		if _, ok := want[term]; !ok {
			if bad++; bad <= 5 {
				t.Errorf("index %q: unexpected term %q", name, term)
			}
		}
	}
	if bad > 5 {
		t.Errorf("index %q: %d terms differ in all", name, bad)
	}
}

// checkClasses checks each term's class and window sizes against the rules.
func checkClasses(t *testing.T, d *fieldDump) {
	t.Helper()
	lim := d.Meta.Limits
	for _, td := range d.Terms {
		e := &td.Entry
		switch e.Class {
		case format.ClassInline:
			if e.DF >= format.SlimMaxDF || len(e.Docs)+len(e.Frame) > format.InlineMax {
				t.Errorf("term %q: inline with df %d, %d bytes", td.Term, e.DF, len(e.Docs)+len(e.Frame))
			}
		case format.ClassSlim:
			if e.DF >= format.SlimMaxDF {
				t.Errorf("term %q: slim with df %d", td.Term, e.DF)
			}
			fr := td.Frames[0]
			// A window of several units has no inline form: it is slim whatever its size.
			if inl := fr.stored - 4; len(fr.units) == 1 && docWindowLen(td, false)+inl <= format.InlineMax {
				t.Errorf("term %q: slim but fits inline (%d + %d bytes)", td.Term, docWindowLen(td, false), inl)
			}
		case format.ClassWindowed:
			size := uint32(format.WindowDocs)
			if e.DF >= format.LargeDF {
				size = format.WindowDocsLarge
			}
			if e.DF < format.SlimMaxDF {
				size = uint32(e.DF)
				if len(td.Windows) < 2 {
					t.Errorf("term %q: windowed with df %d and %d window(s)", td.Term, e.DF, len(td.Windows))
				}
			}
			for i, w := range td.Windows {
				p := len(td.Frames[i].window.Positions)
				if w.Docs > size || int(w.Docs) > lim.MaxDocs || p > lim.MaxPositions || td.Frames[i].plainLen > lim.MaxBytes {
					t.Errorf("term %q window %d: %d docs, %d positions (size %d, limits %+v)", td.Term, i, w.Docs, p, size, lim)
				}
			}
		}
	}
}

func docWindowLen(td termDump, withCRC bool) int {
	docs := make([]uint32, len(td.Postings))
	for i, p := range td.Postings {
		docs[i] = p.Doc
	}
	return len(format.AppendDocWindow(nil, docs, 0, withCRC))
}

// genDocs generates n log-like documents (testkit.GenLogs with its
// defaults): a Zipf vocabulary (so a few terms are in almost every document
// and many in one), numbers, hex ids, a second field with a handful of hosts,
// and a field present in some documents only.
func genDocs(seed uint64, n int) []writer.Document {
	gen := testkit.GenLogs(seed, n, testkit.LogOptions{})
	docs := make([]writer.Document, len(gen))
	for i, d := range gen {
		docs[i] = segtest.Document(d)
	}
	return docs
}

func genOptions() writer.Options {
	o := writer.DefaultOptions("text", "title")
	o.Fields = append(o.Fields, writer.FieldOptions{Name: "host", Analyzer: analysis.Keyword})
	o.Pairs = writer.Pairs{Percent: 30, MinDF: 3} // many pairs: every build path must reproduce them
	return o
}

// checkNorms compares a field's norms with the lengths the oracle's
// postings give (a document's length is its positions over all terms).
func checkNorms(t *testing.T, f writer.FieldOptions, d *fieldDump, want map[string][]posting, docs int) {
	t.Helper()
	if !writer.StoresNorms(f) {
		if d.Meta.HasNorms || d.Norms != nil {
			t.Errorf("index %q: norms stored, want none", f.Name)
		}
		return
	}
	lengths := make([]uint64, docs)
	for _, ps := range want {
		for _, p := range ps {
			lengths[p.Doc] += uint64(len(p.Pos))
		}
	}
	if len(d.Norms) != docs {
		t.Fatalf("index %q: %d norms for %d docs", f.Name, len(d.Norms), docs)
	}
	bad := 0
	for doc, l := range lengths {
		if got, w := d.Norms[doc], format.EncodeNorm(l); got != w {
			if bad++; bad <= 5 {
				t.Errorf("index %q doc %d: norm %d, want %d (length %d)", f.Name, doc, got, w, l)
			}
		}
	}
}
