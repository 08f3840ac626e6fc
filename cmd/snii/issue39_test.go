package main

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/snii-go/snii/reader"
)

// Issue 39 item 5: Lucene's "term~N" is a fuzzy term (never the phrase
// "term N"); a group slop, a second slop and fractions are syntax errors
// (exit 2) saying what '~' means here.
func TestLuceneTilde(t *testing.T) {
	seg := buildDemo(t, t.TempDir())
	s, err := reader.Open(seg, reader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, c := range []struct {
		q     string
		edits int
	}{
		{"conection~1", 1}, {"conection~", 2}, {"Connection~0", 0}, {"conection~2", 2},
	} {
		term := strings.ToLower(strings.TrimRight(strings.TrimRight(c.q, "012"), "~"))
		want, err := s.Count(context.Background(), reader.Fuzzy("text", term, c.edits, 0), nil)
		if err != nil {
			t.Fatal(err)
		}
		r := ok(t, "query", seg, c.q, "--count")
		if got := strings.TrimSpace(r.stdout); got != fmt.Sprint(want) {
			t.Errorf("%s: --count %s, want %d", c.q, got, want)
		}
		if c.edits > 0 && want == 0 {
			t.Errorf("%s: no match; the demo logs hold \"connection\"", c.q)
		}
	}
	for _, c := range []struct {
		q    string
		want []string
	}{
		{`(session)~2`, []string{"at column 10", "not to a group"}},
		{`"a b"~2~3`, []string{"at column 8", "a phrase takes one slop"}},
		{`session~3`, []string{"at column 9", "0 to 2 edits"}},
		{`session~0.8`, []string{"at column 10", "whole number of edits"}},
		{`user-id~1`, []string{"at column 1", "a fuzzy term must be one term"}},
	} {
		fails(t, exitUsage, "", []string{"query", seg, c.q}, c.want...)
	}
	// Escaped, '~' is a literal again (the standard analyzer splits on it).
	ok(t, "query", seg, `session\~2`, "--count")
}

// Issue 39 item 6: unknown commands, asked for help or not, exit 2.
func TestUnknownCommand(t *testing.T) {
	for _, args := range [][]string{
		{"search"}, {"search", "x"}, {"search", "--help"}, {"--help", "search"}, {"help", "search"}, {"search", "-q", "x"},
	} {
		fails(t, exitUsage, "", args, `unknown command "search" for "snii"`, "Run 'snii --help' for usage.")
	}
	for _, args := range [][]string{{"help"}, {"--help"}, {"help", "query"}, {"query", "--help"}, {"completion", "bash"}} {
		ok(t, args...)
	}
}

// Issue 39 item 6: flag values that were ignored or misdescribed.
func TestRankingAndDecodeFlags(t *testing.T) {
	seg := buildDemo(t, t.TempDir())
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"query", seg, "x", "--top", "0"}, []string{"--top 0: want 1 or more", "leave --top out"}},
		{[]string{"query", seg, "x", "--top", "-1"}, []string{"--top -1: want 1 or more"}},
		{[]string{"query", seg, "x", "--top", "3", "--k1", "1e30"}, []string{"--k1 1e+30: want 0..1e+06"}},
		{[]string{"query", seg, "x", "--top", "3", "--k1", "-1"}, []string{"--k1 -1: want 0..1e+06"}},
		{[]string{"query", seg, "x", "--max-decode-memory", "0"}, []string{"--max-decode-memory 0", "leave the flag out for the default 256.0 MiB"}},
		{[]string{"verify", seg, "--max-decode-memory", "0"}, []string{"--max-decode-memory 0"}},
		{[]string{"query", seg, "x", "--max-unit-bytes", "0"}, []string{"--max-unit-bytes 0", "leave the flag out for the default 16.0 MiB"}},
		{[]string{"query", "s3://bucket/d/[a.snii", "x"}, []string{"bad pattern"}},
	} {
		fails(t, exitUsage, "", c.args, c.want...)
	}
	ok(t, "query", seg, "connection", "--top", "3", "--k1", "1e6")
	ok(t, "query", seg, "connection", "--max-decode-memory", "64MiB")
}

// Issue 39 item 6: a huge query token or argument is not echoed in full.
func TestHugeTextNotEchoed(t *testing.T) {
	seg := buildDemo(t, t.TempDir())
	big := strings.Repeat("a", 1<<20)
	for _, args := range [][]string{
		{"query", seg, big},            // no searchable terms (over-long token)
		{"query", seg, big + "*"},      // the same, as a prefix
		{"query", seg, big + ":x"},     // an unknown field
		{"query", seg, "x:" + big},     // a text of an unknown field
		{"query", seg, big + ":"},      // a field with nothing after it
		{"query", seg, "-" + big, "x"}, // an unknown shorthand flag
	} {
		r := cli(t, "", args...)
		if r.code != exitUsage {
			t.Errorf("exit %d, want %d; stderr %.300s", r.code, exitUsage, r.stderr)
		}
		if n := utf8.RuneCountInString(r.stderr); n > 1000 || !strings.Contains(r.stderr, "…") {
			t.Errorf("stderr holds %d characters (want under 1000, cut with …): %.300s", n, r.stderr)
		}
	}
}
