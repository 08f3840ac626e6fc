//go:build unix

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(10 * time.Second): // it stops at once; 10 s is slack for a busy machine
		cmd.Process.Kill()
		<-done
		t.Fatalf("the first SIGINT did not stop the build within 10 s; stderr: %s", stderr.String())
	}
	if got, want := exitStatus(t, err), 128+int(syscall.SIGINT); got != want {
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
