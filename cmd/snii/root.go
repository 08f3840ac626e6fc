package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
)

// newRootCmd returns the snii command for the command line args. Output
// goes to stdout (results) and stderr (progress, errors); stdin feeds "snii
// build -".
func newRootCmd(stdout, stderr io.Writer, stdin io.Reader, args ...string) *cobra.Command {
	return newRootCmdEnv(&env{stdout: stdout, stderr: stderr, stdin: stdin, tty: isTerminal(stderr)}, args...)
}

// subCommand is one of snii's commands: its name and its constructor.
type subCommand struct {
	name string
	make func() *cobra.Command
}

// subCommands lists snii's commands, in the order help lists them.
func subCommands(e *env) []subCommand {
	return []subCommand{
		{"build", func() *cobra.Command { return newBuildCmd(e, captureBuildHook(), profileBuildHook()) }},
		{"inspect", func() *cobra.Command { return newInspectCmd(e) }},
		{"query", func() *cobra.Command { return newQueryCmd(e) }},
		{"grep", func() *cobra.Command { return newGrepCmd(e) }},
		{"get", func() *cobra.Command { return newGetCmd(e) }},
		{"merge", func() *cobra.Command { return newMergeCmd(e) }},
		{"verify", func() *cobra.Command { return newVerifyCmd(e) }},
		{"capture", newCaptureCmd},
		{"replay", newReplayCmd},
		{"clean", func() *cobra.Command { return newCleanCmd(e) }},
	}
}

// newRootCmdEnv is newRootCmd with an explicit env (tests force tty). When
// the first of args names a command, the root holds that command alone (the
// others' flags and texts are not built for a command line that cannot
// reach them); otherwise (no args, help, completion, an unknown command)
// it holds every command.
func newRootCmdEnv(e *env, args ...string) *cobra.Command {
	stdout, stderr, stdin := e.stdout, e.stderr, e.stdin
	root := &cobra.Command{
		Use:   "snii",
		Short: "Build, inspect, query, merge and verify snii inverted-index segments",
		Long: `snii writes and reads immutable inverted-index segments for log and text search.

The positions of every term are stored in .prx windows, each encoded as RAW varints,
PFOR or zstd; a per-field size budget keeps the windows zstd shrinks least in a faster
frame, so phrase queries decode far fewer zstd windows for a few percent more bytes.

Exit codes: 0 success, 1 failure (I/O, corrupt data, a failed check, bad input data),
2 usage (unknown command or flag, bad flag value, query syntax error, a merge the
sources cannot give), 128+N stopped by signal N (130 Ctrl-C, 129 SIGHUP, 143 SIGTERM).`,
		Example: `  snii build -o app.snii testdata/demo/app.log
  snii inspect app.snii
  snii query app.snii '"connection refused"' --profile
  snii verify app.snii`,
		SilenceErrors: true,
		SilenceUsage:  true,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return nil
			}
			msg := fmt.Sprintf("unknown command %q for %q", args[0], cmd.CommandPath())
			if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
				msg += "; did you mean " + strings.Join(s, " or ") + "?"
			}
			return usagef("%s", msg)
		},
		RunE: func(cmd *cobra.Command, args []string) error { return cmd.Help() },
	}
	root.SuggestionsMinimumDistance = 2
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetIn(stdin)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{clipped{err}} })
	subs := subCommands(e)
	for _, c := range subs {
		if len(args) > 0 && c.name == args[0] {
			subs = []subCommand{c}
			break
		}
	}
	for _, c := range subs {
		root.AddCommand(c.make())
	}
	return root
}

// unknownCommand returns the usage error of a command line whose first word
// names no command, or that asks for help on one ("snii search --help",
// "snii help search"): cobra would print the root's help and exit 0.
func unknownCommand(root *cobra.Command, args []string) error {
	if len(args) > 0 && (args[0] == cobra.ShellCompRequestCmd || args[0] == cobra.ShellCompNoDescRequestCmd) {
		return nil
	}
	c, rest, err := root.Find(args)
	if err != nil {
		return nil // cobra reports it
	}
	if c.Parent() == root && c.Name() == "help" {
		c, rest, err = root.Find(rest)
		if err != nil || c != root {
			return nil
		}
	}
	if c != root {
		return nil
	}
	for _, a := range rest {
		if !strings.HasPrefix(a, "-") {
			return root.Args(root, []string{a})
		}
	}
	return nil
}
