package testkit

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/snii-go/snii/internal/testkit/oracle"
)

func TestGenLogs(t *testing.T) {
	a := GenLogs(1, 3000, LogOptions{})
	if !reflect.DeepEqual(a, GenLogs(1, 3000, LogOptions{})) {
		t.Fatal("same seed, different documents")
	}
	if reflect.DeepEqual(a, GenLogs(2, 3000, LogOptions{})) {
		t.Fatal("different seeds, same documents")
	}
	count := func(docs []oracle.Doc, name string) int {
		n := 0
		for _, d := range docs {
			for _, f := range d {
				if f.Name == name {
					n++
				}
			}
		}
		return n
	}
	if n := count(a, "host"); n != len(a) {
		t.Errorf("%d of %d docs have a host, want all (HostMissingOneIn 0)", n, len(a))
	}
	if n := count(a, "title"); n < len(a)/4 || n > len(a)*5/12 {
		t.Errorf("%d of %d docs have a title, want about a third", n, len(a))
	}
	if !strings.HasPrefix(a[0][0].Values[0], "2026-11-30T07:") {
		t.Errorf("default header: %q", a[0][0].Values[0])
	}
	b := GenLogs(1, 3000, LogOptions{HostMissingOneIn: 10, Header: "ts %02d:%02d level %s ", Fields: []string{"text", "host"}})
	if n := count(b, "host"); n < len(b)*85/100 || n > len(b)*95/100 {
		t.Errorf("%d of %d docs have a host, want about 9 in 10", n, len(b))
	}
	if n := count(b, "title"); n != 0 {
		t.Errorf("%d titles generated, want none", n)
	}
	if !strings.HasPrefix(b[0][0].Values[0], "ts ") {
		t.Errorf("header option ignored: %q", b[0][0].Values[0])
	}
}

func TestGenLogsZipf(t *testing.T) {
	df := map[string]int{}
	docs := GenLogs(3, 2000, LogOptions{Fields: []string{"text"}})
	for _, d := range docs {
		seen := map[string]bool{}
		for _, w := range strings.Fields(d[0].Values[0]) {
			if !seen[w] {
				seen[w] = true
				df[w]++
			}
		}
	}
	ones, most := 0, 0
	for _, n := range df {
		if n == 1 {
			ones++
		}
		most = max(most, n)
	}
	if most < len(docs)/2 || ones < len(df)/3 {
		t.Errorf("not Zipf-like: largest df %d of %d docs, %d of %d terms in one doc", most, len(docs), ones, len(df))
	}
}

func TestLines(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("x", 3<<20) // longer than the initial buffer
	p1, p2 := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	if err := os.WriteFile(p1, []byte("one\n\n"+long+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p2, []byte("two\r\nthree"), 0o644); err != nil {
		t.Fatal(err)
	}
	var got []string
	EachLine(t, []string{p1, p2}, func(line []byte) { got = append(got, string(line)) })
	if want := []string{"one", "", long, "two", "three"}; !slices.Equal(got, want) {
		t.Errorf("EachLine: %d lines, want %d", len(got), len(want))
	}
	stop := errors.New("stop")
	n := 0
	err := ScanLines(p1, func([]byte) error {
		n++
		return stop
	})
	if err != stop || n != 1 {
		t.Errorf("ScanLines = %v after %d lines, want stop after 1", err, n)
	}
	if err := ScanLines(filepath.Join(dir, "missing"), func([]byte) error { return nil }); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("ScanLines of a missing file: %v", err)
	}
}

func TestAgentContent(t *testing.T) {
	if s, err := AgentContent([]byte(`{"role":"user","content":"ls -la"}`)); s != "ls -la" || err != nil {
		t.Errorf("AgentContent = %q, %v", s, err)
	}
	if s, err := AgentContent([]byte(`{"role":"user"}`)); s != "" || err != nil {
		t.Errorf("no content: %q, %v", s, err)
	}
	for _, bad := range []string{`{"content":`, `{"content":7}`, `not json`} {
		if s, err := AgentContent([]byte(bad)); s != "" || err == nil {
			t.Errorf("AgentContent(%s) = %q, %v; want an error", bad, s, err)
		}
	}
}

func TestListFiles(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"b/x.log", "b/LICENSE", "b/README.md", "b/c/y.log", "a.log", "LICENSE.txt"} {
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := listFiles([]string{filepath.Join(dir, "b"), filepath.Join(dir, "a.log")})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(dir, "a.log"), filepath.Join(dir, "b/c/y.log"), filepath.Join(dir, "b/x.log")}
	if !slices.Equal(got, want) {
		t.Errorf("listFiles = %v, want %v", got, want)
	}
	if _, err := listFiles([]string{filepath.Join(dir, "missing")}); err == nil {
		t.Error("listFiles of a missing root: no error")
	}
}

// TestCorporaAbsent checks the skip path: outside the module no corpora are
// found and the helpers skip rather than fail.
func TestCorporaAbsent(t *testing.T) {
	t.Chdir(t.TempDir())
	if dir, err := FindCorpora(); err == nil {
		t.Fatalf("FindCorpora outside the module = %s, want an error", dir)
	}
	for name, fn := range map[string]func(testing.TB){
		"CorporaDir":    func(tb testing.TB) { CorporaDir(tb) },
		"CorpusPath":    func(tb testing.TB) { CorpusPath(tb, AgentLogs) },
		"CorpusFiles":   func(tb testing.TB) { CorpusFiles(tb, ServiceLogs...) },
		"Loghub2kFiles": func(tb testing.TB) { Loghub2kFiles(tb) },
	} {
		skipped, reached := false, false
		t.Run(name, func(st *testing.T) {
			st.Cleanup(func() { skipped = st.Skipped() })
			fn(st)
			reached = true
		})
		if !skipped || reached {
			t.Errorf("%s without corpora: skipped %v, returned %v; want a skip", name, skipped, reached)
		}
	}
}

// TestCorporaPresent checks the corpora found from the module, when present.
func TestCorporaPresent(t *testing.T) {
	dir, err := FindCorpora()
	if err != nil {
		t.Skipf("%v: skipping", err)
	}
	if filepath.Base(dir) != "corpora" || filepath.Base(filepath.Dir(dir)) != "shared" {
		t.Errorf("FindCorpora = %s, want …/shared/corpora", dir)
	}
	if files := Loghub2kFiles(t); len(files) != 16 || !slices.IsSorted(files) {
		t.Errorf("loghub/2k: %d files (sorted %v), want 16 sorted", len(files), slices.IsSorted(files))
	}
	for _, f := range CorpusFiles(t, ServiceLogs...) {
		if b := filepath.Base(f); strings.HasPrefix(b, "LICENSE") || strings.HasPrefix(b, "README") {
			t.Errorf("CorpusFiles lists %s", f)
		}
	}
}

// TestFindCorpora walks up from a package directory of a made-up module:
// first without the corpora next to it, then with them.
func TestFindCorpora(t *testing.T) {
	root := t.TempDir()
	pkg := filepath.Join(root, "mod", "a", "b")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "mod", "go.mod"), []byte("module m\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(pkg)
	if _, err := FindCorpora(); err == nil || !strings.Contains(err.Error(), "../shared/corpora") {
		t.Errorf("FindCorpora without corpora: %v, want an error naming ../shared/corpora", err)
	}
	want := filepath.Join(root, "shared", "corpora")
	if err := os.MkdirAll(want, 0o755); err != nil {
		t.Fatal(err)
	}
	got, err := FindCorpora()
	if err != nil {
		t.Fatal(err)
	}
	if gi, err1 := os.Stat(got); err1 != nil || !os.SameFile(gi, mustStat(t, want)) {
		t.Errorf("FindCorpora = %s, want %s", got, want)
	}
}

func mustStat(t *testing.T, p string) os.FileInfo {
	t.Helper()
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return fi
}

func TestFiles(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"b.snii", "a.snii", "c.tmp"} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(n), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got := ListDir(t, dir); !slices.Equal(got, []string{"a.snii", "b.snii", "c.tmp"}) {
		t.Errorf("ListDir = %v", got)
	}
	if got := ReadFile(t, filepath.Join(dir, "b.snii")); string(got) != "b.snii" {
		t.Errorf("ReadFile = %q", got)
	}
}
