package merge_test

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/snii-go/snii/analysis"
	"github.com/snii-go/snii/internal/seam"
	"github.com/snii-go/snii/internal/testkit"
	"github.com/snii-go/snii/internal/testkit/segtest"
	"github.com/snii-go/snii/reader"
	"github.com/snii-go/snii/writer"
	"github.com/snii-go/snii/writer/merge"
)

// build writes docs into dir/name with o and returns the path.
func build(t testing.TB, dir, name string, o writer.Options, docs []writer.Document) string {
	t.Helper()
	path := filepath.Join(dir, name)
	segtest.Build(t, path, o, docs)
	return path
}

// sameSegment fails unless the files at got and want are byte-identical; on
// a difference it reports which fields differ and how (from their metadata).
func sameSegment(t testing.TB, what, got, want string) {
	t.Helper()
	g, w := testkit.ReadFile(t, got), testkit.ReadFile(t, want)
	if bytes.Equal(g, w) {
		return
	}
	t.Errorf("%s: %s (%d bytes) differs from %s (%d bytes)", what, filepath.Base(got), len(g), filepath.Base(want), len(w))
	sg, err1 := reader.Open(got, reader.Options{})
	sw, err2 := reader.Open(want, reader.Options{})
	if err1 != nil || err2 != nil {
		t.Errorf("open: %v, %v", err1, err2)
		return
	}
	defer sg.Close()
	defer sw.Close()
	if sg.DocCount() != sw.DocCount() {
		t.Errorf("  doc count %d, want %d", sg.DocCount(), sw.DocCount())
	}
	if !slices.Equal(sg.Fields(), sw.Fields()) {
		t.Errorf("  fields %v, want %v", sg.Fields(), sw.Fields())
		return
	}
	for _, f := range sw.Fields() {
		mg, _ := seam.IndexMeta(sg, f)
		mw, _ := seam.IndexMeta(sw, f)
		mg.Blocks, mw.Blocks, mg.FirstTerms, mw.FirstTerms = nil, nil, nil, nil
		if fmt.Sprintf("%+v", mg) != fmt.Sprintf("%+v", mw) {
			t.Errorf("  index %q:\n   got  %+v\n   want %+v", f, mg, mw)
		}
	}
}

// checkDir fails unless dir holds exactly the names in keep.
func checkDir(t testing.TB, what, dir string, keep ...string) {
	t.Helper()
	slices.Sort(keep)
	if names := testkit.ListDir(t, dir); !slices.Equal(names, keep) {
		t.Errorf("%s: files in %s: %v, want %v", what, filepath.Base(dir), names, keep)
	}
}

// paths returns sources for segment files.
func paths(ps ...string) []merge.Source {
	srcs := make([]merge.Source, len(ps))
	for i, p := range ps {
		srcs[i].Path = p
	}
	return srcs
}

// doMerge merges srcs into dir/name and returns the path.
func doMerge(t testing.TB, dir, name string, srcs []merge.Source, o merge.Options) (string, merge.Stats) {
	t.Helper()
	path := filepath.Join(dir, name)
	st, err := merge.Merge(context.Background(), path, srcs, o)
	if err != nil {
		t.Fatalf("Merge into %s: %v", name, err)
	}
	return path, st
}

// genLogs is this package's parameter set for testkit.GenLogs: a 3000-word
// Zipf vocabulary, a level in every document (a term with df >= 8192 once n
// is large enough) and a host in nine documents out of ten.
var genLogs = testkit.LogOptions{
	Vocab:            3000,
	Exponent:         1.15,
	Levels:           []string{"INFO", "WARN", "ERROR"},
	Header:           "ts %02d:%02d level %s ",
	MinWords:         2,
	WordSpread:       30,
	HostMissingOneIn: 10,
}

// genDocs generates n log-like documents: a Zipf vocabulary (a few terms in
// almost every document, many in one), ids and numbers (inline terms), a
// level in every document, a keyword "host" field, and a multi-value "title"
// field in a third of the documents. Fields absent from fields are left out.
func genDocs(seed uint64, n int, fields ...string) []writer.Document {
	o := genLogs
	o.Fields = fields
	gen := testkit.GenLogs(seed, n, o)
	docs := make([]writer.Document, len(gen))
	for i, d := range gen {
		docs[i] = segtest.Document(d)
	}
	return docs
}

// genOptions declares text and title (standard) and host (keyword).
func genOptions(fields ...string) writer.Options {
	if len(fields) == 0 {
		fields = []string{"text", "title", "host"}
	}
	var o writer.Options
	for _, f := range fields {
		an := analysis.Standard
		if f == "host" {
			an = analysis.Keyword
		}
		o.Fields = append(o.Fields, writer.FieldOptions{Name: f, Analyzer: an})
	}
	d := writer.DefaultOptions()
	o.Policy = d.Policy
	o.Pairs = writer.Pairs{Percent: 30, MinDF: 3} // many pairs: a merge must recount exactly the build's
	return o
}

// surviving returns the docs of parts (concatenated) not in the parts'
// delete sets.
func surviving(parts [][]writer.Document, dels []*roaring.Bitmap) []writer.Document {
	var out []writer.Document
	for k, p := range parts {
		for i, d := range p {
			if k < len(dels) && dels[k] != nil && dels[k].Contains(uint32(i)) {
				continue
			}
			out = append(out, d)
		}
	}
	return out
}

// randomDeletes returns a bitmap of about frac·n random ids below n.
func randomDeletes(seed uint64, n int, frac float64) *roaring.Bitmap {
	r := rand.New(rand.NewPCG(seed, 7))
	bm := roaring.New()
	for i := 0; i < n; i++ {
		if r.Float64() < frac {
			bm.Add(uint32(i))
		}
	}
	return bm
}

// docsOf returns the docs of term in field of the segment at path.
func docsOf(t testing.TB, path, field, term string) []uint32 {
	t.Helper()
	seg, err := reader.Open(path, reader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer seg.Close()
	p, err := seg.Postings(t.Context(), field, term)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	var docs []uint32
	for p.Next() {
		docs = append(docs, p.Doc())
	}
	if err := p.Err(); err != nil {
		t.Fatal(err)
	}
	return docs
}

// loghubDocs returns the lines of the loghub 2k samples, one doc each.
func loghubDocs(t testing.TB) []writer.Document {
	var docs []writer.Document
	testkit.EachLine(t, testkit.Loghub2kFiles(t), func(line []byte) { docs = append(docs, writer.Doc("text", string(line))) })
	return docs
}

// agentDocs returns the "content" of each agent-log line as a document,
// leaving out the lines that are not JSON.
func agentDocs(t testing.TB) (docs []writer.Document, bytesIn int64) {
	file := testkit.CorpusPath(t, testkit.AgentLogs)
	testkit.EachLine(t, []string{file}, func(line []byte) {
		s, err := testkit.AgentContent(line)
		if err != nil {
			return
		}
		docs = append(docs, writer.Doc("content", s))
		bytesIn += int64(len(s))
	})
	return docs, bytesIn
}
