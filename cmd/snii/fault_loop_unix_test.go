//go:build unix

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Issue 39 item 3, as the report ran it: "snii query live.snii ..." in a loop
// while the segment is overwritten (cp) and truncated in place. Every run
// exits 0 with the right count or 1 with a corruption error; none dies of
// SIGBUS (the Go runtime's "fatal error: fault", exit 2).
// $SNII_FAULT_LOOP sets the duration (a Go duration; default 5s; the issue ran 20s).
func TestQueryWhileSegmentRewritten(t *testing.T) {
	bin := sniiBinary(t)
	dur := 5 * time.Second
	if v := os.Getenv("SNII_FAULT_LOOP"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			t.Fatalf("SNII_FAULT_LOOP=%q: want a positive Go duration (\"20s\")", v)
		}
		dur = d
	}
	live := filepath.Join(t.TempDir(), "live.snii")
	ok(t, "build", "-q", "-o", live, demoFile("app.log"))
	good, err := os.ReadFile(live)
	if err != nil {
		t.Fatal(err)
	}
	query := []string{"query", live, "connection", "--count"}
	want := ok(t, query...).stdout

	stop := make(chan struct{})
	done := make(chan int)
	go func() {
		n := 0
		defer func() { done <- n }()
		for {
			select {
			case <-stop:
				if err := os.WriteFile(live, good, 0o644); err != nil {
					t.Error(err)
				}
				return
			default:
			}
			if n%2 == 1 {
				if err := os.Truncate(live, int64(n*997%len(good))); err != nil {
					t.Error(err)
					return
				}
				time.Sleep(time.Millisecond)
			}
			if err := os.WriteFile(live, good, 0o644); err != nil {
				t.Error(err)
				return
			}
			n++
			time.Sleep(time.Millisecond)
		}
	}()
	var runs, failed int
	for end := time.Now().Add(dur); time.Now().Before(end); runs++ {
		var out, errb bytes.Buffer
		cmd := exec.Command(bin, query...)
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		code := cmd.ProcessState.ExitCode()
		switch {
		case strings.Contains(errb.String(), "fatal error") || strings.Contains(errb.String(), "SIGBUS"):
			t.Fatalf("run %d crashed (exit %d):\n%s", runs, code, errb.String())
		case err == nil:
			if out.String() != want {
				t.Errorf("run %d: %q, want %q", runs, out.String(), want)
			}
		case code == exitFailure && strings.Contains(errb.String(), "corrupt"):
			failed++
		default:
			t.Fatalf("run %d: exit %d (%v):\n%s", runs, code, err, errb.String())
		}
	}
	close(stop)
	rewrites := <-done
	t.Logf("%d runs, %d rewrites: %d corruption errors", runs, rewrites, failed)
	if rewrites == 0 {
		t.Fatal("the segment was never rewritten")
	}
}
