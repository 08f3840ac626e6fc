package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/snii-go/snii/internal/errs"
	"github.com/spf13/cobra"
	"golang.org/x/term"
)

// Exit codes of the snii command (documented in README.md and doc.go).
const (
	exitOK      = 0 // success
	exitFailure = 1 // the command failed: I/O, corrupt data, a failed check, bad input data
	exitUsage   = 2 // the command line is wrong: unknown command or flag, bad flag value, query syntax
)

// usageError marks an error as a command-line mistake (exit code 2).
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// usagef returns a usage error (exit code 2).
func usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

// asUsage marks err (if not nil) as a usage error.
func asUsage(err error) error {
	if err == nil {
		return nil
	}
	return usageError{err}
}

// maxFlagError is the most characters of a flag error's message printed:
// pflag's messages quote the argument they reject, whatever its size.
const maxFlagError = 256

// clipped is err with its message cut to maxFlagError characters.
type clipped struct{ err error }

func (e clipped) Error() string { return errs.Clip(e.err.Error(), maxFlagError) }
func (e clipped) Unwrap() error { return e.err }

// hinted is an error with extra lines printed after the message (e.g. a caret
// under a query syntax error).
type hinted struct {
	err  error
	hint string
}

func (e hinted) Error() string { return e.err.Error() }
func (e hinted) Unwrap() error { return e.err }

// exitCode maps an error to the process exit code.
func exitCode(err error) int {
	var u usageError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &u):
		return exitUsage
	}
	return exitFailure
}

// env is what the commands write to and read from; tests pass buffers.
type env struct {
	stdout, stderr io.Writer
	stdin          io.Reader
	// tty: stderr is a terminal (progress bars are drawn only then).
	tty bool
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// run executes the command line args and returns the exit code. Errors are
// printed to stderr as "snii: <message>".
func run(ctx context.Context, args []string, stdout, stderr io.Writer, stdin io.Reader) int {
	return execute(ctx, newRootCmd(stdout, stderr, stdin, args...), args, stderr)
}

// execute runs root on args and returns the exit code, printing errors to stderr.
func execute(ctx context.Context, root *cobra.Command, args []string, stderr io.Writer) int {
	root.SetArgs(args)
	root.InitDefaultCompletionCmd(args...)
	root.InitDefaultHelpCmd()
	strictCompletion(root)
	usageArgs(root)
	cmd, err := root, unknownCommand(root, args)
	if err == nil {
		cmd, err = root.ExecuteContextC(ctx)
	}
	if err == nil {
		return exitOK
	}
	code := exitCode(err)
	if ctx.Err() != nil && code == exitFailure {
		fmt.Fprintln(stderr, "snii: interrupted:", err)
		return code
	}
	fmt.Fprintln(stderr, "snii:", err)
	var h hinted
	if errors.As(err, &h) && h.hint != "" {
		fmt.Fprintln(stderr, h.hint)
	}
	if code == exitUsage && cmd != nil {
		fmt.Fprintf(stderr, "Run '%s --help' for usage.\n", cmd.CommandPath())
	}
	return code
}

// usageArgs makes the positional-argument checks of c and its sub-commands
// (cobra's completion and help commands included) return usage errors.
func usageArgs(c *cobra.Command) {
	if a := c.Args; a != nil {
		c.Args = func(cmd *cobra.Command, args []string) error { return asUsage(a(cmd, args)) }
	}
	for _, sub := range c.Commands() {
		usageArgs(sub)
	}
}

// strictCompletion makes "snii completion SHELL" reject an unknown shell with a
// usage error (cobra would print the help and exit 0).
func strictCompletion(root *cobra.Command) {
	for _, c := range root.Commands() {
		if c.Name() != "completion" || c.Runnable() {
			continue
		}
		var shells []string
		for _, s := range c.Commands() {
			shells = append(shells, s.Name())
		}
		c.Args = func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usagef("unknown shell %q (want %s)", args[0], orList(shells))
			}
			return nil
		}
		c.RunE = func(cmd *cobra.Command, args []string) error { return cmd.Help() }
	}
}
