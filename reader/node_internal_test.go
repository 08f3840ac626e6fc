package reader

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoQueryKindDispatch: the engine reaches a query's behaviour through
// its node methods, never by testing its kind: no type switch or type
// assertion in the package's code names a query type (one whose name ends in
// Query, or the Query interface's implementations).
func TestNoQueryKindDispatch(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		ast.Inspect(f, func(n ast.Node) bool {
			var types []ast.Expr
			switch n := n.(type) {
			case *ast.TypeSwitchStmt:
				for _, c := range n.Body.List {
					types = append(types, c.(*ast.CaseClause).List...)
				}
			case *ast.TypeAssertExpr:
				if n.Type != nil {
					types = append(types, n.Type)
				}
			}
			for _, e := range types {
				if s, ok := e.(*ast.StarExpr); ok {
					e = s.X
				}
				if id, ok := e.(*ast.Ident); ok && strings.HasSuffix(id.Name, "Query") {
					t.Errorf("%s: dispatch on the query kind %s (give the node a method)", fset.Position(id.Pos()), id.Name)
				}
			}
			return true
		})
	}
	if checked < 20 {
		t.Fatalf("checked %d files: not run from the package folder?", checked)
	}
}
