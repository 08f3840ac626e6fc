// Package seam connects the CLI, the merge and the tests to the parts of the
// writer and the reader that exist for `snii capture`, `snii build --capture`,
// `snii inspect` and the merge, and are not public API: a callback for every
// .prx window a build encodes, a walk over every stored .prx window of a
// segment, and the whole metadata of a segment's index.
//
// writer.Options embeds a Build and reader.Segment a Segment, each under an
// unexported name: their methods are unexported, so the public packages show
// nothing, yet the functions here accept exactly those types (checked by the
// compiler through the holder interfaces), and no package-level variable is
// involved.
package seam
