//go:build unix

package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Issue 16 items 3 and 4: signals during a build, and what kill -9 leaves.
// These tests build the snii binary and run it as a subprocess.

// sniiBinary builds the command into a temp dir once per test.
func sniiBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary; skipped with -short")
	}
	bin := filepath.Join(t.TempDir(), "snii")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// genLog writes about mb MiB of random log lines (a vocabulary large enough
// that the build spills many runs under a small --memory).
func genLog(t *testing.T, path string, mb int) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	r := rand.New(rand.NewPCG(1, 2))
	const alpha = "abcdefghijklmnopqrstuvwxyz0123456789"
	var word [12]byte
	for n := 0; n < mb<<20; {
		for i := 0; i < 12; i++ {
			l := 3 + r.IntN(7)
			for j := 0; j < l; j++ {
				word[j] = alpha[r.IntN(len(alpha))]
			}
			bw.Write(word[:l])
			bw.WriteByte(' ')
			n += l + 1
		}
		bw.WriteByte('\n')
	}
	if err := bw.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

// hidden lists the .snii-* files of dir.
func hidden(t *testing.T, dir string) []string {
	t.Helper()
	ents, _ := os.ReadDir(dir)
	var out []string
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".snii-") {
			out = append(out, e.Name())
		}
	}
	return out
}

// waitFor polls cond every 10 ms for up to d.
func waitFor(d time.Duration, cond func() bool) bool {
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if cond() {
			return true
		}
	}
	return false
}

func exitStatus(t *testing.T, err error) int {
	t.Helper()
	var ee *exec.ExitError
	if err == nil {
		return 0
	}
	if !errors.As(err, &ee) {
		t.Fatalf("wait: %v", err)
	}
	return ee.ExitCode()
}

func TestSignalDuringBuild(t *testing.T) {
	bin := sniiBinary(t)
	data := t.TempDir()
	in := filepath.Join(data, "in.log")
	genLog(t, in, 24)
	for _, c := range []struct {
		name  string
		sig   syscall.Signal
		stdin bool // feed stdin and signal once it is all read: the write phase
	}{
		{"SIGINT-reading", syscall.SIGINT, false},
		{"SIGTERM-reading", syscall.SIGTERM, false},
		{"SIGHUP-reading", syscall.SIGHUP, false},
		{"SIGINT-writing", syscall.SIGINT, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "out.snii")
			args := []string{"build", "-q", "-o", out, "--memory", "2MiB"}
			cmd := exec.Command(bin, append(args, map[bool]string{false: in, true: "-"}[c.stdin])...)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			var stdin io.WriteCloser
			if c.stdin {
				var err error
				if stdin, err = cmd.StdinPipe(); err != nil {
					t.Fatal(err)
				}
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			if c.stdin {
				b, err := os.ReadFile(in)
				if err != nil {
					t.Fatal(err)
				}
				stdin.Write(b) // returns once the build has read all but a pipe buffer
				stdin.Close()
			}
			// Signal once the build is spilling runs.
			if !waitFor(30*time.Second, func() bool {
				for _, n := range hidden(t, dir) {
					if strings.HasPrefix(n, ".snii-run-") {
						return true
					}
				}
				return false
			}) {
				cmd.Process.Kill()
				t.Fatalf("no run file appeared; stderr: %s", stderr.String())
			}
			if c.stdin {
				time.Sleep(100 * time.Millisecond) // the last lines are in: Close runs
			}
			if err := cmd.Process.Signal(c.sig); err != nil {
				t.Fatal(err)
			}
			checkStopped(t, cmd, &stderr, c.sig, out, dir)
		})
	}
}

// checkStopped waits for a build sent sig (and fails t unless it stops within
// 20 s, generous: it stops in well under a second): it exits 128+sig saying it
// was interrupted, with no output at out and no temp files left in dir.
func checkStopped(t *testing.T, cmd *exec.Cmd, stderr *bytes.Buffer, sig syscall.Signal, out, dir string) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Fatalf("%v: the build did not stop within 20 s; stderr: %s", sig, stderr.String())
	}
	if got, want := exitStatus(t, err), 128+int(sig); got != want {
		t.Errorf("exit %d, want %d; stderr: %s", got, want, stderr.String())
	}
	if !strings.Contains(stderr.String(), "interrupted") {
		t.Errorf("stderr: %s", stderr.String())
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("%s exists after the interrupted build", out)
	}
	if h := hidden(t, dir); len(h) != 0 {
		t.Errorf("temp files left: %v", h)
	}
}

func TestKilledBuildLeftovers(t *testing.T) {
	bin := sniiBinary(t)
	dir := t.TempDir()
	in := filepath.Join(t.TempDir(), "in.log")
	genLog(t, in, 16)
	out := filepath.Join(dir, "out.snii")
	cmd := exec.Command(bin, "build", "-q", "-o", out, "--memory", "2MiB", in)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if !waitFor(30*time.Second, func() bool {
		for _, n := range hidden(t, dir) {
			if strings.HasPrefix(n, ".snii-run-") {
				return true
			}
		}
		return false
	}) {
		cmd.Process.Kill()
		t.Fatal("no run file appeared")
	}
	// While the build runs, clean leaves its files alone.
	r := ok(t, "clean", dir)
	if !strings.Contains(r.stdout, "0 files removed") {
		t.Errorf("clean during a live build: %s", r.stdout)
	}
	cmd.Process.Kill() // SIGKILL: no cleanup
	cmd.Wait()
	left := hidden(t, dir)
	if len(left) < 3 { // lock, segment temp, run file
		t.Fatalf("after kill -9: %v", left)
	}
	// A file that only looks like ours (no lock file) stays.
	stranger := filepath.Join(dir, ".snii-run-42-1")
	os.WriteFile(stranger, []byte("x"), 0o644)
	// The next build in the directory removes the leftovers.
	small := filepath.Join(t.TempDir(), "small.log")
	os.WriteFile(small, []byte("hello world\n"), 0o644)
	res := cli(t, "", "build", "-o", filepath.Join(dir, "next.snii"), small)
	if res.code != 0 || !strings.Contains(res.stderr, fmt.Sprintf("removed %d temp files", len(left))) {
		t.Errorf("next build: exit %d, stderr %q", res.code, res.stderr)
	}
	if h := hidden(t, dir); len(h) != 1 || h[0] != filepath.Base(stranger) {
		t.Errorf("left after the next build: %v", h)
	}
}

func TestCleanCommand(t *testing.T) {
	bin := sniiBinary(t)
	dir := t.TempDir()
	in := filepath.Join(t.TempDir(), "in.log")
	genLog(t, in, 16)
	cmd := exec.Command(bin, "build", "-q", "-o", filepath.Join(dir, "out.snii"), "--memory", "2MiB", in)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if !waitFor(30*time.Second, func() bool { return len(hidden(t, dir)) >= 3 }) {
		cmd.Process.Kill()
		t.Fatal("no temp files appeared")
	}
	cmd.Process.Kill()
	cmd.Wait()
	n := len(hidden(t, dir))
	r := ok(t, "clean", dir)
	if !strings.Contains(r.stdout, fmt.Sprintf("%d files removed", n)) || len(hidden(t, dir)) != 0 {
		t.Errorf("clean: %s; left %v", r.stdout, hidden(t, dir))
	}
}
