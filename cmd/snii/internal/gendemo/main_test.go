package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestCommittedCorpusUpToDate: testdata/demo holds exactly what the generator writes.
func TestCommittedCorpusUpToDate(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "..", "testdata", "demo")
	for name, want := range map[string][]byte{logFileName: Logs(LogLines), evtFileName: Events(EventLines)} {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatalf("%v (run: go generate ./cmd/snii)", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("testdata/demo/%s is stale: run go generate ./cmd/snii", name)
		}
	}
}

func TestDeterministicAndWellFormed(t *testing.T) {
	if !bytes.Equal(Logs(100), Logs(100)) || !bytes.Equal(Events(50), Events(50)) {
		t.Fatal("generator is not deterministic")
	}
	lines := bytes.Split(bytes.TrimSuffix(Events(EventLines), []byte("\n")), []byte("\n"))
	if len(lines) != EventLines {
		t.Fatalf("%d event lines, want %d", len(lines), EventLines)
	}
	for i, l := range lines {
		var v struct {
			Msg  string
			User struct{ Name string }
			Tags []string
		}
		if err := json.Unmarshal(l, &v); err != nil || v.Msg == "" || v.User.Name == "" || len(v.Tags) == 0 {
			t.Fatalf("event %d: %v %+v", i, err, v)
		}
	}
	if n := bytes.Count(Logs(LogLines), []byte("\n")); n != LogLines {
		t.Fatalf("%d log lines, want %d", n, LogLines)
	}
}

func TestCivil(t *testing.T) {
	for _, c := range []struct{ days, y, m, d int64 }{{0, 1970, 1, 1}, {19787, 2024, 3, 5}, {19782, 2024, 2, 29}, {11016, 2000, 2, 29}} {
		if y, m, d := civil(c.days); y != c.y || m != c.m || d != c.d {
			t.Errorf("civil(%d) = %d-%d-%d, want %d-%d-%d", c.days, y, m, d, c.y, c.m, c.d)
		}
	}
}
