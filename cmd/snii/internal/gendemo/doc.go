// Command gendemo writes the demo corpus of testdata/demo: synthetic application
// logs (app.log, one entry a line) and structured events (events.jsonl). The
// output is a pure function of the code: a fixed-seed generator of its own (not
// math/rand, whose derived streams may change between Go releases), a fixed start
// time, no clock, no environment. Regenerate with
//
//	go generate ./cmd/snii
//
// and the test of this package checks that the committed files are up to date.
package main
