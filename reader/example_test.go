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

// Build a segment from a few log lines, open it, and run a phrase query.
func Example() {
	dir, err := os.MkdirTemp("", "snii-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "logs.snii")

	// Build: one field ("text"), the standard analyzer, the default
	// codec policy (the 8% budget).
	w, err := writer.Create(context.Background(), path, writer.DefaultOptions("text"))
	if err != nil {
		log.Fatal(err)
	}
	for _, line := range []string{
		"GET /api/orders 200 12ms",                      // doc 0
		"connection refused to db-3:5432, retrying",     // doc 1
		"db-3: pool exhausted; Connection Refused (x3)", // doc 2
		"refused: connection from 10.0.0.7 not allowed", // doc 3
	} {
		if _, err := w.Add(writer.Doc("text", line)); err != nil {
			w.Abort()
			log.Fatal(err)
		}
	}
	if err := w.Close(); err != nil { // writes, fsyncs and renames into place
		log.Fatal(err)
	}

	// Open and query. Segments are immutable and safe for concurrent queries.
	seg, err := reader.Open(path, reader.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer seg.Close()
	// Raw text goes through the field's analyzer (reader.Phrase and
	// reader.Term take analyzed tokens: "Refused" would match nothing).
	q, err := seg.Match("text", "Connection Refused")
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	var prof reader.Profile
	docs, err := seg.Docs(ctx, q, &reader.SearchOptions{Profile: &prof})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(q, docs)

	n, err := seg.Count(ctx, reader.And(reader.Term("text", "db"), reader.PhrasePrefix("text", 0, "connection", "ref")), nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(n, "docs mention db and connection ref*")
	// Output:
	// phrase(text:"connection refused") [1 2]
	// 2 docs mention db and connection ref*
}

// List the terms of a field that start with a prefix, with their document
// frequencies.
func ExampleSegment_Terms() {
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
	for _, line := range []string{"conn reset", "connection refused", "connect timeout", "connection closed"} {
		if _, err := w.Add(writer.Doc("text", line)); err != nil {
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

	terms, errf := seg.Terms(context.Background(), "text", "conn", 0)
	for term, df := range terms {
		fmt.Println(term, df)
	}
	if err := errf(); err != nil {
		log.Fatal(err)
	}
	// Output:
	// conn 1
	// connect 1
	// connection 2
}
