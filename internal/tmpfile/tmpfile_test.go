package tmpfile

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
)

func names(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	return out
}

// liveRun returns a new directory and a live run's claim on it: its lock is
// held (flock conflicts between open files even within one process).
func liveRun(t *testing.T) (string, *Owner) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("no flock: Clean removes nothing")
	}
	dir := t.TempDir()
	live, err := Claim(dir)
	if err != nil {
		t.Fatal(err)
	}
	return dir, live
}

func TestCleanKeepsLiveRemovesDead(t *testing.T) {
	dir, live := liveRun(t)
	f, err := live.Create(RunPrefix, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("live"))
	f.Close()
	// A dead run: a lock file nobody holds, and its files.
	dead := "1234567"
	for _, n := range []string{LockPrefix + dead, TmpPrefix + dead + "-1", RunPrefix + dead + "-2", SpoolPrefix + dead + "-3", MergePrefix + dead + "-4"} {
		os.WriteFile(filepath.Join(dir, n), []byte("dead"), 0o600)
	}
	// Not ours to judge: no lock file, an old-style name, a user file.
	keep := []string{RunPrefix + "999-1", TmpPrefix + "12345", "app.snii", ".snii-runner"}
	for _, n := range keep {
		os.WriteFile(filepath.Join(dir, n), nil, 0o600)
	}
	removed, err := Clean(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(removed) != 5 {
		t.Errorf("removed %v, want the 4 files and the lock of the dead run", removed)
	}
	got := names(t, dir)
	for _, n := range append(keep, filepath.Base(f.Name()), LockPrefix+live.id) {
		if !slices.Contains(got, n) {
			t.Errorf("%s was removed", n)
		}
	}
	for _, n := range got {
		if slices.Contains([]string{LockPrefix + dead, TmpPrefix + dead + "-1"}, n) {
			t.Errorf("%s left", n)
		}
	}
	// The live run ends: it removes its files, then its lock file. Nothing
	// is left to clean.
	os.Remove(f.Name())
	if err := live.Release(); err != nil {
		t.Fatal(err)
	}
	if r, _ := Clean(dir); len(r) != 0 {
		t.Errorf("second clean removed %v", r)
	}
}

// TestCleanUploadDirs: the upload directory of a dead run is removed whole
// (its size counted), a live run's stays, and a directory of another name
// stays.
func TestCleanUploadDirs(t *testing.T) {
	dir, live := liveRun(t)
	defer live.Release()
	liveDir, err := live.Mkdir(UploadPrefix)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(liveDir, "seg.snii"), make([]byte, 100), 0o600)
	dead := "7654321"
	deadDir := filepath.Join(dir, UploadPrefix+dead+"-5")
	os.WriteFile(filepath.Join(dir, LockPrefix+dead), nil, 0o600)
	os.MkdirAll(filepath.Join(deadDir, "sub"), 0o700)
	os.WriteFile(filepath.Join(deadDir, "seg.snii"), make([]byte, 1000), 0o600)
	os.WriteFile(filepath.Join(deadDir, "sub", ".snii-run-1-1"), make([]byte, 24), 0o600)
	other := filepath.Join(dir, "snii-upload-"+dead)
	os.Mkdir(other, 0o700)
	removed, err := Clean(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []Removed{{Path: deadDir, Size: 1024}, {Path: filepath.Join(dir, LockPrefix+dead)}}
	if !slices.Equal(removed, want) {
		t.Errorf("removed %v, want %v", removed, want)
	}
	for _, p := range []string{liveDir, other} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s: %v, want kept", p, err)
		}
	}
	if _, err := os.Stat(deadDir); !os.IsNotExist(err) {
		t.Errorf("dead upload directory: %v, want removed", err)
	}
}
