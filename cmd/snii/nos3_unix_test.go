//go:build unix && !nos3

package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoS3Build: a -tags nos3 build links neither objstore/s3 nor minio-go;
// it prints a local query's records byte for byte as the full build does,
// fails on an s3:// path with a usage error saying what to do, and hands an
// s3:// command line, whole, to the snii-s3 beside it.
func TestNoS3Build(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; skipped with -short")
	}
	deps, err := exec.Command("go", "list", "-tags", "nos3", "-deps", ".").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range strings.Fields(string(deps)) {
		if strings.Contains(p, "minio-go") || strings.HasSuffix(p, "snii/objstore/s3") {
			t.Errorf("a nos3 build links %s", p)
		}
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "snii")
	if out, err := exec.Command("go", "build", "-tags", "nos3", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build -tags nos3: %v\n%s", err, out)
	}
	seg := filepath.Join(dir, "app.snii")
	ok(t, "build", "-q", "-o", seg, demoFile("app.log"))
	for _, q := range [][]string{{`"connection refused"`}, {`"connection refused"`, "--count"}, {"timeout", "-C", "1"}} {
		args := append([]string{"query", seg}, q...)
		want := ok(t, args...).stdout
		got, err := exec.Command(bin, args...).Output()
		if err != nil || string(got) != want {
			t.Errorf("nos3 snii %s: %v, %d bytes, want the full build's %d", strings.Join(q, " "), err, len(got), len(want))
		}
	}

	cmd := exec.Command(bin, "query", "s3://bucket/app.snii", "timeout")
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != exitUsage || !strings.Contains(string(out), "-tags nos3") {
		t.Errorf("nos3 snii on an s3:// path without %s: %v\n%s", s3Companion, err, out)
	}

	// The companion: a script that prints its arguments and exits 7.
	comp := filepath.Join(dir, s3Companion)
	if err := os.WriteFile(comp, []byte("#!/bin/sh\nprintf '%s\\n' \"$@\"\nexit 7\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	out, err = exec.Command(bin, "query", "--endpoint", "http://127.0.0.1:1", "s3://bucket/app.snii", "a b").Output()
	if !errors.As(err, &ee) || ee.ExitCode() != 7 || string(out) != "query\n--endpoint\nhttp://127.0.0.1:1\ns3://bucket/app.snii\na b\n" {
		t.Errorf("nos3 snii with %s: %v, output %q", s3Companion, err, out)
	}
	// a local command line is not handed over
	if out, err := exec.Command(bin, "query", seg, "timeout", "--count").Output(); err != nil || strings.TrimSpace(string(out)) == "" {
		t.Errorf("nos3 snii with %s, local query: %v, %q", s3Companion, err, out)
	}
}
