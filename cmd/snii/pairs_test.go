package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPairsBudgetFlag: --pairs-budget sets the pair section of build and
// merge (0 writes none), inspect shows it in text and JSON, a merge keeps the
// sources' setting unless told otherwise, and query --profile says when a
// phrase used a pair.
func TestPairsBudgetFlag(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "app.log")
	var b strings.Builder
	for i := 0; i < 400; i++ {
		switch i % 4 {
		case 0:
			fmt.Fprintf(&b, "connection refused by peer %d\n", i)
		case 1:
			fmt.Fprintf(&b, "peer %d refused the connection\n", i)
		default:
			fmt.Fprintf(&b, "connection reset by peer %d\n", i)
		}
	}
	if err := os.WriteFile(in, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	pairsOf := func(seg string) pairsReport {
		t.Helper()
		var rep inspectReport
		if err := json.Unmarshal([]byte(ok(t, "inspect", "--json", seg).stdout), &rep); err != nil {
			t.Fatal(err)
		}
		return rep.Indexes[0].Pairs
	}
	on := filepath.Join(dir, "on.snii")
	ok(t, "build", "-o", on, "--pairs-budget", "100", in)
	p := pairsOf(on)
	if p.BudgetPercent != 100 || p.Kept == 0 || p.Bytes == 0 || p.Bytes > p.Allowance+4 {
		t.Fatalf("--pairs-budget 100: %+v", p)
	}
	if out := ok(t, "inspect", on).stdout; !strings.Contains(out, fmt.Sprintf("%d kept of %d eligible", p.Kept, p.Eligible)) {
		t.Errorf("inspect text lacks the pairs:\n%s", out)
	}
	off := filepath.Join(dir, "off.snii")
	ok(t, "build", "-o", off, "--pairs-budget", "0", in)
	if p := pairsOf(off); p.BudgetPercent != 0 || p.Kept != 0 || p.Bytes != 0 {
		t.Fatalf("--pairs-budget 0: %+v", p)
	}
	// A merge keeps the sources' setting; --pairs-budget overrides it.
	on2 := filepath.Join(dir, "on2.snii")
	ok(t, "build", "-o", on2, "--pairs-budget", "100", in)
	m := filepath.Join(dir, "m.snii")
	ok(t, "merge", "-o", m, on, on2)
	if p := pairsOf(m); p.BudgetPercent != 100 || p.Kept == 0 {
		t.Errorf("merge of --pairs-budget 100 sources: %+v", p)
	}
	m0 := filepath.Join(dir, "m0.snii")
	ok(t, "merge", "-o", m0, "--pairs-budget", "0", on, on2)
	if p := pairsOf(m0); p.BudgetPercent != 0 || p.Kept != 0 {
		t.Errorf("merge --pairs-budget 0: %+v", p)
	}
	// Sources with different settings: a usage error naming the flag.
	fails(t, 2, "", []string{"merge", "-o", filepath.Join(dir, "x.snii"), on, off}, "--pairs-budget")
	// The profile says whether a phrase used its pair.
	out := ok(t, "query", "--profile", "--count", on, `"connection refused"`).stdout
	if !strings.Contains(out, "used the pair section") {
		t.Errorf("query --profile:\n%s", out)
	}
	if out := ok(t, "query", "--profile", "--count", off, `"connection refused"`).stdout; !strings.Contains(out, "pairs") || !strings.Contains(out, "not used") {
		t.Errorf("query --profile without pairs:\n%s", out)
	}
}
