package query_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/snii-go/snii"
	"github.com/snii-go/snii/query"
	"github.com/snii-go/snii/reader"
	"github.com/snii-go/snii/writer"
)

// Search a segment with the query language: Compile runs each field's
// analyzer over the text, and bare text searches Options.DefaultField.
func Example_segment() {
	dir, err := os.MkdirTemp("", "snii-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "logs.snii")
	w, err := writer.Create(context.Background(), path, writer.DefaultOptions("host", "text"))
	if err != nil {
		log.Fatal(err)
	}
	for _, d := range [][2]string{
		{"web-01", "Connection refused to db-3"},
		{"web-02", "connection reset by peer"},
		{"web-01", "GET /health 200"},
	} {
		if _, err := w.Add(writer.Doc("host", d[0], "text", d[1])); err != nil {
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

	q, err := query.Compile(`host:web-01 -health`, seg, query.Options{DefaultField: "text"})
	if err != nil {
		log.Fatal(err)
	}
	docs, err := seg.Docs(context.Background(), q, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(q, docs)

	// Every error is a bad query (snii.ErrInvalidArgument) with a column,
	// except a field the segment does not have (snii.ErrNotFound).
	_, err = query.Compile(`"connection refused`, seg, query.Options{DefaultField: "text"})
	fmt.Println(err, errors.Is(err, snii.ErrInvalidArgument))
	_, err = query.Compile(`refused`, seg, query.Options{})
	fmt.Println(err, errors.Is(err, snii.ErrInvalidArgument))
	_, err = query.Compile(`level:error`, seg, query.Options{DefaultField: "text"})
	fmt.Println(errors.Is(err, snii.ErrNotFound))
	// Output:
	// andnot(phrase(host:"web 01"), term(text:"health")) [0]
	// at column 20: expected closing quote for the phrase opened at column 1 true
	// at column 1: refused names no field and Options.DefaultField is empty (write field:text or set a default field) true
	// true
}
