package main

import (
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestGrepLikeRipgrep: snii grep prints the lines rg prints on the log the
// segment was built from, for regexps with selective literals and without,
// with -i, -v, -c, -o, -C and --color always (byte for byte).
func TestGrepLikeRipgrep(t *testing.T) {
	bin := needRG(t)
	log := demoFile("app.log")
	seg := filepath.Join(t.TempDir(), "app.snii")
	ok(t, "build", "-q", "-o", seg, log)
	for _, re := range []string{
		`conn(ection)? refused`, `payment failed: card declined`, `timeout after [0-9]+ ?ms`,
		`user=[a-z]+`, `status=5[0-9]{2}`, `request_id=c[0-9a-f]+ GET`, `[0-9]+ms`, `.*`, `e.r`, `x{9}`,
	} {
		for _, args := range [][]string{nil, {"-i"}, {"-v"}, {"-c"}, {"-o"}, {"-C", "1"}, {"--color", "always"}, {"-i", "-c", "-v"}} {
			want := rg(t, bin, log, append(append([]string{}, args...), re)...)
			if slices.Contains(args, "-c") && want == "" {
				want = "0\n" // rg prints nothing for no match
			}
			r := ok(t, append(append([]string{"grep", seg}, args...), re)...)
			if r.stdout != want {
				t.Errorf("grep %v %q: snii and rg differ:\n%s", args, re, firstDiff(r.stdout, want))
			}
		}
	}
}

// TestGrepProfile: --profile shows the derived query, the records read and
// those matched; a regexp without literals and -v read every record, with a
// note.
func TestGrepProfile(t *testing.T) {
	seg := buildDemo(t, t.TempDir())
	r := ok(t, "grep", seg, "--profile", "-c", `payment failed: card declined`)
	n, err := strconv.Atoi(strings.TrimSpace(r.stdout))
	if err != nil || n == 0 {
		t.Fatalf("count %q: %v", r.stdout, err)
	}
	for _, w := range []string{`derived query  patternphrase(text:"failed" "card" wildcard"declined*",max=0)`, "matched        " + strconv.Itoa(n)} {
		if !strings.Contains(r.stderr, w) {
			t.Errorf("profile lacks %q:\n%s", w, r.stderr)
		}
	}
	if strings.Contains(r.stderr, "note:") || !strings.Contains(r.stderr, "records read   "+strconv.Itoa(n)+" of 3000") {
		t.Errorf("the index should narrow to the matching records:\n%s", r.stderr)
	}
	for _, args := range [][]string{{`[0-9]+`}, {"-v", "refused"}} {
		r := ok(t, append([]string{"grep", seg, "--profile", "-c"}, args...)...)
		if !strings.Contains(r.stderr, "note:") || !strings.Contains(r.stderr, "records read   3000 of 3000") {
			t.Errorf("%v: want a note and every record read:\n%s", args, r.stderr)
		}
	}
}

// TestGrepUsage: bad flags and regexps are usage errors (exit 2).
func TestGrepUsage(t *testing.T) {
	seg := buildDemo(t, t.TempDir())
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"grep", seg, "a("}, "missing closing )"},
		{[]string{"grep", seg, "-o", "-C", "1", "a"}, "-o prints the matches alone"},
		{[]string{"grep", seg, "-o", "-v", "a"}, "-o prints the matches"},
		{[]string{"grep", seg, "-c", "-o", "a"}, "-c prints only the number"},
		{[]string{"grep", seg, "-m", "-1", "a"}, "--max-count -1"},
	} {
		fails(t, exitUsage, "", c.args, c.want)
	}
}
