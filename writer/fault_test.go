package writer_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/snii-go/snii/internal/errs"
	"github.com/snii-go/snii/internal/testkit"
	"github.com/snii-go/snii/reader"
	"github.com/snii-go/snii/writer"
)

// buildWithFaults runs a build with injected faults and returns the first
// error from Add or Close.
func buildWithFaults(t *testing.T, path string, o writer.Options, fl *writer.Faults, docs []writer.Document) error {
	t.Helper()
	w, err := writer.Create(context.Background(), path, writer.WithFaults(o, fl))
	if err != nil {
		return err
	}
	for _, d := range docs {
		if _, err := w.Add(d); err != nil {
			if cerr := w.Close(); cerr == nil {
				t.Fatal("Close succeeded after a failed Add")
			}
			return err
		}
	}
	return w.Close()
}

// checkNothingLeft fails when anything but keep is in dir or tempDir.
func checkNothingLeft(t *testing.T, what string, dir, tempDir string, keep ...string) {
	t.Helper()
	names := testkit.ListDir(t, dir)
	if len(names) != len(keep) {
		t.Errorf("%s: files in the destination directory: %v (want %v)", what, names, keep)
	}
	if names := testkit.ListDir(t, tempDir); len(names) != 0 {
		t.Errorf("%s: files in the temp dir: %v", what, names)
	}
}

// TestFaultInjection fails the build's writes (segment, runs, spools) after
// N bytes, for N across the whole build: every failure must surface as an
// error and leave nothing at the destination and no temp files.
func TestFaultInjection(t *testing.T) {
	docs := genDocs(5, 300)
	o := genOptions()
	o.MemoryLimit = 24 << 10 // several spills: run-file writes are part of the build
	dir, tempDir := t.TempDir(), t.TempDir()
	o.TempDir = tempDir
	path := filepath.Join(dir, "seg.snii")
	const spool = 100 // dict regions and doc spans go through spool files too

	probe := &writer.Faults{FailAfter: -1, SpoolLimit: spool}
	if err := buildWithFaults(t, path, o, probe, docs); err != nil {
		t.Fatal(err)
	}
	total := probe.Written()
	want := testkit.ReadFile(t, path)
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if total < int64(len(want)) {
		t.Fatalf("%d bytes written in all, segment is %d", total, len(want))
	}
	offsets := []int64{0, 1, 15, 16, 17, total - 1}
	for i := int64(1); i < 40; i++ {
		offsets = append(offsets, i*total/40, i*total/40+3)
	}
	for _, n := range offsets {
		fl := &writer.Faults{FailAfter: n, SpoolLimit: spool}
		err := buildWithFaults(t, path, o, fl, docs)
		if err == nil || !fl.Fired() {
			t.Errorf("fail after %d of %d bytes: err %v, fired %v", n, total, err, fl.Fired())
		}
		checkNothingLeft(t, "fail after "+itoa(n), dir, tempDir)
	}
	// One past the total never fires: the build succeeds with the same bytes.
	fl := &writer.Faults{FailAfter: total, SpoolLimit: spool}
	if err := buildWithFaults(t, path, o, fl, docs); err != nil || fl.Fired() {
		t.Fatalf("fail after the last byte: %v", err)
	}
	if got := testkit.ReadFile(t, path); string(got) != string(want) {
		t.Error("segment differs from the probe build")
	}
	checkNothingLeft(t, "complete build", dir, tempDir, "seg.snii")
}

func itoa(n int64) string {
	return string(appendInt(nil, n))
}

func appendInt(b []byte, n int64) []byte {
	if n < 0 {
		return appendInt(append(b, '-'), -n)
	}
	if n >= 10 {
		b = appendInt(b, n/10)
	}
	return append(b, byte('0'+n%10))
}

// TestSpoolFiles: spooling the dict regions, doc spans and store blocks to
// temp files (a tiny in-memory limit) changes nothing in the segment.
func TestSpoolFiles(t *testing.T) {
	docs := genDocs(8, 1500)
	dir, tempDir := t.TempDir(), t.TempDir()
	o := genOptions()
	o.TempDir = tempDir
	ref, _ := build(t, dir, "ref.snii", o, docs)
	if seg, err := reader.Open(ref, reader.Options{}); err != nil {
		t.Fatal(err)
	} else if st, ok := seg.Store(); !ok || st.Bytes < 5000 || seg.Close() != nil {
		t.Fatalf("store %+v: want one larger than the spool limits", st)
	}
	for _, limit := range []int{1, 100, 5000} {
		fl := &writer.Faults{FailAfter: -1, SpoolLimit: limit}
		path := filepath.Join(dir, "spooled.snii")
		if err := buildWithFaults(t, path, o, fl, docs); err != nil {
			t.Fatal(err)
		}
		if string(testkit.ReadFile(t, path)) != string(testkit.ReadFile(t, ref)) {
			t.Errorf("spool limit %d: segment differs", limit)
		}
		if fl.Written() <= int64(len(testkit.ReadFile(t, ref))) {
			t.Errorf("spool limit %d: %d bytes written for a %d-byte segment: nothing spooled?", limit, fl.Written(), len(testkit.ReadFile(t, ref)))
		}
		checkNothingLeft(t, "spool", dir, tempDir, "ref.snii", "spooled.snii")
	}
}

func TestFaultSyncRenameCorruptRun(t *testing.T) {
	docs := genDocs(6, 400)
	cases := map[string]*writer.Faults{
		"sync":        {FailAfter: -1, FailSync: true},
		"rename":      {FailAfter: -1, FailRename: true},
		"corrupt run": {FailAfter: -1, CorruptRun: true},
	}
	for name, fl := range cases {
		dir, tempDir := t.TempDir(), t.TempDir()
		o := genOptions()
		o.MemoryLimit = 32 << 10
		o.TempDir = tempDir
		err := buildWithFaults(t, filepath.Join(dir, "seg.snii"), o, fl, docs)
		if err == nil {
			t.Errorf("%s: build succeeded", name)
			continue
		}
		if name == "corrupt run" && !errors.Is(err, errs.Corrupt) {
			t.Errorf("%s: %v, want a corruption error", name, err)
		}
		checkNothingLeft(t, name, dir, tempDir)
	}
}

// TestReplaceExisting: Close replaces a file at the path; a failed build
// leaves the old file as it was.
func TestReplaceExisting(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "seg.snii")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	o := genOptions()
	fl := &writer.Faults{FailAfter: 100}
	if err := buildWithFaults(t, path, o, fl, genDocs(1, 50)); err == nil || !fl.Fired() {
		t.Fatalf("build: %v, fault fired %v", err, fl.Fired())
	}
	if got := testkit.ReadFile(t, path); string(got) != "old" {
		t.Error("a failed build changed the existing file")
	}
	build(t, dir, "seg.snii", o, genDocs(1, 50))
	dumpFile(t, path)
	if names := testkit.ListDir(t, dir); len(names) != 1 {
		t.Errorf("files: %v", names)
	}
}
