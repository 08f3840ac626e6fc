package writer_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/snii-go/snii/budget"
	"github.com/snii-go/snii/writer"
)

// Build a segment with two fields from a few structured log
// events. The zero Options fields are the defaults (the standard analyzer,
// the 8% codec budget, the default zstd level and memory limit).
func Example() {
	dir, err := os.MkdirTemp("", "snii-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "events.snii")

	o := writer.Options{Fields: []writer.FieldOptions{
		{Name: "msg"},                       // standard analyzer, tokens up to 255 bytes
		{Name: "host", Analyzer: "keyword"}, // the whole value is the term
	}}
	o.Policy = budget.Policy{Kind: budget.Smallest} // always the smallest .prx frame
	w, err := writer.Create(context.Background(), path, o)
	if err != nil {
		log.Fatal(err)
	}
	events := []struct{ host, msg string }{
		{"web-01", "GET /api/orders 200 12ms"},
		{"db-3", "connection refused to db-3:5432, retrying"},
		{"web-02", "token " + strings.Repeat("f0", 150) + " rejected"}, // a 300-byte hex token
	}
	for _, e := range events {
		id, err := w.Add(writer.Doc("host", e.host, "msg", e.msg))
		if err != nil {
			w.Abort() // removes the temp files; nothing is published
			log.Fatal(err)
		}
		fmt.Println("doc", id)
	}
	if err := w.Close(); err != nil { // writes, fsyncs and renames into place
		log.Fatal(err)
	}
	st := w.Stats()
	fmt.Printf("%d docs, %d terms, %d positions, %d token skipped (over 255 bytes)\n",
		st.Docs, st.Terms, st.Positions, st.SkippedTokens)
	// Output:
	// doc 0
	// doc 1
	// doc 2
	// 3 docs, 17 terms, 17 positions, 1 token skipped (over 255 bytes)
}
