package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/snii-go/snii/writer"
)

// Input formats of snii build.
const (
	formatLines = "lines" // every line is a document with one field, "text"
	formatJSONL = "jsonl" // every line is a JSON object; --field paths pick the fields
)

// linesField is the field of a document read from a "lines" input.
const linesField = "text"

// maxLineBytes is the longest input line accepted; longer lines are bad lines.
const maxLineBytes = 64 << 20

// input is one resolved input of snii build.
type input struct {
	name   string // as given; "-" is stdin
	label  string // for messages: the path, or "<stdin>"
	format string // formatLines or formatJSONL
	size   int64  // bytes on disk, -1 when unknown (stdin)
}

// formatFor returns the format implied by a file name: .jsonl, .ndjson and .json
// (optionally followed by .gz) are jsonl, everything else is lines.
func formatFor(name string) string {
	name = strings.TrimSuffix(strings.ToLower(name), ".gz")
	switch filepath.Ext(name) {
	case ".jsonl", ".ndjson", ".json":
		return formatJSONL
	}
	return formatLines
}

// resolveInputs checks that every input exists and is a readable regular file
// (or "-", at most once) and resolves its format: format, or by extension when
// format is "" (stdin: lines).
func resolveInputs(names []string, format string) ([]input, error) {
	if len(names) == 0 {
		return nil, usagef("no inputs: give files, or - for stdin")
	}
	out := make([]input, 0, len(names))
	stdin := false
	for _, n := range names {
		in := input{name: n, label: n, format: format, size: -1}
		if n == "-" {
			if stdin {
				return nil, usagef("stdin (-) given twice")
			}
			stdin = true
			in.label = "<stdin>"
			if in.format == "" {
				in.format = formatLines
			}
			out = append(out, in)
			continue
		}
		st, err := os.Stat(n)
		if err != nil {
			return nil, fmt.Errorf("input %w", err)
		}
		if st.IsDir() {
			return nil, fmt.Errorf("input %s: is a directory (give the files inside it)", n)
		}
		if st.Mode().IsRegular() {
			// Opened now so that an unreadable file fails before the build
			// starts; a FIFO is not (its open waits for a writer).
			f, err := os.Open(n)
			if err != nil {
				return nil, fmt.Errorf("input %w", err)
			}
			f.Close()
			in.size = st.Size()
		}
		if in.format == "" {
			in.format = formatFor(n)
		}
		out = append(out, in)
	}
	return out, nil
}

// openInput opens an input file. Opening a FIFO waits for a writer, in a
// system call no signal interrupts, so the open runs on a goroutine of its
// own and a done ctx returns at once (a *os.PathError wrapping ctx's error;
// the file, if its open ever completes, is then closed).
func openInput(ctx context.Context, name string) (*os.File, error) {
	type opened struct {
		f   *os.File
		err error
	}
	ch := make(chan opened, 1)
	go func() {
		f, err := os.Open(name)
		ch <- opened{f, err}
	}()
	select {
	case o := <-ch:
		return o.f, o.err
	case <-ctx.Done():
		go func() {
			if o := <-ch; o.f != nil {
				o.f.Close()
			}
		}()
		return nil, &os.PathError{Op: "open", Path: name, Err: ctx.Err()}
	}
}

// inputOptions controls how inputs become documents.
type inputOptions struct {
	Fields       []string // jsonl: the dotted JSON paths to index, each a field
	SkipBadLines bool     // skip (and count) invalid lines instead of failing
	MaxLineBytes int      // longest line accepted (0: maxLineBytes); longer lines are bad lines
	// OnBytes, when set, is called with the number of input bytes (as stored,
	// i.e. compressed for .gz files) consumed since the last call.
	OnBytes func(n int64)
}

// inputStats counts what readInputs consumed.
type inputStats struct {
	Docs     int64 // documents emitted
	BadLines int64 // lines skipped by SkipBadLines
	Bytes    int64 // input bytes as stored
}

// badLine is a line that is not a valid document (skipped by SkipBadLines).
type badLine struct{ msg string }

func (e *badLine) Error() string { return e.msg }

func badLinef(format string, args ...any) error { return &badLine{fmt.Sprintf(format, args...)} }

func isBadLine(err error) bool {
	var b *badLine
	return errors.As(err, &b)
}

// emitFunc receives one document: its fields and its record, the input line
// without its line ending (lines: the line; jsonl: the JSON line as read).
// Both are valid only during the call.
type emitFunc func(d []writer.Field, rec []byte) error

// readInputs reads the inputs in order and calls emit once per document. Errors
// name the input and line: "events.jsonl:17: invalid JSON: ...".
func readInputs(ctx context.Context, ins []input, stdin io.Reader, o inputOptions, emit emitFunc) (inputStats, error) {
	var st inputStats
	for _, in := range ins {
		if err := readInput(ctx, in, stdin, o, &st, emit); err != nil {
			return st, err
		}
	}
	return st, nil
}

// countingReader counts the bytes read through it and reports them.
type countingReader struct {
	r  io.Reader
	n  int64
	fn func(int64)
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	if c.fn != nil && n > 0 {
		c.fn(int64(n))
	}
	return n, err
}

func readInput(ctx context.Context, in input, stdin io.Reader, o inputOptions, st *inputStats, emit emitFunc) (err error) {
	var src io.Reader
	if in.name == "-" {
		src = stdin
	} else {
		f, err := openInput(ctx, in.name)
		if err != nil {
			return fmt.Errorf("input %w", err)
		}
		defer f.Close()
		src = f
	}
	cr := &countingReader{r: src, fn: o.OnBytes}
	defer func() { st.Bytes += cr.n }()
	br := bufio.NewReaderSize(cr, 256<<10)
	gzipped := false
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		gz, err := gzip.NewReader(br)
		if err != nil {
			return gzipErr(in.label, 0, err)
		}
		defer gz.Close()
		br = bufio.NewReaderSize(gz, 256<<10)
		gzipped = true
	} else if strings.HasSuffix(strings.ToLower(in.name), ".gz") {
		return fmt.Errorf("%s: not a gzip file (it does not start with the gzip magic bytes 1f 8b); "+
			"rename it without .gz, or pipe it to - (stdin), to index it as plain text", in.label)
	}
	lr := lineReader{r: br, max: o.MaxLineBytes}
	if lr.max <= 0 {
		lr.max = maxLineBytes
	}
	var doc [1]writer.Field
	var fields []writer.Field
	var flat flatJSON
	for {
		line, err := lr.next()
		if err == io.EOF {
			return nil
		}
		if err != nil && !isBadLine(err) {
			if gzipped {
				return gzipErr(in.label, lr.line-1, err)
			}
			return fmt.Errorf("%s: read after line %d: %w", in.label, lr.line-1, err)
		}
		if lr.line%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		var d []writer.Field
		if err == nil {
			switch in.format {
			case formatLines:
				doc[0] = writer.Field{Name: linesField, Values: []string{string(line)}}
				d = doc[:]
			default:
				if len(bytes.TrimSpace(line)) == 0 {
					continue // blank lines between JSON objects are not documents
				}
				var ok bool
				if fields, ok = flat.doc(line, o.Fields, fields[:0]); !ok {
					fields, err = jsonDoc(line, o.Fields, fields[:0])
				}
				d = fields
			}
		}
		if err != nil {
			if o.SkipBadLines {
				st.BadLines++
				continue
			}
			hint := ""
			if isBadLine(err) {
				hint = " (--skip-bad-lines skips such lines and counts them)"
			}
			return fmt.Errorf("%s:%d: %w%s", in.label, lr.line, err, hint)
		}
		if err := emit(d, line); err != nil {
			var nl notLineError
			if errors.As(err, &nl) {
				return nl.err // about the build (temp dir, disk), not this line
			}
			return fmt.Errorf("%s:%d: %w", in.label, lr.line, err)
		}
		st.Docs++
	}
}

// notLineError marks an error of emit that is not caused by the document it
// was given (a full disk, an unwritable temp dir): readInputs returns it
// without naming the input line.
type notLineError struct{ err error }

func (e notLineError) Error() string { return e.err.Error() }
func (e notLineError) Unwrap() error { return e.err }

// gzipErr describes a failure to decompress a gzip input after line lines: a
// truncated file says so (gzip itself reports only "unexpected EOF").
func gzipErr(label string, lines int, err error) error {
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return fmt.Errorf("%s: gzip file truncated after line %d (the compressed stream ends early): %w", label, lines, err)
	}
	return fmt.Errorf("%s: corrupt gzip data after line %d: %w", label, lines, err)
}

// lineReader splits a stream into lines without their "\n" or "\r\n".
type lineReader struct {
	r    *bufio.Reader
	buf  []byte
	max  int // longest line accepted
	line int // 1-based number of the line last returned
}

// next returns the next line (valid until the next call), io.EOF at the end, or
// a *badLine error for a line longer than l.max (the line is
// consumed).
func (l *lineReader) next() ([]byte, error) {
	b, err := l.r.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		l.buf = append(l.buf[:0], b...)
		for err == bufio.ErrBufferFull {
			b, err = l.r.ReadSlice('\n')
			if len(l.buf) <= l.max {
				l.buf = append(l.buf, b...)
			}
		}
		b = l.buf
	}
	if err != nil && err != io.EOF {
		l.line++
		return nil, err
	}
	if err == io.EOF && len(b) == 0 {
		return nil, io.EOF
	}
	l.line++
	b = bytes.TrimSuffix(b, []byte{'\n'})
	b = bytes.TrimSuffix(b, []byte{'\r'})
	if len(b) > l.max {
		return nil, badLinef("line longer than %s (--max-line-bytes; a document's buffers come on top of --memory)", formatBytes(int64(l.max)))
	}
	return b, nil
}

// jsonDoc parses one JSON object and extracts the values at each path.
func jsonDoc(line []byte, paths []string, dst []writer.Field) ([]writer.Field, error) {
	d := json.NewDecoder(bytes.NewReader(line))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return dst, badLinef("invalid JSON: %v", err)
	}
	if _, err := d.Token(); err != io.EOF {
		return dst, badLinef("invalid JSON: data after the object")
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return dst, badLinef("not a JSON object (found %s)", jsonKind(v))
	}
	for _, p := range paths {
		if vals := extract(obj, p, nil); len(vals) > 0 {
			dst = append(dst, writer.Field{Name: p, Values: vals})
		}
	}
	return dst, nil
}

func jsonKind(v any) string {
	switch v.(type) {
	case []any:
		return "an array"
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	return "an object"
}

// extract appends the values at a dotted path below v: strings as they are,
// numbers as written, booleans as true/false; arrays contribute every element
// (at any level), null and objects nothing. A key that itself contains dots is
// matched whole before the path is split at a dot.
func extract(v any, path string, out []string) []string {
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			out = extract(e, path, out)
		}
		return out
	case map[string]any:
		if path == "" {
			return out
		}
		if e, ok := x[path]; ok {
			return extract(e, "", out)
		}
		for i := 0; i < len(path); i++ {
			if path[i] != '.' {
				continue
			}
			if e, ok := x[path[:i]]; ok {
				return extract(e, path[i+1:], out)
			}
		}
		return out
	}
	if path != "" {
		return out
	}
	switch x := v.(type) {
	case string:
		return append(out, x)
	case json.Number:
		return append(out, x.String())
	case bool:
		if x {
			return append(out, "true")
		}
		return append(out, "false")
	}
	return out
}
