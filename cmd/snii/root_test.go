package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestRootForOneCommand: a command line that names a command builds the
// root with that command alone, and gets from it what the whole tree gives:
// the same help, usage errors and exit codes; each listed name is its
// command's name.
func TestRootForOneCommand(t *testing.T) {
	e := &env{}
	for _, c := range subCommands(e) {
		if got := c.make().Name(); got != c.name {
			t.Fatalf("command %q is listed as %q", got, c.name)
		}
		if n := len(newRootCmdEnv(e, c.name, "x").Commands()); n != 1 {
			t.Errorf("%s: the root holds %d commands", c.name, n)
		}
		for _, args := range [][]string{{c.name, "--help"}, {c.name}, {c.name, "--no-such-flag"}, {c.name, "a", "b", "c", "d"}} {
			var want [2]bytes.Buffer
			wantCode := execute(context.Background(), newRootCmdEnv(&env{stdout: &want[0], stderr: &want[1], stdin: strings.NewReader("")}), args, &want[1])
			var got [2]bytes.Buffer
			code := execute(context.Background(), newRootCmdEnv(&env{stdout: &got[0], stderr: &got[1], stdin: strings.NewReader("")}, args...), args, &got[1])
			if code != wantCode || got[0].String() != want[0].String() || got[1].String() != want[1].String() {
				t.Errorf("snii %s: exit %d, want %d\nstdout %q\nwant   %q\nstderr %q\nwant   %q", strings.Join(args, " "), code, wantCode,
					got[0].String(), want[0].String(), got[1].String(), want[1].String())
			}
		}
	}
	if n := len(newRootCmdEnv(e, "help", "query").Commands()); n != len(subCommands(e)) {
		t.Errorf("snii help query: the root holds %d commands", n)
	}
}
