// Package analysis holds the analyzers that turn a field's text into terms and
// positions, and their registry.
//
// A writer.FieldOptions names its analyzer with a spec string (see Spec):
// "standard" (the default), "whitespace", "keyword", a setting such as
// "standard;max_token_bytes=1024", or an analyzer registered with Register. The
// segment records the spec of every field, and the reader analyzes query text
// with it, so a phrase is split the same way at build and at query time.
// Opening a segment whose analyzer (name and version) is not registered in the
// program fails with an error wrapping snii.ErrNotFound.
//
// Tokens longer than the analyzer's limit (DefaultMaxTokenBytes, 255 bytes,
// unless the spec sets max_token_bytes) are skipped but take their position,
// so phrase adjacency across them is not invented; the build counts them
// (writer.Stats.SkippedTokens, recorded per field and shown by `snii inspect`).
//
// The codecs of the segment format itself (layout, dictionary blocks, doc
// windows, preludes) are internal to the module; docs/FORMAT.md describes them.
package analysis
