package writer_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/snii-go/snii/writer"
)

// corporaDir is the shared corpora directory, relative to this package.
const corporaDir = "../../shared/corpora"

func corpusPath(t testing.TB, rel string) string {
	t.Helper()
	p := filepath.Join(corporaDir, rel)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("corpus %s not available (%v): the shared corpora are not checked out next to the repository", rel, err)
	}
	return p
}

// corpusFiles lists the regular files under the given corpus paths (files or
// directories), skipping licences and READMEs, in a stable order.
func corpusFiles(t testing.TB, rels ...string) []string {
	t.Helper()
	var files []string
	for _, rel := range rels {
		root := corpusPath(t, rel)
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			base := filepath.Base(p)
			if bytes.HasPrefix([]byte(base), []byte("LICENSE")) || bytes.HasPrefix([]byte(base), []byte("README")) {
				return nil
			}
			files = append(files, p)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	slices.Sort(files)
	return files
}

// eachLine calls fn with every line of the files (without the newline).
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

// lineDocs reads every line of the files as a document with one field.
func lineDocs(t testing.TB, field string, files []string) []writer.Document {
	var docs []writer.Document
	eachLine(t, files, func(line []byte) { docs = append(docs, writer.Doc(field, string(line))) })
	return docs
}

// agentContent extracts the "content" of one agent-log JSON line.
func agentContent(line []byte) string {
	var m struct {
		Content string `json:"content"`
	}
	if json.Unmarshal(line, &m) != nil {
		return ""
	}
	return m.Content
}

const agentLogs = "agent-trajectories/mini-swe-agent-gemini-3-pro.part1.jsonl"

var serviceLogs = []string{"loghub/full", "elastic-examples"}

// TestCorpusLoghub2k builds the 16 loghub samples (32k lines), checks the
// segment against the oracle and the spill invariance on real data.
func TestCorpusLoghub2k(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	docs := lineDocs(t, "text", corpusFiles(t, "loghub/2k"))
	o := writer.DefaultOptions("text")
	dir := t.TempDir()
	path, st := build(t, dir, "loghub.snii", o, docs)
	seg := checkAgainstOracle(t, path, o, docs)
	m := seg.index(t, "text").Meta
	t.Logf("loghub/2k: %d docs, %d bytes in, segment %d bytes, %d terms (%d inline, %d slim, %d windowed), %d positions, outcome %+v",
		st.Docs, st.BytesIn, st.BytesOut, m.TermCount, m.InlineTerms, m.SlimTerms, m.WindowedTerms, m.SumTTF, m.Outcome)
	o.MemoryLimit = 512 << 10
	spilled, st2 := build(t, dir, "spilled.snii", o, docs)
	if st2.Spills < 3 {
		t.Errorf("only %d spills", st2.Spills)
	}
	if !bytes.Equal(readFile(t, path), readFile(t, spilled)) {
		t.Errorf("spilled build (%d spills) differs", st2.Spills)
	}
}
