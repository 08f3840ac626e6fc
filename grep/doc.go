// Package grep matches a regular expression against the stored records of a
// segment, as grep and ripgrep match lines, reading only the records the
// index cannot rule out:
//
//	re := regexp.MustCompile(`conn(ection)? refused`)
//	err := grep.Grep(ctx, seg, re, nil, func(id uint32, rec []byte) error {
//		fmt.Printf("%s\n", rec)
//		return nil
//	})
//
// Grep derives from the regexp's syntax tree (regexp/syntax, simplified) the
// tokens and phrases every matching record must contain, the way Google Code
// Search derives trigrams, but in the field's own terms: each string a match
// must contain goes through the analyzer of the store's text field, and a
// token the string may cut (its first or last) is dropped or kept as a
// wildcard slot (reader.PatternPhrase, reader.Wildcard); the records in
// which the field skipped an over-long token (listed by the segment, format
// 9) are searched without the slots, since a cut token may be part of a
// skipped one. Grep runs that
// query and matches the regexp on the candidates' records only, fetched in
// batches (Segment.Records: a remote segment reads each batch's blocks in one
// round) that are read and matched on one goroutine per CPU, the records
// passed on in id order. A regexp with neither a literal prefix nor an
// assertion is matched by a lazily built automaton that reads each record
// once (regexp would try every position); others by regexp itself. The derived query never drops a record the regexp matches (tested
// against brute force over generated records, regexps and analyzers).
//
// Every record is read, and Profile.Note says why, when the regexp has no
// literal the analyzer keeps (".*", "[0-9]+"), for an inverted match
// (Options.Invert: the index cannot narrow it), and when the store holds JSON
// lines (a record is then not the text of one field).
//
// The regexp is Go's (RE2): matching is linear in each record. It differs
// from ripgrep's in Unicode classes: \w, \b and \d are ASCII in Go.
package grep
