package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

//go:generate go run ./internal/gendemo -o ../../testdata/demo

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr, os.Stdin)
	stop()
	os.Exit(code)
}
