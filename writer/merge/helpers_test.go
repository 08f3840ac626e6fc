package merge_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/snii-go/snii/index"
	"github.com/snii-go/snii/reader"
	"github.com/snii-go/snii/writer"
	"github.com/snii-go/snii/writer/merge"
)

// build writes docs into dir/name with o and returns the path.
func build(t testing.TB, dir, name string, o writer.Options, docs []writer.Document) string {
	t.Helper()
	path := filepath.Join(dir, name)
	w, err := writer.Create(path, o)
	if err != nil {
		t.Fatal(err)
	}
	for i, d := range docs {
		if _, err := w.Add(d); err != nil {
			t.Fatalf("Add doc %d: %v", i, err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	return path
}

func readFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// sameSegment fails unless the files at got and want are byte-identical; on
// a difference it reports which indexes differ and how (from their metadata).
func sameSegment(t testing.TB, what, got, want string) {
	t.Helper()
	g, w := readFile(t, got), readFile(t, want)
	if bytes.Equal(g, w) {
		return
	}
	t.Errorf("%s: %s (%d bytes) differs from %s (%d bytes)", what, filepath.Base(got), len(g), filepath.Base(want), len(w))
	sg, err1 := reader.Open(got)
	sw, err2 := reader.Open(want)
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
		mg, _ := sg.Info(f)
		mw, _ := sw.Info(f)
		mg.Blocks, mw.Blocks, mg.FirstTerms, mw.FirstTerms = nil, nil, nil, nil
		if fmt.Sprintf("%+v", mg) != fmt.Sprintf("%+v", mw) {
			t.Errorf("  index %q:\n   got  %+v\n   want %+v", f, mg, mw)
		}
	}
}

// listDir returns the names in dir, sorted.
func listDir(t testing.TB, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	slices.Sort(names)
	return names
}

// checkDir fails unless dir holds exactly the names in keep.
func checkDir(t testing.TB, what, dir string, keep ...string) {
	t.Helper()
	slices.Sort(keep)
	if names := listDir(t, dir); !slices.Equal(names, keep) {
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
	st, err := merge.Merge(path, srcs, o)
	if err != nil {
		t.Fatalf("Merge into %s: %v", name, err)
	}
	return path, st
}

// genDocs generates n log-like documents: a Zipf vocabulary (a few terms in
// almost every document, many in one), ids and numbers (inline terms), a
// level in every document (a term with df >= 8192 once n is large enough),
// a keyword "host" field, and a multi-value "title" field in a third of the
// documents. Fields absent from fields are left out.
func genDocs(seed uint64, n int, fields ...string) []writer.Document {
	r := rand.New(rand.NewPCG(seed, 42))
	vocab := make([]string, 3000)
	for i := range vocab {
		vocab[i] = fmt.Sprintf("w%x", i*7919%100003)
	}
	zipf := rand.NewZipf(r, 1.15, 1, uint64(len(vocab)-1))
	hosts := []string{"db-1", "db-2", "web-1", "cache-1", "queue-1"}
	levels := []string{"INFO", "WARN", "ERROR"}
	has := func(f string) bool { return len(fields) == 0 || slices.Contains(fields, f) }
	docs := make([]writer.Document, n)
	var sb strings.Builder
	for i := range docs {
		sb.Reset()
		fmt.Fprintf(&sb, "ts %02d:%02d level %s ", r.IntN(60), r.IntN(60), levels[r.IntN(len(levels))])
		words := 2 + r.IntN(30)
		for j := 0; j < words; j++ {
			switch r.IntN(12) {
			case 0:
				fmt.Fprintf(&sb, "id=%016x ", r.Uint64())
			case 1:
				fmt.Fprintf(&sb, "%d ", r.IntN(100000))
			default:
				sb.WriteString(vocab[zipf.Uint64()])
				sb.WriteByte(' ')
			}
		}
		if r.IntN(4) == 0 {
			sb.WriteString("connection reset by peer")
		}
		var d writer.Document
		if has("text") {
			d.Fields = append(d.Fields, writer.Field{Name: "text", Values: []string{sb.String()}})
		}
		if has("host") && r.IntN(10) != 0 {
			d.Fields = append(d.Fields, writer.Field{Name: "host", Values: []string{hosts[r.IntN(len(hosts))]}})
		}
		if has("title") && r.IntN(3) == 0 {
			d.Fields = append(d.Fields, writer.Field{Name: "title", Values: []string{"job " + vocab[r.IntN(50)], "retry " + fmt.Sprint(r.IntN(5))}})
		}
		docs[i] = d
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
		an := index.AnalyzerStandard
		if f == "host" {
			an = index.AnalyzerKeyword
		}
		o.Fields = append(o.Fields, writer.FieldOptions{Name: f, Analyzer: an})
	}
	d := writer.DefaultOptions()
	o.MinSavingPercent, o.BudgetPercent = d.MinSavingPercent, d.BudgetPercent
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
	seg, err := reader.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer seg.Close()
	p, err := seg.Postings(field, term)
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

// corporaDir returns ../shared/corpora (relative to the module root) or skips.
func corporaDir(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skip("module root not found")
		}
		dir = parent
	}
	c := filepath.Join(dir, "..", "shared", "corpora")
	if _, err := os.Stat(c); err != nil {
		t.Skipf("shared corpora not present at ../shared/corpora (%v): skipping", err)
	}
	return c
}

// corpusFile returns a file or directory of the shared corpora or skips.
func corpusFile(t testing.TB, rel string) string {
	t.Helper()
	p := filepath.Join(corporaDir(t), rel)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("corpus %s not present (%v): skipping", rel, err)
	}
	return p
}

// eachLine calls fn with every line of the files.
func eachLine(t testing.TB, files []string, fn func(line []byte)) {
	t.Helper()
	for _, p := range files {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		for sc.Scan() {
			fn(sc.Bytes())
		}
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
}

// loghubDocs returns the lines of the loghub 2k samples, one doc each.
func loghubDocs(t testing.TB) []writer.Document {
	dir := corpusFile(t, "loghub/2k")
	files, err := filepath.Glob(filepath.Join(dir, "*.log"))
	if err != nil || len(files) == 0 {
		t.Skipf("no loghub/2k logs in %s", dir)
	}
	slices.Sort(files)
	var docs []writer.Document
	eachLine(t, files, func(line []byte) { docs = append(docs, writer.Doc("text", string(line))) })
	return docs
}

const agentLogs = "agent-trajectories/mini-swe-agent-gemini-3-pro.part1.jsonl"

// agentDocs returns the "content" of each agent-log line as a document.
func agentDocs(t testing.TB) (docs []writer.Document, bytesIn int64) {
	file := corpusFile(t, agentLogs)
	eachLine(t, []string{file}, func(line []byte) {
		var m struct {
			Content string `json:"content"`
		}
		if json.Unmarshal(line, &m) != nil {
			return
		}
		docs = append(docs, writer.Doc("content", m.Content))
		bytesIn += int64(len(m.Content))
	})
	return docs, bytesIn
}
