// Package errs builds the library's errors: the kinds are the exported values
// of package snii (the module root), re-declared here under short names, plus
// helpers that format a context and wrap a kind with %w.
package errs
