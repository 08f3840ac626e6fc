package reader_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/snii-go/snii/reader"
	"github.com/snii-go/snii/writer"
)

// Term patterns: a regular expression and a wildcard over whole terms, and a
// phrase with a pattern position.
func ExampleRegexp() {
	dir, err := os.MkdirTemp("", "snii-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "logs.snii")
	w, err := writer.Create(context.Background(), path, writer.DefaultOptions("text"))
	if err != nil {
		log.Fatal(err)
	}
	for _, line := range []string{
		"java.lang.NullPointerException at Foo.bar", // doc 0
		"connection refused by db-3",                // doc 1
		"conn refused again",                        // doc 2
		"IllegalStateException: reconnect refused",  // doc 3
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
	ctx := context.Background()
	for _, q := range []reader.Query{
		reader.Regexp("text", "conn(ection)?", 0), // the terms are lowercase: so is the pattern
		reader.Wildcard("text", "*exception", 0),
		reader.PatternPhrase("text", []reader.Slot{{Kind: reader.SlotRegexp, Text: "(re)?conn.*"}, {Text: "refused"}}, 0),
	} {
		docs, err := seg.Docs(ctx, q, nil)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(q, docs)
	}
	// Output:
	// regexp(text:/conn(ection)?/,max=0) [1 2]
	// wildcard(text:"*exception",max=0) [0 3]
	// patternphrase(text:/(re)?conn.*/ "refused",max=0) [1 2 3]
}
