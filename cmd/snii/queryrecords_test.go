package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/snii-go/snii/internal/testkit/oracle"
	"github.com/snii-go/snii/internal/testkit/segtest"
	"github.com/snii-go/snii/writer"
)

// needRG returns the path of ripgrep, skipping the test when it is absent
// (failing it under CI=true, where .ci/run installs it).
func needRG(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("rg")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("rg (ripgrep) is not installed; .ci/run installs it")
		}
		t.Skip("rg (ripgrep) is not installed (Debian package ripgrep)")
	}
	return p
}

// rg runs ripgrep on file and returns its output ("" when nothing matches).
func rg(t *testing.T, bin, file string, args ...string) string {
	t.Helper()
	cmd := exec.Command(bin, append(append([]string{"--no-config"}, args...), file)...)
	out, err := cmd.Output()
	var ee *exec.ExitError
	if err != nil && !(errors.As(err, &ee) && ee.ExitCode() == 1) {
		t.Fatalf("rg %v: %v", args, err)
	}
	return string(out)
}

// sgr matches the SGR sequences of colored output.
var sgr = regexp.MustCompile("\x1b\\[[0-9;]*m")

// tokenMatch reports whether the standard analyzer's terms of phrase stand
// consecutively among those of text (the brute force of a phrase query).
func tokenMatch(text, phrase string) bool {
	toks, _ := oracle.Tokenize(text)
	want := oracle.Terms(phrase)
	for i := range toks {
		k := 0
		for k < len(want) && i+k < len(toks) && toks[i+k].Term == want[k] && toks[i+k].Pos == toks[i].Pos+uint32(k) {
			k++
		}
		if k == len(want) {
			return true
		}
	}
	return false
}

// keepLines keeps the lines of out (rg output, maybe colored) for which keep
// holds of the line without its colors.
func keepLines(out string, keep func(string) bool) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(out, "\n") {
		if l != "" && keep(sgr.ReplaceAllString(strings.TrimSuffix(l, "\n"), "")) {
			b.WriteString(l)
		}
	}
	return b.String()
}

// rgPhrases are phrases of the demo logs whose case-insensitive substring
// matches are token matches (the test checks it), so rg -F -i prints exactly
// the lines and highlights of the phrase query.
var rgPhrases = []string{"connection refused", "deadlock detected on table", "out of memory", "cache hit ratio",
	"job invoice-export", "logged in from", "payment succeeded for order", "login failed for user zoë", "from payments where"}

// TestQueryLikeRipgrep: snii query prints the lines rg -F -i prints where the
// phrase matches token-wise, in color byte for byte as rg colors them, and
// with -A/-B/-C the same context lines and "--" separators.
func TestQueryLikeRipgrep(t *testing.T) {
	bin := needRG(t)
	log := demoFile("app.log")
	seg := filepath.Join(t.TempDir(), "app.snii")
	ok(t, "build", "-o", seg, log)
	text, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	for _, ph := range rgPhrases {
		q := strconv.Quote(ph)
		want := rg(t, bin, log, "-F", "-i", "--color", "never", ph)
		if tokens := keepLines(string(text), func(l string) bool { return tokenMatch(l, ph) }); tokens != want || want == "" {
			t.Fatalf("%q: rg prints %d bytes of lines, the phrase matches %d bytes of lines token-wise: pick another phrase", ph, len(want), len(tokens))
		}
		if got := ok(t, "query", seg, "--color", "never", q).stdout; got != want {
			t.Errorf("%s: snii and rg differ:\n%s", q, firstDiff(got, want))
		}
		for _, args := range [][]string{{"--color", "always"}, {"--color", "always", "-C", "2"}, {"-A", "1"}, {"-B", "3", "--color", "never"}} {
			want := rg(t, bin, log, append(append([]string{"-F", "-i"}, args...), ph)...)
			if got := ok(t, append([]string{"query", seg, q}, args...)...).stdout; got != want {
				t.Errorf("%s %v: snii and rg differ:\n%s", q, args, firstDiff(got, want))
			}
		}
		// -A and -B override -C's side as in grep (rg lets the last one win).
		out, err := exec.Command("grep", "-F", "-i", "-C", "2", "-A", "0", ph, log).Output()
		if err != nil {
			t.Skipf("grep: %v", err)
		}
		if got := ok(t, "query", seg, q, "-C", "2", "-A", "0").stdout; got != string(out) {
			t.Errorf("%s -C 2 -A 0: snii and grep differ:\n%s", q, firstDiff(got, string(out)))
		}
	}
	// A phrase that also matches inside other words: snii prints rg's lines
	// that match token-wise.
	ph := "refused"
	want := keepLines(rg(t, bin, log, "-F", "-i", ph), func(l string) bool { return tokenMatch(l, ph) })
	if got := ok(t, "query", seg, ph).stdout; got != want || got == "" {
		t.Errorf("%s: snii and rg's token matches differ (%d and %d bytes):\n%s", ph, len(got), len(want), firstDiff(got, want))
	}
}

// firstDiff describes the first line where got and want differ.
func firstDiff(got, want string) string {
	g, w := strings.SplitAfter(got, "\n"), strings.SplitAfter(want, "\n")
	for i := 0; i < max(len(g), len(w)); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return fmt.Sprintf("line %d: snii %q\n         rg   %q", i+1, gl, wl)
		}
	}
	return "same lines"
}

// TestQueryRecordsJSON: --json prints one object per match, in doc-id order:
// its id (those of --ids), its record (the input line) and highlight ranges
// that hold the phrase; --top adds scores, best first; JSON lines input prints
// its JSON lines with ranges inside the msg value.
func TestQueryRecordsJSON(t *testing.T) {
	lines := demoLines(t)
	dir := t.TempDir()
	seg := filepath.Join(dir, "app.snii")
	ok(t, "build", "-o", seg, demoFile("app.log"))
	q := `"connection refused" OR "out of memory" -replica`
	var rep queryReport
	if err := json.Unmarshal([]byte(ok(t, "query", seg, "--ids", "--json", "--limit", "0", q).stdout), &rep); err != nil {
		t.Fatal(err)
	}
	recs := jsonLines(t, ok(t, "query", seg, "--json", q).stdout)
	if len(recs) != len(rep.Docs) || len(recs) == 0 {
		t.Fatalf("%d records, --ids gives %d docs", len(recs), len(rep.Docs))
	}
	for i, r := range recs {
		if r.ID != uint64(rep.Docs[i]) || r.Record != lines[r.ID] || r.Score != nil || r.Context {
			t.Fatalf("record %d: %+v, want doc %d: %q", i, r, rep.Docs[i], lines[rep.Docs[i]])
		}
		checkRanges(t, r, "connection refused", "out of memory")
	}
	if out := ok(t, "query", seg, "--ids", q).stdout; len(rep.Docs) <= 20 || !strings.Contains(out, "(first 20 of "+strconv.Itoa(len(rep.Docs))) {
		t.Errorf("--ids prints the first 20 ids by default (of %d):\n%s", len(rep.Docs), out)
	}
	top := jsonLines(t, ok(t, "query", seg, "--json", "--top", "3", `refused OR "out of memory"`).stdout)
	if len(top) != 3 || top[0].Score == nil || *top[0].Score < *top[2].Score {
		t.Fatalf("--top 3: %+v", top)
	}
	if n := len(jsonLines(t, ok(t, "query", seg, "--json", "-m", "2", q).stdout)); n != 2 {
		t.Errorf("-m 2: %d records", n)
	}
	ctx := jsonLines(t, ok(t, "query", seg, "--json", "-C", "1", `"out of memory"`).stdout)
	for i, r := range ctx {
		if r.Context == (len(r.Highlights) > 0) || r.Record != lines[r.ID] || i > 0 && r.ID <= ctx[i-1].ID {
			t.Fatalf("-C 1, line %d: %+v", i, r)
		}
	}

	events, err := os.ReadFile(demoFile("events.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	evLines := strings.Split(strings.TrimSuffix(string(events), "\n"), "\n")
	evSeg := filepath.Join(dir, "events.snii")
	ok(t, "build", "-o", evSeg, "--field", "msg", "--field", "user.name", demoFile("events.jsonl"))
	recs = jsonLines(t, ok(t, "query", evSeg, "--field", "msg", "--json", `"connection refused" OR user.name:zoë`).stdout)
	if len(recs) == 0 {
		t.Fatal("no events")
	}
	for _, r := range recs {
		if r.Record != evLines[r.ID] {
			t.Fatalf("event %d: %q, want %q", r.ID, r.Record, evLines[r.ID])
		}
		checkRanges(t, r, "connection refused", "zoë")
	}
}

// checkRanges checks that a record's highlight ranges are ascending, disjoint
// and each one of the phrases (case aside).
func checkRanges(t *testing.T, r recordLine, phrases ...string) {
	t.Helper()
	if len(r.Highlights) == 0 {
		t.Fatalf("record %d %q: no highlights", r.ID, r.Record)
	}
	end := 0
	for _, h := range r.Highlights {
		if h[0] < end || h[1] <= h[0] || h[1] > len(r.Record) {
			t.Fatalf("record %d: ranges %v", r.ID, r.Highlights)
		}
		end = h[1]
		if s := strings.ToLower(r.Record[h[0]:h[1]]); !slices.Contains(phrases, s) {
			t.Errorf("record %d %q: range %v is %q", r.ID, r.Record, h, s)
		}
	}
}

func jsonLines(t *testing.T, out string) []recordLine {
	t.Helper()
	var recs []recordLine
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if l == "" {
			continue
		}
		var r recordLine
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		recs = append(recs, r)
	}
	return recs
}

// TestQueryRecordsErrors: a segment without a store says how to get one or
// the ids; bad flags are usage errors.
func TestQueryRecordsErrors(t *testing.T) {
	dir := t.TempDir()
	seg := filepath.Join(dir, "nostore.snii")
	o := writer.DefaultOptions(linesField)
	o.NoStore = true
	segtest.Build(t, seg, o, []writer.Document{writer.Doc(linesField, "connection refused")})
	fails(t, exitFailure, "", []string{"query", seg, "refused"}, "keeps no records", "without --no-store", "--ids")
	fails(t, exitFailure, "", []string{"query", seg, "nosuchword"}, "keeps no records") // with no match as well
	if r := ok(t, "query", seg, "--ids", "refused"); !strings.Contains(r.stdout, "matches  1") {
		t.Errorf("--ids on a segment without a store:\n%s", r.stdout)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--color", "sometimes"}, "auto, always or never"},
		{[]string{"-C", "-1"}, "-C -1"},
		{[]string{"-A", "-2"}, "-A -2"},
		{[]string{"-C", "1", "--count"}, "not with --ids, --count"},
		{[]string{"-B", "1", "--ids"}, "not with --ids, --count"},
		{[]string{"-A", "1", "--top", "3"}, "not with --top"},
		{[]string{"--ids", "--count"}, "--ids and --count"},
	} {
		fails(t, exitUsage, "", append([]string{"query", seg, "refused"}, c.args...), c.want)
	}
}

// TestQueryColorAuto: --color auto colors only a terminal, and never with
// NO_COLOR set.
func TestQueryColorAuto(t *testing.T) {
	var buf strings.Builder
	t.Setenv("NO_COLOR", "")
	if useColor("auto", &buf) || !useColor("always", &buf) || useColor("never", &buf) {
		t.Error("auto colors a buffer, or always/never ignored")
	}
	tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no terminal to test auto against")
	}
	defer tty.Close()
	if !useColor("auto", tty) {
		t.Error("auto does not color a terminal")
	}
	t.Setenv("NO_COLOR", "1")
	if useColor("auto", tty) {
		t.Error("auto colors a terminal with NO_COLOR set")
	}
}
