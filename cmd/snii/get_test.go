package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// allIDs returns the arguments "0" .. "n-1".
func allIDs(n int) []string {
	ids := make([]string, n)
	for i := range ids {
		ids[i] = strconv.Itoa(i)
	}
	return ids
}

// TestGetRecords: snii get prints every record byte-equal to its input line
// (lines and jsonl), in the order asked; --json wraps them; a segment built
// with --no-store says it keeps none; bad ids are usage errors.
func TestGetRecords(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		input string
		args  []string
	}{
		{demoFile("app.log"), nil},
		{demoFile("events.jsonl"), []string{"--field", "msg"}},
	} {
		seg := filepath.Join(dir, filepath.Base(c.input)+".snii")
		ok(t, append([]string{"build", "-q", "-o", seg, c.input}, c.args...)...)
		b, err := os.ReadFile(c.input)
		if err != nil {
			t.Fatal(err)
		}
		var lines []string
		for _, l := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
			if strings.TrimSpace(l) != "" || !strings.HasSuffix(c.input, ".jsonl") {
				lines = append(lines, l)
			}
		}
		r := ok(t, append([]string{"get", seg}, allIDs(len(lines))...)...)
		if want := strings.Join(lines, "\n") + "\n"; r.stdout != want {
			t.Errorf("%s: get of every id differs from the input (%d and %d bytes)", c.input, len(r.stdout), len(want))
		}
		r = ok(t, "get", seg, "5", "0", "5", "--json")
		var got []getRecord
		dec := json.NewDecoder(strings.NewReader(r.stdout))
		for dec.More() {
			var g getRecord
			if err := dec.Decode(&g); err != nil {
				t.Fatal(err)
			}
			got = append(got, g)
		}
		if len(got) != 3 || got[0] != (getRecord{5, lines[5]}) || got[1] != (getRecord{0, lines[0]}) || got[2] != got[0] {
			t.Errorf("%s: get --json: %+v", c.input, got)
		}
		r = ok(t, "inspect", seg, "--top", "0")
		if !strings.Contains(r.stdout, "store: "+strconv.Itoa(len(lines))+" records") {
			t.Errorf("%s: inspect does not show the store:\n%s", c.input, r.stdout)
		}
		fails(t, exitUsage, "", []string{"get", seg, strconv.Itoa(len(lines))}, "doc id "+strconv.Itoa(len(lines)))
		fails(t, exitUsage, "", []string{"get", seg, "x"}, `doc id "x"`)
	}
	seg := filepath.Join(dir, "nostore.snii")
	ok(t, "build", "-q", "--no-store", "-o", seg, demoFile("app.log"))
	fails(t, exitFailure, "", []string{"get", seg, "0"}, "keeps no records", "--no-store")
	if r := ok(t, "inspect", seg, "--top", "0"); !strings.Contains(r.stdout, "store: none") {
		t.Errorf("inspect of a --no-store segment:\n%s", r.stdout)
	}
	ok(t, "verify", seg)

	// Merging a segment with records and one without needs --no-store.
	withStore := filepath.Join(dir, "app.log.snii")
	out := filepath.Join(dir, "merged.snii")
	fails(t, exitUsage, "", []string{"merge", "-q", "-o", out, withStore, seg}, "keeps records", "--no-store")
	ok(t, "merge", "-q", "--no-store", "-o", out, withStore, seg)
	fails(t, exitFailure, "", []string{"get", out, "0"}, "keeps no records")
	again := filepath.Join(dir, "again.snii")
	ok(t, "build", "-q", "-o", again, demoFile("app.log"))
	ok(t, "merge", "-q", "-o", out, withStore, again)
	if r := ok(t, "get", out, "0", "3000"); r.stdout != strings.Repeat(ok(t, "get", withStore, "0").stdout, 2) {
		t.Errorf("merged records 0 and 3000:\n%s", r.stdout)
	}
}
