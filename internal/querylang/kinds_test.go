package querylang

import "github.com/snii-go/snii/internal/errs"

// kinds returns how many error kinds err wraps.
func kinds(err error) int { return len(errs.Kinds(err)) }
