//go:build unix

package main

import (
	"errors"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestReadCommandEndsAtFirstSignal: query, grep and get install no signal
// handler, so the first SIGINT ends them by the signal's default action,
// even blocked in a system call (the open of a FIFO no writer has opened),
// where a handler that cancels would wait; build still catches it
// (TestSignalWhileWaitingOnFIFO).
func TestReadCommandEndsAtFirstSignal(t *testing.T) {
	bin := sniiBinary(t)
	dir := t.TempDir()
	fifo := filepath.Join(dir, "seg.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	for _, args := range [][]string{{"query", fifo, "word"}, {"grep", fifo, "wo+rd"}, {"get", fifo, "0"}} {
		cmd := exec.Command(bin, args...)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(300 * time.Millisecond) // blocked in the open of the FIFO
		if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			var ee *exec.ExitError
			if !errors.As(err, &ee) {
				t.Fatalf("%s: %v, want the end by SIGINT", args[0], err)
			}
			if ws, ok := ee.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGINT {
				t.Errorf("%s: %v, want the end by SIGINT", args[0], err)
			}
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
			t.Fatalf("%s: still running 10 s after SIGINT", args[0])
		}
	}
}
