package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// snii build --capture captures exactly what snii capture reads back from the
// segment: the same windows in the same order with the same recorded outcome,
// so the two capture files are byte-identical. A failed build leaves no capture.
func TestBuildCaptureEqualsCapture(t *testing.T) {
	dir := t.TempDir()
	for _, all := range []bool{false, true} {
		seg := filepath.Join(dir, "app.snii")
		fromBuild := filepath.Join(dir, "build.cap")
		fromSeg := filepath.Join(dir, "seg.cap")
		args := []string{"build", "-q", "-o", seg, "--capture", fromBuild, eligibleLog(t)}
		capArgs := []string{"capture", "-q", seg, "-o", fromSeg}
		if all {
			args = append(args, "--capture-all")
			capArgs = append(capArgs, "--all")
		}
		ok(t, args...)
		ok(t, capArgs...)
		a, err := os.ReadFile(fromBuild)
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(fromSeg)
		if err != nil {
			t.Fatal(err)
		}
		if len(a) < 1000 || !bytes.Equal(a, b) {
			t.Fatalf("all=%v: build capture (%d bytes) differs from segment capture (%d bytes)", all, len(a), len(b))
		}
		rep := replayJSON(t, fromBuild, "--policies", "budget:8", "--orders", "captured", "--cycles", "0")
		if c := rep.Indexes[0].Check; c == nil || !c.OK {
			t.Fatalf("all=%v: replay of the build capture does not reproduce the segment: %+v", all, c)
		}
	}

	// A failed build (a missing input) leaves no capture and no temp file.
	capPath := filepath.Join(dir, "failed.cap")
	fails(t, 1, "", []string{"build", "-q", "-o", filepath.Join(dir, "x.snii"), "--capture", capPath, filepath.Join(dir, "missing.log")})
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), "failed.cap") {
			t.Fatalf("failed build left %s", e.Name())
		}
	}
	fails(t, 2, "", []string{"build", "-q", "-o", filepath.Join(dir, "y.snii"), "--capture-all", eligibleLog(t)}, "--capture-all needs --capture")
}
