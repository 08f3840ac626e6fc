package analysis_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"slices"
	"unicode"
	"unicode/utf8"

	"github.com/snii-go/snii/analysis"
	"github.com/snii-go/snii/reader"
	"github.com/snii-go/snii/writer"
)

// dotted keeps dotted names and addresses whole ("10.0.0.7", "db-3.internal"):
// a token is a run of letters, digits, '.', '-' and '_', lowercased, without
// its trailing dots. It reuses one buffer, so it is used by one goroutine
// (the factory returns a fresh one each time).
type dotted struct {
	max int // the spec's max_token_bytes: longer tokens are skipped
	buf []byte
}

func (d *dotted) Analyze(text string, emit func(term []byte, pos uint32)) (positions, skipped uint32) {
	inToken := func(r rune) bool {
		return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '.' || r == '-' || r == '_'
	}
	flush := func() {
		for len(d.buf) > 0 && d.buf[len(d.buf)-1] == '.' {
			d.buf = d.buf[:len(d.buf)-1]
		}
		switch {
		case len(d.buf) == 0:
		case len(d.buf) > d.max:
			skipped++
			positions++
		default:
			emit(d.buf, positions)
			positions++
		}
		d.buf = d.buf[:0]
	}
	for _, r := range text {
		if inToken(r) {
			d.buf = utf8.AppendRune(d.buf, unicode.ToLower(r))
		} else {
			flush()
		}
	}
	flush()
	return positions, skipped
}

// Register a custom analyzer, build a segment whose field uses it, and
// search raw text through it: Segment.Match analyzes with the analyzer the
// segment records, so queries see the same tokens as the documents.
func ExampleRegister() {
	// Register once per program, typically in an init function (a name and
	// version registered twice panic). A segment records "dotted", and a
	// program that opens it must have registered it too.
	if !slices.Contains(analysis.Names(), "dotted") {
		analysis.Register("dotted", 1, func(sp analysis.Spec) (analysis.Analyzer, error) {
			return &dotted{max: sp.MaxTokenBytes}, nil
		})
	}

	dir, err := os.MkdirTemp("", "snii-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "logs.snii")
	w, err := writer.Create(context.Background(), path, writer.Options{Fields: []writer.FieldOptions{{Name: "text", Analyzer: "dotted"}}})
	if err != nil {
		log.Fatal(err)
	}
	for _, line := range []string{
		"connection from 10.0.0.7 refused",
		"connection from 10.0.0.8 refused",
		"db-3.internal: slow query.",
	} {
		if _, err := w.Add(writer.Doc("text", line)); err != nil {
			w.Abort()
			log.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}

	seg, err := reader.Open(path, reader.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer seg.Close()
	for _, text := range []string{"from 10.0.0.7", "DB-3.internal"} {
		q, err := seg.Match("text", text)
		if err != nil {
			log.Fatal(err)
		}
		docs, err := seg.Docs(context.Background(), q, nil)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(q, docs)
	}
	// Output:
	// phrase(text:"from 10.0.0.7") [0]
	// term(text:"db-3.internal") [2]
}
