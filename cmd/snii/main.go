package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"runtime/debug"
	"sync/atomic"
	"syscall"
)

//go:generate go run ./internal/gendemo -o ../../testdata/demo

// stopSignals stop a command: the first cancels its context (a build or merge
// removes its temp files and publishes nothing), a second exits at once.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

func main() {
	handOffS3(os.Args[1:])
	if p := gcPercentFor(os.Args[1:], os.Getenv("GOGC")); p > 0 {
		debug.SetGCPercent(p)
	}
	if !catchesSignals(os.Args[1:]) {
		os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr, os.Stdin))
	}
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, stopSignals...)
	var got atomic.Int32
	go func() {
		s := <-sigs
		got.Store(int32(signalNumber(s)))
		cancel()
		s = <-sigs
		fmt.Fprintf(os.Stderr, "snii: %v again: exiting now; temp files may be left (snii clean removes them)\n", s)
		os.Exit(128 + signalNumber(s))
	}()
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr, os.Stdin)
	signal.Stop(sigs)
	if n := got.Load(); n != 0 && code != exitOK {
		code = 128 + int(n) // the shell convention: 130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP
	}
	cancel()
	os.Exit(code)
}

// catchesSignals reports whether the command line args runs a command that
// catches stopSignals to stop cleanly. query, grep and get do not: they only
// read segments and print, so a signal ends them at once with the signal's
// default action, as it ends grep (the shell reports 128+N), and they start
// without the handler's goroutine and thread.
func catchesSignals(args []string) bool {
	if len(args) == 0 {
		return true
	}
	switch args[0] {
	case "query", "grep", "get":
		return false
	}
	return true
}

func signalNumber(s os.Signal) int {
	if n, ok := s.(syscall.Signal); ok {
		return int(n)
	}
	return 2
}
