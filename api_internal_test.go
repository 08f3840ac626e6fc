package snii_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// TestNoInternalTypeInAPI: no exported declaration of a public package (one
// outside internal/, cmd/ and bench/) mentions a type of an internal package:
// not in a function or method signature, a field or embedded type of an
// exported struct, a method of an exported interface, an alias, or the type of
// an exported constant or variable. A user cannot name such a type, so it must
// not reach them.
func TestNoInternalTypeInAPI(t *testing.T) {
	var leaks []string
	dirs := publicDirs(t)
	if len(dirs) < 5 {
		t.Fatalf("found %d public packages (%v): run from the module root", len(dirs), dirs)
	}
	for _, dir := range dirs {
		leaks = append(leaks, internalMentions(t, dir)...)
	}
	sort.Strings(leaks)
	for _, l := range leaks {
		t.Error(l)
	}
}

// TestInternalMentionsFound: the check finds each way an internal type can
// leak, so that TestNoInternalTypeInAPI cannot pass by finding nothing.
func TestInternalMentionsFound(t *testing.T) {
	dir := t.TempDir()
	src := `package p

import (
	"example.com/m/internal/a"
	x "example.com/m/internal/b"
	"io"
)

type Alias = a.T
type S struct {
	a.Embedded
	F x.T
	ok io.Reader
	hidden a.T
}
type I interface{ M() a.T }
func F(a.T) io.Reader { return nil }
func (S) M() map[string]*x.T { return nil }
func (S) unexported() a.T { var z a.T; return z }
const C = a.Const
var V []a.T
var W = a.New()
type fine struct{ f a.T }
func g(a.T) {}
`
	if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	got := internalMentions(t, dir)
	for _, want := range []string{"Alias", "S.Embedded", "S.F", "I.M", "F", "S.M", "C", "V", "W"} {
		found := false
		for _, l := range got {
			if strings.Contains(l, ": "+want+" mentions ") {
				found = true
			}
		}
		if !found {
			t.Errorf("%s not reported; got %q", want, got)
		}
	}
	if len(got) != 9 {
		t.Errorf("%d mentions, want 9: %q", len(got), got)
	}
}

// parsePackage parses the non-test Go files of dir, with their comments.
func parsePackage(t *testing.T, fset *token.FileSet, dir string) []*ast.File {
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return files
}

// publicDirs returns the directories of the module's public packages.
func publicDirs(t *testing.T) []string {
	var dirs []string
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		base := d.Name()
		if p != "." && (strings.HasPrefix(base, ".") || strings.HasPrefix(base, "_") || base == "testdata" ||
			base == "internal" || base == "cmd" || base == "bench" || base == "docs" || base == "scripts") {
			return filepath.SkipDir
		}
		if m, _ := filepath.Glob(filepath.Join(p, "*.go")); len(m) > 0 {
			dirs = append(dirs, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return dirs
}

// internalMentions parses the non-test files of the package in dir and
// returns "file: Decl mentions pkg.Name" for each internal type its exported
// declarations mention.
func internalMentions(t *testing.T, dir string) []string {
	fset := token.NewFileSet()
	var out []string
	for _, f := range parsePackage(t, fset, dir) {
		path := fset.Position(f.Package).Filename
		internal := map[string]string{} // import name -> path
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if !strings.Contains("/"+p+"/", "/internal/") {
				continue
			}
			name := p[strings.LastIndex(p, "/")+1:]
			if im.Name != nil {
				name = im.Name.Name
			}
			internal[name] = p
		}
		if len(internal) == 0 {
			continue
		}
		report := func(decl string, n ast.Node) {
			if n == nil {
				return
			}
			ast.Inspect(n, func(n ast.Node) bool {
				if sel, ok := n.(*ast.SelectorExpr); ok {
					if id, ok := sel.X.(*ast.Ident); ok && internal[id.Name] != "" {
						out = append(out, path+": "+decl+" mentions "+internal[id.Name]+"."+sel.Sel.Name)
					}
				}
				return true
			})
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() {
					continue
				}
				name := d.Name.Name
				if d.Recv != nil {
					recv := recvName(d.Recv.List[0].Type)
					if !ast.IsExported(recv) {
						continue
					}
					name = recv + "." + name
					report(name, d.Recv)
				}
				report(name, d.Type)
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						if s.Name.IsExported() {
							typeMentions(s, report)
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if !n.IsExported() {
								continue
							}
							report(n.Name, s.Type)
							if s.Type == nil { // the type is the value's
								for _, v := range s.Values {
									report(n.Name, v)
								}
							}
						}
					}
				}
			}
		}
	}
	return out
}

// typeMentions reports what an exported type declaration shows a user: an
// alias's target, an exported struct's exported and embedded fields, an
// interface's methods, any other type's definition.
func typeMentions(s *ast.TypeSpec, report func(string, ast.Node)) {
	name := s.Name.Name
	switch tt := s.Type.(type) {
	case *ast.StructType:
		if s.Assign.IsValid() {
			report(name, tt)
			return
		}
		for _, fl := range tt.Fields.List {
			if len(fl.Names) == 0 { // embedded: its exported members are promoted
				report(name+"."+embeddedName(fl.Type), fl.Type)
				continue
			}
			for _, fn := range fl.Names {
				if fn.IsExported() {
					report(name+"."+fn.Name, fl.Type)
				}
			}
		}
	case *ast.InterfaceType:
		for _, m := range tt.Methods.List {
			if len(m.Names) == 0 {
				report(name+"."+embeddedName(m.Type), m.Type)
				continue
			}
			for _, mn := range m.Names {
				report(name+"."+mn.Name, m.Type)
			}
		}
	default:
		report(name, s.Type)
	}
}

// recvName is the type name of a method receiver.
func recvName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return recvName(e.X)
	case *ast.IndexExpr:
		return recvName(e.X)
	case *ast.IndexListExpr:
		return recvName(e.X)
	case *ast.Ident:
		return e.Name
	}
	return ""
}

// embeddedName is the field name of an embedded type.
func embeddedName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return embeddedName(e.X)
	case *ast.SelectorExpr:
		return e.Sel.Name
	case *ast.Ident:
		return e.Name
	}
	return "?"
}
