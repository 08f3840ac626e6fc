// Package jsonstr decodes the contents of JSON strings as encoding/json does,
// one unit (an escape or a character) at a time, for the CLI's one-pass JSON
// lines reader and the reader's record highlights, which map each decoded
// byte back to the record's bytes.
package jsonstr
