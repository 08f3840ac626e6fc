package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// buildDemo builds the demo logs into dir and returns the segment path.
func buildDemo(t *testing.T, dir string) string {
	t.Helper()
	seg := filepath.Join(dir, "app.snii")
	ok(t, "build", "-q", "-o", seg, demoFile("app.log"))
	return seg
}

func TestUsageErrors(t *testing.T) {
	dir := t.TempDir()
	seg := buildDemo(t, dir)
	out := filepath.Join(dir, "x.snii")
	log := demoFile("app.log")
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"bogus"}, []string{`unknown command "bogus"`}},
		{[]string{"biuld"}, []string{`unknown command "biuld"`, "did you mean build"}},
		{[]string{"build", "--bogus", "-o", out, log}, []string{"unknown flag: --bogus", "Run 'snii build --help'"}},
		{[]string{"build", log}, []string{"--output (-o) is required"}},
		{[]string{"build", "-o", out}, []string{"requires at least 1 arg"}},
		{[]string{"build", "-o", out, "--format", "xml", log}, []string{`"xml"`, "--format", "want auto, lines or jsonl"}},
		{[]string{"build", "-o", out, "--analyzer", "snowball", log}, []string{"--analyzer", "want standard, whitespace or keyword"}},
		{[]string{"build", "-o", out, "--prx-zstd-min-saving", "101", log}, []string{"--prx-zstd-min-saving", "-1 (the budget)"}},
		{[]string{"build", "-o", out, "--prx-zstd-min-saving", "-2", log}, []string{"--prx-zstd-min-saving"}},
		{[]string{"build", "-o", out, "--budget-percent", "x", log}, []string{"--budget-percent", "0..100"}},
		{[]string{"build", "-o", out, "--zstd-level", "9", log}, []string{"--zstd-level"}},
		{[]string{"build", "-o", out, "--memory", "12 parsecs", log}, []string{"--memory", "unknown unit"}},
		{[]string{"build", "-o", out, "--field", "msg", log}, []string{"--field applies to jsonl inputs"}},
		{[]string{"build", "-o", out, demoFile("events.jsonl")}, []string{"needs --field"}},
		{[]string{"build", "-o", out, "-", "-"}, []string{"stdin (-) given twice"}},
		{[]string{"inspect"}, []string{"accepts 1 arg"}},
		{[]string{"inspect", seg, "--top", "-1"}, []string{"--top -1"}},
		{[]string{"inspect", seg, "--field", "nope"}, []string{`no field "nope"`, "fields: text"}},
		{[]string{"query", seg}, []string{"requires at least 2 arg"}},
		{[]string{"query", seg, "--field", "nope", "x"}, []string{`no field "nope"`}},
		{[]string{"query", seg, "--limit", "-3", "x"}, []string{"--limit -3"}},
		{[]string{"query", seg, `foo "bar`}, []string{"query syntax error at column 9: expected closing quote for the phrase opened at column 5", "  foo \"bar\n          ^"}},
		{[]string{"query", seg, `/a(/`}, []string{"at column 1", "invalid regexp"}},
		{[]string{"query", seg, `(a OR b`}, []string{"at column 8: expected ')' to close the '(' at column 1"}},
		{[]string{"query", seg, `a OR`}, []string{"at column 5", "after OR"}},
		{[]string{"query", seg, `NOT a`}, []string{"at column 1", "needs something to match besides NOT"}},
		{[]string{"query", seg, `a nope:x`}, []string{"at column 3", `nope:x: field "nope"`, "fields: text"}},
		{[]string{"query", seg, `"!!!"`}, []string{"at column 1", "no searchable terms"}},
		{[]string{"merge", "-o", out, seg, "--deleted", "nope.snii=x.txt"}, []string{"not one of the segments"}},
		{[]string{"merge", "-o", out, seg, "--deleted", "garbage"}, []string{"want SEGMENT=FILE"}},
		{[]string{"merge", "-o", seg, seg}, []string{"is also a source"}},
		{[]string{"completion", "tcsh"}, []string{`unknown shell "tcsh"`, "want bash"}},
	} {
		fails(t, exitUsage, "", c.args, c.want...)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a failed build left %s behind", out)
	}
}

func TestFailures(t *testing.T) {
	dir := t.TempDir()
	seg := buildDemo(t, dir)
	out := filepath.Join(dir, "x.snii")

	// Missing and unreadable inputs.
	fails(t, exitFailure, "", []string{"build", "-o", out, filepath.Join(dir, "missing.log")}, "missing.log", "no such file")
	fails(t, exitFailure, "", []string{"build", "-o", out, dir}, "is a directory")
	if os.Geteuid() != 0 { // root reads anything
		locked := filepath.Join(dir, "locked.log")
		os.WriteFile(locked, []byte("x\n"), 0o000)
		fails(t, exitFailure, "", []string{"build", "-o", out, locked}, "locked.log", "permission denied")
	}
	fails(t, exitFailure, "", []string{"inspect", filepath.Join(dir, "missing.snii")}, "missing.snii")
	fails(t, exitFailure, "", []string{"query", filepath.Join(dir, "missing.snii"), "a"}, "missing.snii")
	fails(t, exitFailure, "", []string{"merge", "-o", out, seg, "--deleted", seg + "=" + filepath.Join(dir, "nope.txt")}, "nope.txt")

	// Invalid JSON lines: the message names file and line; --skip-bad-lines counts them.
	bad := filepath.Join(dir, "bad.jsonl")
	os.WriteFile(bad, []byte("{\"msg\":\"one\"}\n{\"msg\": oops}\n[1,2]\n\n{\"msg\":\"two\"}\n{\"msg\":\"three\"} {}\n"), 0o644)
	fails(t, exitFailure, "", []string{"build", "-o", out, "--field", "msg", bad}, "bad.jsonl:2: invalid JSON", "--skip-bad-lines")
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a failed build left %s behind", out)
	}
	r := ok(t, "build", "-o", out, "--field", "msg", "--skip-bad-lines", bad)
	if !strings.Contains(r.stdout, "skipped 3 bad lines") || !strings.Contains(r.stdout, "2 docs") {
		t.Errorf("--skip-bad-lines summary:\n%s", r.stdout)
	}
	os.WriteFile(bad, []byte("{\"msg\":\"one\"}\n[1]\n"), 0o644)
	fails(t, exitFailure, "", []string{"build", "-o", out + "2", "--field", "msg", bad}, "bad.jsonl:2: not a JSON object (found an array)")
	fails(t, exitFailure, "{\n", []string{"build", "-o", out + "2", "--format", "jsonl", "--field", "msg", "-"}, "<stdin>:1: invalid JSON")

	// A corrupt .gz input names the file.
	gz := filepath.Join(dir, "broken.log.gz")
	os.WriteFile(gz, []byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff, 1, 2, 3}, 0o644)
	fails(t, exitFailure, "", []string{"build", "-o", out + "3", gz}, "broken.log.gz")

	// Corrupt segments: verify fails naming the place; inspect/query fail cleanly.
	good, err := os.ReadFile(seg)
	if err != nil {
		t.Fatal(err)
	}
	for name, mutate := range map[string]func([]byte) []byte{
		"flip-middle": func(b []byte) []byte { b[len(b)/3] ^= 0x55; return b },
		"flip-dict":   func(b []byte) []byte { b[len(b)*3/4] ^= 0x01; return b },
		"truncated":   func(b []byte) []byte { return b[:len(b)-7] },
		"tail":        func(b []byte) []byte { b[len(b)-10] ^= 0xff; return b },
	} {
		p := filepath.Join(dir, name+".snii")
		os.WriteFile(p, mutate(append([]byte(nil), good...)), 0o644)
		r := fails(t, exitFailure, "", []string{"verify", p}, p)
		if !strings.Contains(r.stderr, "corrupt") {
			t.Errorf("verify %s: the message does not say corrupt: %s", name, r.stderr)
		}
		if strings.Contains(r.stderr, "panic") {
			t.Errorf("verify %s: %s", name, r.stderr)
		}
	}
	// Several segments: the sound one passes, the exit code is 1.
	r = cli(t, "", "verify", seg, filepath.Join(dir, "truncated.snii"))
	if r.code != exitFailure || !strings.Contains(r.stdout, "ok "+seg) || !strings.Contains(r.stderr, "1 of 2 segments failed") {
		t.Errorf("verify of two: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}

func TestHelpAndCompletion(t *testing.T) {
	for _, cmd := range []string{"build", "inspect", "query", "merge", "verify"} {
		r := ok(t, cmd, "--help")
		if !strings.Contains(r.stdout, "Examples:") || !strings.Contains(r.stdout, "snii "+cmd) {
			t.Errorf("snii %s --help lacks examples:\n%s", cmd, r.stdout)
		}
	}
	r := ok(t, "--help")
	for _, w := range []string{"Exit codes", "build", "inspect", "query", "merge", "verify", "completion"} {
		if !strings.Contains(r.stdout, w) {
			t.Errorf("snii --help lacks %q", w)
		}
	}
	if r := ok(t); !strings.Contains(r.stdout, "Usage:") {
		t.Errorf("snii without arguments: %s", r.stdout)
	}
	for _, sh := range []string{"bash", "zsh", "fish", "powershell"} {
		if r := ok(t, "completion", sh); len(r.stdout) < 100 {
			t.Errorf("completion %s: %q", sh, r.stdout)
		}
	}
	// Flag value completion.
	r = ok(t, "__complete", "build", "--format", "")
	if !strings.Contains(r.stdout, "jsonl") {
		t.Errorf("completion of --format: %q", r.stdout)
	}
}

func TestProgressOnTerminal(t *testing.T) {
	dir := t.TempDir()
	r := cliEnv(t, true, "", "build", "-o", filepath.Join(dir, "a.snii"), demoFile("app.log"))
	if r.code != 0 || r.stderr == "" {
		t.Fatalf("exit %d; a terminal should get a progress bar on stderr, got %q", r.code, r.stderr)
	}
	r = cliEnv(t, true, "", "build", "-q", "-o", filepath.Join(dir, "b.snii"), demoFile("app.log"))
	if r.code != 0 || r.stderr != "" || r.stdout != "" {
		t.Fatalf("--quiet: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
}

func TestInterruptedBuild(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "x.snii")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stdout, stderr bytes.Buffer
	code := execute(ctx, newRootCmdEnv(&env{stdout: &stdout, stderr: &stderr, stdin: strings.NewReader("")}), []string{"build", "-o", out, demoFile("app.log")}, &stderr)
	if code != exitFailure || !strings.Contains(stderr.String(), "snii: interrupted") {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("an interrupted build left %d files in the output directory", len(entries))
	}
}
