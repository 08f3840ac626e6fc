package main

import "testing"

// TestCatchesSignals: every command but query, grep and get (which only read
// and print) installs the handler that cancels on the first stop signal, as
// do a command line without a command, help and an unknown command.
func TestCatchesSignals(t *testing.T) {
	readOnly := map[string]bool{"query": true, "grep": true, "get": true}
	for _, c := range subCommands(&env{}) {
		if got := catchesSignals([]string{c.name, "x"}); got == readOnly[c.name] {
			t.Errorf("%s: catches signals %v", c.name, got)
		}
		delete(readOnly, c.name)
	}
	if len(readOnly) != 0 {
		t.Errorf("no such commands: %v", readOnly)
	}
	for _, args := range [][]string{nil, {"help", "query"}, {"--help"}, {"search", "x"}} {
		if !catchesSignals(args) {
			t.Errorf("%q: no handler", args)
		}
	}
}
