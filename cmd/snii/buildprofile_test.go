package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/snii-go/snii/reader"
)

// TestBuildCPUProfile: --cpuprofile writes a gzip-compressed pprof profile
// beside an unchanged build, stays out of the help, and an unwritable
// profile path fails the build before it starts.
func TestBuildCPUProfile(t *testing.T) {
	dir := t.TempDir()
	seg, prof := filepath.Join(dir, "a.snii"), filepath.Join(dir, "cpu.pprof")
	ok(t, "build", "-q", "-o", seg, "--cpuprofile", prof, demoFile("app.log"))
	b, err := os.ReadFile(prof)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		t.Fatalf("profile of %d bytes is not gzip-compressed pprof data", len(b))
	}
	s, err := reader.Open(seg, reader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if h := ok(t, "build", "--help"); strings.Contains(h.stdout, "cpuprofile") {
		t.Error("--cpuprofile is listed in build --help; it is a hidden flag")
	}
	bad := filepath.Join(dir, "no-such-dir", "cpu.pprof")
	fails(t, 1, "", []string{"build", "-q", "-o", filepath.Join(dir, "b.snii"), "--cpuprofile", bad, demoFile("app.log")}, "--cpuprofile")
	if _, err := os.Stat(filepath.Join(dir, "b.snii")); !os.IsNotExist(err) {
		t.Errorf("a build whose profile could not be created left %s (%v)", "b.snii", err)
	}
}
