package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/snii-go/snii/writer"
)

// collect reads inputs and returns the documents.
func collect(t *testing.T, ins []input, stdin string, o inputOptions) ([][]writer.Field, inputStats, error) {
	t.Helper()
	var docs [][]writer.Field
	st, err := readInputs(context.Background(), ins, strings.NewReader(stdin), o, func(d []writer.Field, _ []byte) error {
		c := make([]writer.Field, len(d))
		for i, f := range d {
			c[i] = writer.Field{Name: f.Name, Values: append([]string(nil), f.Values...)}
		}
		docs = append(docs, c)
		return nil
	})
	return docs, st, err
}

func text(vals ...string) []writer.Field { return []writer.Field{{Name: linesField, Values: vals}} }

func TestLinesInput(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.log")
	os.WriteFile(p, []byte("first line\r\n\nthird \xff line\nno newline at the end"), 0o644)
	var zb bytes.Buffer
	zw := gzip.NewWriter(&zb)
	zw.Write([]byte("zipped\n"))
	zw.Close()
	gz := filepath.Join(dir, "b.txt.gz")
	os.WriteFile(gz, zb.Bytes(), 0o644)

	ins, err := resolveInputs([]string{p, gz, "-"}, "")
	if err != nil {
		t.Fatal(err)
	}
	if ins[0].format != formatLines || ins[1].format != formatLines || ins[2].label != "<stdin>" || ins[2].size != -1 || ins[0].size != 47 {
		t.Fatalf("resolved %+v", ins)
	}
	var seen int64
	docs, st, err := collect(t, ins, "from stdin\n", inputOptions{OnBytes: func(n int64) { seen += n }})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]writer.Field{text("first line"), text(""), text("third \xff line"), text("no newline at the end"), text("zipped"), text("from stdin")}
	if d := cmp.Diff(want, docs); d != "" {
		t.Fatalf("docs (-want +got):\n%s", d)
	}
	wantBytes := int64(47 + zb.Len() + len("from stdin\n"))
	if st.Docs != 6 || st.Bytes != wantBytes || seen != wantBytes {
		t.Fatalf("stats %+v, progress saw %d bytes, want %d", st, seen, wantBytes)
	}
}

func TestLongLine(t *testing.T) {
	// Longer than the bufio buffer (256 KiB) and than the limit.
	const max = 300 << 10
	long := strings.Repeat("x", max+10)
	in := []input{{name: "-", label: "<stdin>", format: formatLines}}
	_, _, err := collect(t, in, "ok\n"+long+"\nafter\n", inputOptions{MaxLineBytes: max})
	if err == nil || !strings.Contains(err.Error(), "<stdin>:2: line longer than 300.0 KiB") {
		t.Fatalf("err = %v", err)
	}
	// Exactly the limit is fine.
	docs, _, err := collect(t, in, strings.Repeat("y", max)+"\n", inputOptions{MaxLineBytes: max})
	if err != nil || len(docs) != 1 || len(docs[0][0].Values[0]) != max {
		t.Fatalf("a line of the limit: %v", err)
	}
	docs, st, err := collect(t, in, "ok\n"+long+"\nafter\n", inputOptions{SkipBadLines: true, MaxLineBytes: max})
	if err != nil || len(docs) != 2 || st.BadLines != 1 || docs[1][0].Values[0] != "after" {
		t.Fatalf("skip: %v, %d docs, %+v", err, len(docs), st)
	}
}

func TestJSONLInput(t *testing.T) {
	src := `{"msg":"hello","user":{"name":"zoë","id":7},"tags":["a","b"],"n":1.50,"ok":true,"nil":null,"obj":{"x":1},"a.b":"dotted","deep":[{"k":"v1"},{"k":["v2","v3"]}]}

{"msg":["x","y"],"other":1}
`
	in := []input{{name: "-", label: "<stdin>", format: formatJSONL}}
	paths := []string{"msg", "user.name", "user.id", "tags", "n", "ok", "nil", "obj", "a.b", "deep.k", "missing", "msg.x"}
	docs, st, err := collect(t, in, src, inputOptions{Fields: paths})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]writer.Field{
		{{Name: "msg", Values: []string{"hello"}}, {Name: "user.name", Values: []string{"zoë"}}, {Name: "user.id", Values: []string{"7"}}, {Name: "tags", Values: []string{"a", "b"}},
			{Name: "n", Values: []string{"1.50"}}, {Name: "ok", Values: []string{"true"}}, {Name: "a.b", Values: []string{"dotted"}}, {Name: "deep.k", Values: []string{"v1", "v2", "v3"}}},
		{{Name: "msg", Values: []string{"x", "y"}}},
	}
	if d := cmp.Diff(want, docs); d != "" {
		t.Fatalf("docs (-want +got):\n%s", d)
	}
	if st.Docs != 2 {
		t.Fatalf("stats %+v", st)
	}
}

func TestFormatFor(t *testing.T) {
	for name, want := range map[string]string{"a.jsonl": formatJSONL, "a.NDJSON.gz": formatJSONL, "x/a.json": formatJSONL,
		"a.log": formatLines, "a.log.gz": formatLines, "jsonl": formatLines, "a.jsonl.txt": formatLines} {
		if got := formatFor(name); got != want {
			t.Errorf("formatFor(%q) = %s, want %s", name, got, want)
		}
	}
}

func TestBuildFields(t *testing.T) {
	lines := input{label: "a.log", format: formatLines}
	jsonl := input{label: "e.jsonl", format: formatJSONL}
	for _, c := range []struct {
		ins    []input
		paths  []string
		want   []string
		errSub string
	}{
		{[]input{lines}, nil, []string{"text"}, ""},
		{[]input{jsonl}, []string{"msg", " user.name ", "msg"}, []string{"msg", "user.name"}, ""},
		{[]input{lines, jsonl}, []string{"msg"}, []string{"msg", "text"}, ""},
		{[]input{lines, jsonl}, []string{"text"}, []string{"text"}, ""},
		{[]input{jsonl}, nil, nil, "needs --field"},
		{[]input{lines}, []string{"msg"}, nil, "applies to jsonl"},
		{[]input{jsonl}, []string{""}, nil, "empty JSON path"},
	} {
		got, err := buildFields(c.ins, c.paths)
		if c.errSub != "" {
			if err == nil || !strings.Contains(err.Error(), c.errSub) || exitCode(err) != exitUsage {
				t.Errorf("buildFields(%v): %v, want a usage error with %q", c.paths, err, c.errSub)
			}
			continue
		}
		if err != nil || !cmp.Equal(got, c.want) {
			t.Errorf("buildFields(%v) = %v, %v; want %v", c.paths, got, err, c.want)
		}
	}
}

func TestSizesAndFlags(t *testing.T) {
	for in, want := range map[string]int64{"0": 0, "1048576": 1 << 20, "64k": 64 << 10, "64KiB": 64 << 10, "1.5 MB": 3 << 19, "2g": 2 << 30, "1TiB": 1 << 40, "7b": 7} {
		if got, err := parseSize(in); err != nil || got != want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "k", "-1", "12 parsecs", "1e3", "99999999999T"} {
		if _, err := parseSize(in); err == nil {
			t.Errorf("parseSize(%q) accepted", in)
		}
	}
	for n, want := range map[int64]string{0: "0 B", 1023: "1023 B", 1024: "1.0 KiB", 1536: "1.5 KiB", 5 << 20: "5.0 MiB", 3 << 40: "3.0 TiB"} {
		if got := formatBytes(n); got != want {
			t.Errorf("formatBytes(%d) = %q, want %q", n, got, want)
		}
	}
	e := newEnum("a", "a", "b")
	if e.Set("c") == nil || e.Set("b") != nil || e.String() != "b" {
		t.Errorf("enum: %v", e)
	}
	r := newIntRange(-1, -1, 100, "x")
	if r.Set("101") == nil || r.Set("-2") == nil || r.Set("abc") == nil || r.Set("30") != nil || r.val != 30 {
		t.Errorf("intRange: %v", r.val)
	}
	if orList([]string{"a", "b", "c"}) != "a, b or c" || orList([]string{"a"}) != "a" {
		t.Error("orList")
	}
}

// fakeAnalyzer splits on spaces and lowercases; "!" has no terms.
type fakeAnalyzer struct{}

func (fakeAnalyzer) Analyze(_, text string) ([]string, error) {
	return strings.Fields(strings.ToLower(strings.ReplaceAll(text, "!", " "))), nil
}

func TestCompileQuery(t *testing.T) {
	for q, want := range map[string]string{
		`Error`:                    `term(f:"error")`,
		`"A b"`:                    `phrase(f:"a b")`,
		`a\ b`:                     `phrase(f:"a b")`,
		`ab*`:                      `prefix(f:"ab"*,max=3)`,
		`"a b*"`:                   `phraseprefix(f:"a b"*,max=3)`,
		`a (b OR "c d") OR e*`:     `or(and(term(f:"a"), or(term(f:"b"), phrase(f:"c d"))), prefix(f:"e"*,max=3))`,
		`x AND y`:                  `and(term(f:"x"), term(f:"y"))`,
		`"connection refused" foo`: `and(phrase(f:"connection refused"), term(f:"foo"))`,
		`"a b c"~2`:                `phrase(f:"a b c"~2)`,
		`"a"~2`:                    `term(f:"a")`,
		`a -b`:                     `andnot(term(f:"a"), term(f:"b"))`,
		`a b NOT c -"d e"`:         `andnot(and(term(f:"a"), term(f:"b")), or(term(f:"c"), phrase(f:"d e")))`,
		`g:x y`:                    `and(term(g:"x"), term(f:"y"))`,
	} {
		rq, _, err := compileQuery(fakeAnalyzer{}, "f", q, 3)
		if err != nil {
			t.Errorf("%q: %v", q, err)
			continue
		}
		if rq.String() != want {
			t.Errorf("%q: %s, want %s", q, rq.String(), want)
		}
	}
	_, _, err := compileQuery(fakeAnalyzer{}, "f", `ok "!"`, 0)
	if err == nil || exitCode(err) != exitUsage || !strings.Contains(err.Error(), "at column 4") {
		t.Errorf("no terms: %v", err)
	}
	for _, c := range []struct {
		have        []string
		given, want string
		fails       bool
	}{
		{[]string{"msg"}, "", "msg", false},
		{[]string{"a", "text"}, "", "text", false},
		{[]string{"a", "b"}, "", "", true},
		{[]string{"a", "b"}, "b", "b", false},
		{[]string{"a"}, "c", "", true},
	} {
		got, err := defaultField(c.have, c.given)
		if (err != nil) != c.fails || got != c.want {
			t.Errorf("defaultField(%v, %q) = %q, %v", c.have, c.given, got, err)
		}
	}
	if got := caret("ab\tc", 4); got != "  ab c\n     ^" {
		t.Errorf("caret: %q", got)
	}
}

func TestTopTermsOrder(t *testing.T) {
	h := []termDF{{"b", 5}, {"a", 5}, {"c", 9}, {"d", 1}}
	// worse: lower df, then later term.
	if !worse(h[0], h[1]) || worse(h[1], h[0]) || !worse(h[3], h[0]) || worse(h[2], h[0]) {
		t.Fatal("worse")
	}
}
