package snii_test

import (
	"go/doc"
	"go/token"
	"strconv"
	"strings"
	"testing"
)

// maxSurface is the most exported declarations, plus methods of exported
// types, the public packages may hold together.
const maxSurface = 200

// TestSurfaceSize counts the public surface as `go doc -short` lines plus
// `go doc -all` method lines per public package (a const or var group is
// one line; a type's constructors and typed constants are lines of their
// own) and fails above maxSurface.
func TestSurfaceSize(t *testing.T) {
	total := 0
	var per []string
	for _, dir := range publicDirs(t) {
		n := surface(t, dir)
		total += n
		per = append(per, dir+" "+strconv.Itoa(n))
	}
	t.Logf("%d in all: %s", total, strings.Join(per, ", "))
	if total > maxSurface {
		t.Errorf("the public packages export %d declarations and methods, want at most %d", total, maxSurface)
	}
}

// surface counts the package in dir as go doc does.
func surface(t *testing.T, dir string) int {
	fset := token.NewFileSet()
	files := parsePackage(t, fset, dir)
	p, err := doc.NewFromFiles(fset, files, "example.com/"+dir)
	if err != nil {
		t.Fatal(err)
	}
	n := len(p.Consts) + len(p.Vars) + len(p.Funcs)
	for _, ty := range p.Types {
		n += 1 + len(ty.Consts) + len(ty.Vars) + len(ty.Funcs) + len(ty.Methods)
	}
	return n
}
