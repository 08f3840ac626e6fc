//go:build unix

package main

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// Issue 39 item 6: the first SIGINT stops a build that waits on a FIFO no
// writer has opened (the open blocks in a system call).
func TestSignalWhileWaitingOnFIFO(t *testing.T) {
	bin := sniiBinary(t)
	dir := t.TempDir()
	fifo := filepath.Join(dir, "in.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	out := filepath.Join(dir, "out.snii")
	cmd := exec.Command(bin, "build", "-q", "-o", out, fifo)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// The build is waiting once it holds its lock file and nothing more
	// happens; the signal is sent then (any time works: it cancels).
	waitFor(10*time.Second, func() bool { return len(hidden(t, dir)) > 0 })
	time.Sleep(200 * time.Millisecond)
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	checkStopped(t, cmd, &stderr, syscall.SIGINT, out, dir)
}
