package main

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/snii-go/snii/internal/testkit"
)

// flatCases are JSON lines for the flat decoder: flat ones (escapes,
// surrogates, invalid UTF-8, numbers, duplicate keys, dotted paths) and
// lines it must leave to jsonDoc (nested values, escaped keys, invalid JSON).
var flatCases = []string{
	`{"content":"hello world","role":"user"}`,
	` {"content" : "a\nb\t\"c\" \\ \/ \b\f\r" , "step": 12 }  `,
	`{"content":"\u00e9t\u00C9 \ud83d\ude00 \ud83d x \ude00 \ud83d\u0041 \u0000"}`,
	"{\"content\":\"bad \xff\xfe utf8 \xe2\x82 end\"}",
	`{"content":"é ü 日本"}`,
	`{"step":-0.5e+10,"content":true,"role":false,"x":null}`,
	`{"step":0,"content":-12.25E-3}`,
	`{"content":"first","content":"second"}`,
	`{"content":null}`,
	`{"content":""}`,
	`{}`,
	`{"user.name":"dotted key","user":"scalar"}`,
	`{"user":"scalar"}`,
	`{"user":{"name":"nested"}}`,
	`{"content":["a","b"]}`,
	`{"c\u006fntent":"escaped key"}`,
	"{\"k\xff\":\"invalid key\"}",
	`{"content":"x"} trailing`,
	`{"content":"x"}{}`,
	`{"content":01}`,
	`{"content":1.}`,
	`{"content":-}`,
	`{"content":1e}`,
	`{"content":"\x"}`,
	`{"content":"\u12"}`,
	"{\"content\":\"ctl \x01\"}",
	`{"content":"unterminated}`,
	`{"content":tru}`,
	`{"content":"x",}`,
	`{"content" "x"}`,
	`{content:"x"}`,
	`["not an object"]`,
	`"a string"`,
	`{"a":1`,
	`{`,
	`{"a":nul}`,
}

var flatPaths = []string{"content", "role", "step", "x", "user.name", "user", "missing", "content"}

// checkFlat asserts that the flat decoder, where it takes a line, gives
// exactly jsonDoc's fields for it; it reports whether it took it.
func checkFlat(t *testing.T, f *flatJSON, line string, paths []string) bool {
	t.Helper()
	got, ok := f.doc([]byte(line), paths, nil)
	want, err := jsonDoc([]byte(line), paths, nil)
	if !ok {
		return false
	}
	if err != nil {
		t.Fatalf("%q: the flat decoder took a line jsonDoc rejects: %v", line, err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("%q: flat decoder differs from jsonDoc (-want +got):\n%s", line, diff)
	}
	return true
}

func TestFlatJSONMatchesJSONDoc(t *testing.T) {
	var f flatJSON
	took := 0
	for _, line := range flatCases {
		if checkFlat(t, &f, line, flatPaths) {
			took++
		}
	}
	// The first 13 cases are flat; nested values, an escaped or invalid key
	// and every invalid line go to jsonDoc.
	if took != 13 {
		t.Fatalf("the flat decoder took %d of the cases, want the 13 flat ones", took)
	}
	for _, line := range []string{`{"user":{"name":"nested"}}`, `{"c\u006fntent":"escaped key"}`, `{"content":"x"} trailing`, `{"content":01}`} {
		if _, ok := f.doc([]byte(line), flatPaths, nil); ok {
			t.Errorf("%q: taken by the flat decoder, want jsonDoc", line)
		}
	}
}

// TestFlatJSONValuesStay checks that the values of a line stay intact while
// later values of the same line are unescaped (the buffer grows).
func TestFlatJSONValuesStay(t *testing.T) {
	var f flatJSON
	long := strings.Repeat("\\u00e9\xff", 500)
	line := `{"a":"` + long + `","b":"` + long + `","c":7}`
	if !checkFlat(t, &f, line, []string{"a", "b", "c"}) {
		t.Fatal("flat line not taken")
	}
}

// TestFlatJSONAgentLines runs the flat decoder over the agent logs: every
// line is flat, and each gives jsonDoc's fields.
func TestFlatJSONAgentLines(t *testing.T) {
	path := testkit.CorpusPath(t, "agent-trajectories/mini-swe-agent-gemini-3-pro.part1.jsonl")
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	sc.Buffer(nil, 64<<20)
	var f flatJSON
	n := 0
	for sc.Scan() && n < 3000 {
		if !checkFlat(t, &f, sc.Text(), []string{"content", "role", "step"}) {
			t.Fatalf("line %d not flat", n+1)
		}
		n++
	}
	if n == 0 {
		t.Fatal("no lines read")
	}
}

func FuzzFlatJSON(f *testing.F) {
	for _, c := range flatCases {
		f.Add(c)
	}
	var fl flatJSON
	f.Fuzz(func(t *testing.T, line string) {
		checkFlat(t, &fl, line, flatPaths)
	})
}
