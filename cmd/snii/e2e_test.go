package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/snii-go/snii/internal/querylang"
	"github.com/snii-go/snii/internal/testkit/oracle"
)

// demoLines returns the lines of testdata/demo/app.log (doc id = index).
func demoLines(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(demoFile("app.log"))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

// demoEvent is the part of an events.jsonl line the tests index.
type demoEvent struct {
	Msg  string `json:"msg"`
	User struct {
		Name string `json:"name"`
	} `json:"user"`
	Tags []string `json:"tags"`
}

func demoEvents(t *testing.T) []demoEvent {
	t.Helper()
	b, err := os.ReadFile(demoFile("events.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var out []demoEvent
	for _, l := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		var e demoEvent
		if err := json.Unmarshal([]byte(l), &e); err != nil {
			t.Fatal(err)
		}
		out = append(out, e)
	}
	return out
}

// linesOracle indexes lines as the "text" field.
func linesOracle(lines []string) *oracle.Corpus {
	c := oracle.New()
	for _, l := range lines {
		c.AddText(linesField, l)
	}
	return c
}

// toOracle turns a parsed query into the oracle's query, analyzing with the
// oracle's own tokenizer (independent of the segment's analyzer).
func toOracle(t *testing.T, n querylang.Node, field string, maxExp int) oracle.Query {
	switch n := n.(type) {
	case *querylang.And:
		var qs oracle.And
		var neg oracle.Or
		for _, c := range n.Nodes {
			if nc, ok := c.(*querylang.Not); ok {
				neg = append(neg, toOracle(t, nc.Node, field, maxExp))
			} else {
				qs = append(qs, toOracle(t, c, field, maxExp))
			}
		}
		if len(neg) > 0 {
			return oracle.AndNot{Include: qs, Exclude: neg}
		}
		return qs
	case *querylang.Or:
		var qs oracle.Or
		for _, c := range n.Nodes {
			qs = append(qs, toOracle(t, c, field, maxExp))
		}
		return qs
	case *querylang.Text:
		if n.Field != "" {
			field = n.Field
		}
		terms := oracle.Terms(n.Raw)
		switch {
		case len(terms) == 0:
			t.Fatalf("query text %q has no terms", n.Raw)
		case n.Prefix && len(terms) == 1:
			return oracle.Prefix{Field: field, Prefix: terms[0], MaxExpansions: maxExp}
		case n.Prefix:
			return oracle.PhrasePrefix{Field: field, Terms: terms, MaxExpansions: maxExp}
		case len(terms) == 1:
			return oracle.Term{Field: field, Term: terms[0]}
		case n.Slop > 0:
			return oracle.SloppyPhrase{Field: field, Terms: terms, Slop: n.Slop}
		}
		return oracle.Phrase{Field: field, Terms: terms}
	}
	t.Fatalf("node %T", n)
	return nil
}

// checkQuery runs `snii query --json` and compares the docs and the count with
// the oracle.
func checkQuery(t *testing.T, c *oracle.Corpus, seg, field, q string, maxExp int) {
	t.Helper()
	n, err := querylang.Parse(q)
	if err != nil {
		t.Fatalf("test query %q: %v", q, err)
	}
	want := c.Eval(toOracle(t, n, field, maxExp))
	args := []string{"query", seg, "--ids", "--json", "--limit", "0", "--field", field, "--max-expansions", fmt.Sprint(maxExp), q}
	r := ok(t, args...)
	var rep queryReport
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("%q: %v\n%s", q, err, r.stdout)
	}
	if !slices.Equal(rep.Docs, want) || rep.Count != uint64(len(want)) || rep.Truncated {
		t.Errorf("query %q on %s (max expansions %d, plan %s):\n got %d: %s\nwant %s", q, field, maxExp, rep.Plan, rep.Count, oracle.Describe(rep.Docs), oracle.Describe(want))
	}
	r = ok(t, "query", seg, "--count", "--field", field, "--max-expansions", fmt.Sprint(maxExp), q)
	if got := strings.TrimSpace(r.stdout); got != fmt.Sprint(len(want)) {
		t.Errorf("query --count %q: %s, want %d", q, got, len(want))
	}
}

// handQueries exercise every construct of the language on the demo logs.
var handQueries = []string{
	`connection`,
	`"connection refused"`,
	`"payment failed: card declined"`,
	`"timed out after*"`,
	`conn*`,
	`"user alice logged in"`,
	`alice "logged in" OR zo*`,
	`(ERROR OR WARN) "connection pool"`,
	`"deadlock detected on table orders"`,
	`"job email-digest failed*"`,
	`GET "api v1 orders"`,
	`"status 500" OR "status 503"`,
	`"cache miss" user*`,
	`zoë`, `"JÜRGEN"`, `Søren*`, `10.2*`,
	`nothere`, `"connection nothere"`, `"refused connection"`, `"a a"`,
	`"retrying transaction 3 of 3"`,
	`payment AND (declined OR insufficient) AND NOT\ A\ WORD`,
	`"query took*" customers`,
	`request_id*`,
	`"refused connection"~2`, `"refused connection"~1`, `"connection pool exhausted"~3`,
	`"user logged"~1 -alice`, `ERROR NOT "connection refused" -timeout`,
	`(ERROR OR WARN) -(connection OR cache*)`, `text:payment -text:"card declined"~1`,
}

// genQueries derives phrases, phrase prefixes, prefixes and boolean queries
// from the documents themselves, deterministically.
func genQueries(lines []string, n int) []string {
	var out []string
	s := uint64(7)
	next := func(k int) int {
		s = s*6364136223846793005 + 1442695040888963407
		return int((s >> 33) % uint64(k))
	}
	for len(out) < n {
		terms := oracle.Terms(lines[next(len(lines))])
		if len(terms) < 4 {
			continue
		}
		i := next(len(terms) - 3)
		k := 2 + next(3)
		ph := terms[i : i+k]
		switch next(7) {
		case 0: // exact phrase
			out = append(out, `"`+strings.Join(ph, " ")+`"`)
		case 1: // phrase prefix
			last := ph[k-1]
			cut := 1 + next(len(last))
			out = append(out, `"`+strings.Join(ph[:k-1], " ")+" "+last[:cut]+`*"`)
		case 2: // prefix
			w := ph[0]
			out = append(out, w[:1+next(len(w))]+"*")
		case 3: // AND of two words
			out = append(out, ph[0]+" "+ph[k-1])
		case 5: // a sloppy phrase, reversed or not
			if next(2) == 0 {
				slices.Reverse(ph)
			}
			out = append(out, fmt.Sprintf(`"%s"~%d`, strings.Join(ph, " "), next(4)))
		case 6: // a word without another
			out = append(out, ph[0]+" -"+terms[next(len(terms))])
		default: // OR of a phrase and a word
			out = append(out, `"`+strings.Join(ph[:2], " ")+`" OR `+terms[next(len(terms))])
		}
	}
	return out
}

func TestEndToEndLines(t *testing.T) {
	dir := t.TempDir()
	seg := filepath.Join(dir, "app.snii")
	lines := demoLines(t)
	c := linesOracle(lines)

	r := ok(t, "build", "-o", seg, demoFile("app.log"))
	for _, w := range []string{"built " + seg, fmt.Sprintf("%d docs", len(lines)), "text", "dictionary", "prx frames"} {
		if !strings.Contains(r.stdout, w) {
			t.Errorf("build summary lacks %q:\n%s", w, r.stdout)
		}
	}
	if r.stderr != "" {
		t.Errorf("build wrote to stderr without a terminal:\n%s", r.stderr)
	}

	t.Run("inspect", func(t *testing.T) {
		r := ok(t, "inspect", seg, "--json", "--top", "5")
		golden(t, "inspect-app.json", strings.ReplaceAll(r.stdout, dir, "TMP"))
		var rep inspectReport
		if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
			t.Fatal(err)
		}
		if rep.Docs != uint32(len(lines)) || len(rep.Indexes) != 1 {
			t.Fatalf("inspect: %d docs, %d indexes", rep.Docs, len(rep.Indexes))
		}
		x := rep.Indexes[0]
		voc := c.Vocabulary(linesField)
		if x.Name != linesField || x.Terms != uint64(len(voc)) || x.DocsWithField != uint64(c.DocsWithField(linesField)) {
			t.Errorf("inspect: index %s with %d terms, %d docs with the field; oracle %d terms, %d docs", x.Name, x.Terms, x.DocsWithField, len(voc), c.DocsWithField(linesField))
		}
		slices.SortStableFunc(voc, func(a, b oracle.TermStat) int { return b.DF - a.DF })
		for i, tt := range x.TopTerms {
			if tt.Term != voc[i].Term || tt.DF != uint64(voc[i].DF) {
				t.Errorf("top term %d: %s %d, oracle %s %d", i, tt.Term, tt.DF, voc[i].Term, voc[i].DF)
			}
		}
		if x.Classes.Inline+x.Classes.Slim+x.Classes.Windowed != x.Terms {
			t.Errorf("classes %+v do not sum to %d terms", x.Classes, x.Terms)
		}
		// The demo log's units are all under the eligibility threshold in format
		// v2 (the capture and replay tests use a log with eligible units).
		if x.Outcome.TradedBytes > x.Outcome.SumSmallest || x.Policy.Name != "budget:8" {
			t.Errorf("outcome %+v, policy %+v", x.Outcome, x.Policy)
		}
		text := ok(t, "inspect", seg).stdout
		for _, w := range []string{"index text (analyzer standard)", "prx windows", "bits/position", "policy", "budget: 8%", "outcome", "top 10 by df"} {
			if !strings.Contains(text, w) {
				t.Errorf("inspect lacks %q:\n%s", w, text)
			}
		}
	})

	t.Run("query", func(t *testing.T) {
		for _, q := range handQueries {
			checkQuery(t, c, seg, linesField, q, 0)
		}
		for i, q := range genQueries(lines, 120) {
			checkQuery(t, c, seg, linesField, q, []int{0, 0, 1, 3}[i%4])
		}
	})

	t.Run("query-golden", func(t *testing.T) {
		var b strings.Builder
		for _, q := range []string{`"connection refused"`, `"timed out after*"`, `alice "logged in" OR zo*`} {
			b.WriteString(ok(t, "query", seg, "--ids", "--json", "--limit", "5", q).stdout)
		}
		golden(t, "query-app.json", b.String())
	})

	t.Run("profile", func(t *testing.T) {
		for _, ids := range []bool{false, true} {
			args := []string{"query", seg, "--profile", `"connection refused"`}
			if ids {
				args = append(args, "--ids")
			}
			r := ok(t, args...)
			out := r.stderr // records on stdout, the profile on stderr
			if ids {
				out = r.stdout
			}
			for _, w := range []string{"time", "prx frames", "read", "candidates"} {
				if !strings.Contains(out, w) {
					t.Errorf("profile (--ids %v) lacks %q:\n%s", ids, w, out)
				}
			}
		}
		r := ok(t, "query", seg, "--profile", "--ids", "--json", `"connection refused"`)
		var rep queryReport
		if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || rep.Profile == nil {
			t.Fatalf("%v %s", err, r.stdout)
		}
		if p := rep.Profile; p.PrxWindowsRead == 0 || p.BytesRead == 0 || p.Frames.Raw+p.Frames.PFOR+p.Frames.Zstd == 0 {
			t.Errorf("profile of a phrase query read nothing: %+v", *p)
		}
	})

	t.Run("verify", func(t *testing.T) {
		r := ok(t, "verify", seg)
		if strings.TrimSpace(r.stdout) != "ok "+seg {
			t.Errorf("verify: %q", r.stdout)
		}
	})

	t.Run("same-bytes", func(t *testing.T) {
		want, err := os.ReadFile(seg)
		if err != nil {
			t.Fatal(err)
		}
		raw, err := os.ReadFile(demoFile("app.log"))
		if err != nil {
			t.Fatal(err)
		}
		gz := filepath.Join(dir, "app.log.gz")
		var zb bytes.Buffer
		zw := gzip.NewWriter(&zb)
		zw.Write(raw)
		zw.Close()
		if err := os.WriteFile(gz, zb.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		for name, run := range map[string]func(out string) result{
			"gzip":  func(out string) result { return ok(t, "build", "-q", "-o", out, gz) },
			"stdin": func(out string) result { return cli(t, string(raw), "build", "-q", "-o", out, "-") },
			"small-memory": func(out string) result {
				return ok(t, "build", "-q", "--memory", "64KiB", "-o", out, demoFile("app.log"))
			},
		} {
			out := filepath.Join(dir, name+".snii")
			if r := run(out); r.code != 0 || r.stdout != "" {
				t.Fatalf("%s: exit %d, stdout %q, stderr %s", name, r.code, r.stdout, r.stderr)
			}
			got, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s: the segment differs from the one built from the plain file", name)
			}
		}
		// The small memory limit did reach the writer: it spilled.
		r := ok(t, "build", "--json", "--memory", "64KiB", "-o", filepath.Join(dir, "spill.snii"), demoFile("app.log"))
		var rep buildReport
		if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || rep.Spills == 0 {
			t.Errorf("--memory 64KiB: %v, %d spills", err, rep.Spills)
		}
	})
}

func TestEndToEndJSONL(t *testing.T) {
	dir := t.TempDir()
	seg := filepath.Join(dir, "events.snii")
	evs := demoEvents(t)
	c := oracle.New()
	for _, e := range evs {
		c.Add(oracle.Doc{{Name: "msg", Values: []string{e.Msg}}, {Name: "user.name", Values: []string{e.User.Name}}, {Name: "tags", Values: e.Tags}})
	}
	r := ok(t, "build", "--json", "-o", seg, "--field", "msg,user.name", "--field", "tags", demoFile("events.jsonl"))
	var rep buildReport
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	var names []string
	for _, x := range rep.Indexes {
		names = append(names, x.Name)
	}
	if rep.Docs != uint64(len(evs)) || !slices.Equal(names, []string{"msg", "tags", "user.name"}) {
		t.Fatalf("build: %d docs, indexes %v", rep.Docs, names)
	}
	for _, q := range []struct{ field, q string }{
		{"msg", `"connection refused"`}, {"msg", `"timed out after*"`}, {"msg", `payment (declined OR insufficient)`},
		{"user.name", `zoë`}, {"user.name", `a*`}, {"user.name", `alice OR bob`},
		{"tags", `canary`}, {"tags", `"eu west"`}, {"tags", `alert eu*`}, {"tags", `"west canary"`},
	} {
		checkQuery(t, c, seg, q.field, q.q, 0)
	}
	// Several fields and none named text: --field is required.
	fails(t, exitUsage, "", []string{"query", seg, "alice"}, "several fields", "msg, tags, user.name")
	ok(t, "verify", seg)
}

func TestMerge(t *testing.T) {
	dir := t.TempDir()
	lines := demoLines(t)
	half := len(lines) / 2
	a, b := filepath.Join(dir, "a.log"), filepath.Join(dir, "b.log")
	os.WriteFile(a, []byte(strings.Join(lines[:half], "\n")+"\n"), 0o644)
	os.WriteFile(b, []byte(strings.Join(lines[half:], "\n")+"\n"), 0o644)
	sa, sb, all, merged := filepath.Join(dir, "a.snii"), filepath.Join(dir, "b.snii"), filepath.Join(dir, "all.snii"), filepath.Join(dir, "m.snii")
	ok(t, "build", "-q", "-o", sa, a)
	ok(t, "build", "-q", "-o", sb, b)
	ok(t, "build", "-q", "-o", all, demoFile("app.log"))
	r := cli(t, "", "merge", "-o", merged, sa, sb)
	if r.code != 0 {
		t.Fatalf("merge: exit %d: %s", r.code, r.stderr)
	}
	want, _ := os.ReadFile(all)
	got, _ := os.ReadFile(merged)
	if !bytes.Equal(got, want) {
		t.Errorf("merge of two halves differs from building all documents at once")
	}
	ok(t, "verify", merged)

	// Deletions: drop some docs of each source, check against the oracle.
	delA, delB := filepath.Join(dir, "del-a.txt"), filepath.Join(dir, "del-b.txt")
	os.WriteFile(delA, []byte("# dropped\n0, 5 7\n"+fmt.Sprint(half-1)+"\n"), 0o644)
	os.WriteFile(delB, []byte("1\n2\n"), 0o644)
	deleted := map[int]bool{0: true, 5: true, 7: true, half - 1: true, half + 1: true, half + 2: true}
	var kept []string
	for i, l := range lines {
		if !deleted[i] {
			kept = append(kept, l)
		}
	}
	md := filepath.Join(dir, "md.snii")
	ok(t, "merge", "-q", "-o", md, sa, sb, "--deleted", sa+"="+delA, "--deleted", sb+"="+delB)
	c := linesOracle(kept)
	for _, q := range handQueries[:8] {
		checkQuery(t, c, md, linesField, q, 0)
	}
	ok(t, "verify", md)
}

// The policy and analyzer flags reach the segment (inspect reads them back).
func TestBuildFlagsReachSegment(t *testing.T) {
	dir := t.TempDir()
	for i, c := range []struct {
		args   []string
		check  func(x fieldReport) bool
		expect string
	}{
		{[]string{"--prx-zstd-min-saving", "0"}, func(x fieldReport) bool {
			return x.Policy.Name == "0" && x.Outcome.TradedBytes == 0 && x.Outcome.TradedWindows == 0
		}, "smallest frame, nothing traded"},
		{[]string{"--prx-zstd-min-saving", "100"}, func(x fieldReport) bool {
			return x.Policy.Name == "100" && x.Outcome.FinalShare == 100 && x.Prx.Windows.Zstd == 0
		}, "share 100: no zstd window"},
		{[]string{"--budget-percent", "20", "--zstd-level", "4"}, func(x fieldReport) bool {
			return x.Policy.Name == "budget:20" && x.Policy.ZstdLevel == 4 && 5*x.Outcome.Allowance <= x.Outcome.SumSmallest
		}, "budget 20, level 4"},
		{[]string{"--analyzer", "keyword"}, func(x fieldReport) bool {
			return x.Analyzer == "keyword" && x.Terms == 3000 // every line is distinct
		}, "keyword analyzer"},
	} {
		seg := filepath.Join(dir, fmt.Sprintf("%d.snii", i))
		ok(t, append([]string{"build", "-q", "-o", seg, demoFile("app.log")}, c.args...)...)
		var rep inspectReport
		if err := json.Unmarshal([]byte(ok(t, "inspect", "--json", "--top", "0", seg).stdout), &rep); err != nil {
			t.Fatal(err)
		}
		if x := rep.Indexes[0]; !c.check(x) {
			t.Errorf("%v: want %s; got policy %+v outcome %+v analyzer %s terms %d", c.args, c.expect, x.Policy, x.Outcome, x.Analyzer, x.Terms)
		}
	}
}
