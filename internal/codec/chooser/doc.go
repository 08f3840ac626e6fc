// Package chooser applies a budget.Policy to the eligible .prx windows of one
// field: the exact frame sizes of each window in (Evaluate,
// FastSize), the codec to store out (Chooser), with the per-field budget of
// docs/BUDGET.md (PrxZstdBudget). Package budget holds what a user sets (the
// Policy) and reads (the Outcome); the prx encoder, the capture replay and
// the tests run the decisions through this package.
package chooser
