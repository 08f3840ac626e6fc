// Package segtest builds segment files for the tests and benchmarks of the
// packages above the writer (writer's external tests, writer/merge, reader).
// It imports writer, so unlike internal/testkit it must not be imported by the
// internal tests of writer's own dependencies (prx, analysis, budget).
package segtest
