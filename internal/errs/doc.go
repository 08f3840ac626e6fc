// Package errs holds the sentinel error kinds shared by every snii package.
//
// The public packages re-export these values (index.ErrCorrupt is errs.Corrupt), so
// errors.Is works with whichever name a caller imports.
package errs
