package snii_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// TestTrialNames: the new user's trial (Example_trial: build, query each
// kind, rank, search three segments, merge) uses at most 30 package-level
// names of the library.
func TestTrialNames(t *testing.T) {
	names := libraryNames(t, "example_trial_test.go")
	t.Logf("%d names: %s", len(names), strings.Join(names, " "))
	if len(names) < 20 { // the trial reaches writer, reader, query, search and merge
		t.Fatalf("only %d names found: %v", len(names), names)
	}
	if len(names) > 30 {
		t.Errorf("the trial needs %d package-level names, want at most 30", len(names))
	}
}

// libraryNames returns the distinct pkg.Name references of file to packages
// of the module, sorted.
func libraryNames(t *testing.T, file string) []string {
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	pkgs := map[string]bool{}
	for _, im := range f.Imports {
		p, _ := strconv.Unquote(im.Path.Value)
		if p == "github.com/snii-go/snii" || strings.HasPrefix(p, "github.com/snii-go/snii/") {
			name := p[strings.LastIndex(p, "/")+1:]
			if im.Name != nil {
				name = im.Name.Name
			}
			pkgs[name] = true
		}
	}
	seen := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok && pkgs[id.Name] {
				seen[id.Name+"."+sel.Sel.Name] = true
			}
		}
		return true
	})
	var out []string
	for n := range seen {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
