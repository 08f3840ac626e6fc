package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// demoDir is the demo corpus, relative to this package.
var demoDir = filepath.Join("..", "..", "testdata", "demo")

func demoFile(name string) string { return filepath.Join(demoDir, name) }

// result is what one in-process run of the CLI did.
type result struct {
	code           int
	stdout, stderr string
}

// cli runs the snii command line in-process with the given stdin (may be nil).
func cli(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	return cliEnv(t, false, stdin, args...)
}

// cliEnv is cli with the tty flag (progress bars) forced.
func cliEnv(t *testing.T, tty bool, stdin string, args ...string) result {
	t.Helper()
	var out, errb bytes.Buffer
	e := &env{stdout: &out, stderr: &errb, stdin: strings.NewReader(stdin), tty: tty}
	code := execute(context.Background(), newRootCmdEnv(e, args...), args, &errb)
	return result{code, out.String(), errb.String()}
}

// ok runs the CLI and fails the test unless it exits 0.
func ok(t *testing.T, args ...string) result {
	t.Helper()
	r := cli(t, "", args...)
	if r.code != exitOK {
		t.Fatalf("snii %s: exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
	}
	return r
}

// fails runs the CLI and checks the exit code and that stderr holds every want.
func fails(t *testing.T, code int, stdin string, args []string, want ...string) result {
	t.Helper()
	r := cli(t, stdin, args...)
	if r.code != code {
		t.Errorf("snii %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), r.code, code, r.stdout, r.stderr)
	}
	for _, w := range want {
		if !strings.Contains(r.stderr, w) {
			t.Errorf("snii %s: stderr lacks %q:\n%s", strings.Join(args, " "), w, r.stderr)
		}
	}
	if code != exitOK && !strings.HasPrefix(r.stderr, "snii: ") {
		t.Errorf("snii %s: stderr does not start with \"snii: \":\n%s", strings.Join(args, " "), r.stderr)
	}
	return r
}

// golden compares got with testdata/golden/name (rewritten with -update).
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./cmd/snii -run %s -update)", err, t.Name())
	}
	if d := cmp.Diff(string(want), got); d != "" {
		t.Errorf("%s differs from the golden file (-want +got); if intended, rerun with -update:\n%s", path, d)
	}
}

// eligibleLog writes a generated log whose terms have windows with eligible
// .prx units (several hundred positions each), for the capture and replay tests,
// and returns its path.
func eligibleLog(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	x := uint32(12345)
	for i := 0; i < 3000; i++ {
		for j := 0; j < 60; j++ {
			x = x*1664525 + 1013904223
			fmt.Fprintf(&b, "w%d ", (x>>16)%24)
		}
		fmt.Fprintf(&b, "id%d\n", i)
	}
	p := filepath.Join(t.TempDir(), "eligible.log")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
