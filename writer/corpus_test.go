package writer_test

import (
	"bytes"
	"testing"

	"github.com/snii-go/snii/internal/testkit"
	"github.com/snii-go/snii/writer"
)

// lineDocs reads every line of the files as a document with one field.
func lineDocs(t testing.TB, field string, files []string) []writer.Document {
	var docs []writer.Document
	testkit.EachLine(t, files, func(line []byte) { docs = append(docs, writer.Doc(field, string(line))) })
	return docs
}

// TestCorpusLoghub2k builds the 16 loghub samples (32k lines), checks the
// segment against the oracle and the spill invariance on real data.
func TestCorpusLoghub2k(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	docs := lineDocs(t, "text", testkit.CorpusFiles(t, "loghub/2k"))
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
	if !bytes.Equal(testkit.ReadFile(t, path), testkit.ReadFile(t, spilled)) {
		t.Errorf("spilled build (%d spills) differs", st2.Spills)
	}
}
