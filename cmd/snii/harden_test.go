package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 16, item 8: messages and exit codes.

func TestQueryDirectory(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{{"query", dir, "x"}, {"inspect", dir}, {"verify", dir}} {
		r := fails(t, exitFailure, "", args, dir, "is a directory") // like a missing file
		if strings.Contains(r.stderr, "mmap") || strings.Contains(r.stderr, "no such device") {
			t.Errorf("snii %s: %s", args[0], r.stderr)
		}
	}
}

func TestGzipMessages(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "x.snii")
	// A .gz name without gzip bytes is refused, not indexed as text.
	plain := filepath.Join(dir, "plain.log.gz")
	os.WriteFile(plain, []byte("hello world\n"), 0o644)
	fails(t, exitFailure, "", []string{"build", "-o", out, plain}, "plain.log.gz", "not a gzip file")
	// A truncated gzip says so, with the file name.
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	for i := 0; i < 2000; i++ {
		io.WriteString(zw, "the quick brown fox jumps over the lazy dog\n")
	}
	zw.Close()
	trunc := filepath.Join(dir, "trunc.log.gz")
	os.WriteFile(trunc, buf.Bytes()[:buf.Len()/2], 0o644)
	fails(t, exitFailure, "", []string{"build", "-o", out, trunc}, "trunc.log.gz", "truncated")
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a failed build left %s", out)
	}
}

// removingReader removes a directory before its first read.
type removingReader struct {
	r    io.Reader
	dir  string
	done bool
}

func (r *removingReader) Read(p []byte) (int, error) {
	if !r.done {
		r.done = true
		os.RemoveAll(r.dir)
	}
	return r.r.Read(p)
}

// A failure to write the spilled runs does not name an input line.
func TestTempDirErrorNamesNoLine(t *testing.T) {
	dir := t.TempDir()
	tmp := filepath.Join(dir, "tmp")
	os.Mkdir(tmp, 0o755)
	in := strings.Repeat("alpha beta gamma delta\n", 200)
	var stdout, stderr bytes.Buffer
	e := &env{stdout: &stdout, stderr: &stderr, stdin: &removingReader{r: strings.NewReader(in), dir: tmp}}
	code := execute(context.Background(), newRootCmdEnv(e), []string{"build", "-q", "-o", filepath.Join(dir, "x.snii"), "--memory", "1KiB", "--temp-dir", tmp, "-"}, &stderr)
	if code != exitFailure || !strings.Contains(stderr.String(), tmp) {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if strings.Contains(stderr.String(), "<stdin>:") {
		t.Errorf("the message names an input line: %s", stderr.String())
	}
}

func TestMergeExitCodes(t *testing.T) {
	dir := t.TempDir()
	seg := buildDemo(t, dir)
	other := filepath.Join(dir, "b.snii")
	ok(t, "build", "-q", "-o", other, demoFile("app.log"))
	out := filepath.Join(dir, "m.snii")
	ids := filepath.Join(dir, "ids.txt")
	os.WriteFile(ids, []byte("999999\n"), 0o644)
	fails(t, exitUsage, "", []string{"merge", "-o", out, seg, seg}, "same file")
	fails(t, exitUsage, "", []string{"merge", "-o", out, seg, other, "--deleted", seg + "=" + ids}, "out of range")
	fails(t, exitUsage, "", []string{"merge", "-o", seg, seg, other}, "is also a source")
	// A file that cannot be read stays a failure.
	fails(t, exitFailure, "", []string{"merge", "-o", out, seg, filepath.Join(dir, "missing.snii")}, "missing.snii")
}

func TestInspectJSONInvalidUTF8(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "bytes.log")
	os.WriteFile(in, []byte("a\xffb\na\xfeb\na\xfeb\n"), 0o644)
	seg := filepath.Join(dir, "b.snii")
	ok(t, "build", "-q", "-o", seg, "--analyzer", "keyword", in)
	r := ok(t, "inspect", seg, "--json", "--top", "5")
	var rep struct {
		Indexes []struct {
			TopTerms []struct {
				Term       string `json:"term"`
				DF         uint64 `json:"df"`
				TermBase64 string `json:"term_base64"`
			} `json:"top_terms"`
		} `json:"indexes"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatal(err)
	}
	got := map[string]uint64{}
	for _, tt := range rep.Indexes[0].TopTerms {
		b, err := base64.StdEncoding.DecodeString(tt.TermBase64)
		if err != nil || tt.TermBase64 == "" {
			t.Fatalf("term %q: term_base64 %q: %v", tt.Term, tt.TermBase64, err)
		}
		got[string(b)] = tt.DF
	}
	if len(got) != 2 || got["a\xffb"] != 1 || got["a\xfeb"] != 2 {
		t.Errorf("terms by their exact bytes: %v", got)
	}
	// Valid UTF-8 terms get no term_base64.
	r = ok(t, "inspect", buildDemo(t, dir), "--json", "--top", "3")
	if strings.Contains(r.stdout, "term_base64") {
		t.Errorf("term_base64 on valid terms:\n%s", r.stdout)
	}
}

// Issue 16 item 6: a --field that matches nothing.
func TestFieldMatchesNothing(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "e.jsonl")
	os.WriteFile(in, []byte("{\"msg\":\"hello world\"}\n{\"msg\":\"bye\"}\n"), 0o644)
	out := filepath.Join(dir, "x.snii")
	fails(t, exitFailure, "", []string{"build", "-q", "-o", out, "--field", "mgs", in},
		"warning: --field mgs matched no value in 2 documents", "no --field matched any value", "--allow-empty")
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a failed build left %s", out)
	}
	r := cli(t, "", "build", "-q", "-o", out, "--field", "mgs", "--allow-empty", in)
	if r.code != 0 || !strings.Contains(r.stderr, "warning: --field mgs matched no value") {
		t.Errorf("--allow-empty: exit %d, stderr %q", r.code, r.stderr)
	}
	r = cli(t, "", "build", "-q", "-o", out, "--field", "msg,user.name", in)
	if r.code != 0 || !strings.Contains(r.stderr, "warning: --field user.name matched no value") || strings.Contains(r.stderr, "--field msg ") {
		t.Errorf("one field without values: exit %d, stderr %q", r.code, r.stderr)
	}
}
