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

// Rank the documents by BM25 and print why the best one scores what it does.
func ExampleSegment_Top() {
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
		"db-3 connection refused",
		"connection refused by peer, connection refused again",
		"GET /health 200",
		"db-3 slow query",
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

	refused, err := seg.Match("text", "Connection refused")
	if err != nil {
		log.Fatal(err)
	}
	db, err := seg.Match("text", "db")
	if err != nil {
		log.Fatal(err)
	}
	hits, err := seg.Top(context.Background(), reader.Or(refused, db), 2, &reader.TopOptions{Explain: true})
	if err != nil {
		log.Fatal(err)
	}
	for _, h := range hits {
		fmt.Printf("doc %d, score %.4f\n", h.Doc, h.Score)
	}
	fmt.Println(hits[0].Explanation)
	// Output:
	// doc 0, score 0.9902
	// doc 1, score 0.7493
	// 0.99021 = sum of 2 matching clauses of or(phrase(text:"connection refused"), term(text:"db"))
	//   0.66014 = phrase(text:"connection refused"): idf 1.38629 (N 4) · freq 1 / (freq + k1 1.2 · (1 - b 0.75 + b · field length 4 / avg 4.5))
	//   0.33007 = term(text:"db"): idf 0.693147 (N 4, df 2) · freq 1 / (freq + k1 1.2 · (1 - b 0.75 + b · field length 4 / avg 4.5))
}
