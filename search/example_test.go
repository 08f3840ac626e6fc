package search_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/snii-go/snii/reader"
	"github.com/snii-go/snii/search"
	"github.com/snii-go/snii/writer"
)

// daysSearcher writes one segment per day of log lines into a temp
// directory, opens them and returns a searcher over them, and what closes
// and removes them.
func daysSearcher(lines [][]string) (*search.Searcher, func()) {
	dir, err := os.MkdirTemp("", "snii-example")
	if err != nil {
		log.Fatal(err)
	}
	var segs []*reader.Segment
	done := func() {
		for _, s := range segs {
			s.Close()
		}
		os.RemoveAll(dir)
	}
	for i, day := range lines {
		path := filepath.Join(dir, fmt.Sprintf("day%d.snii", i+1))
		w, err := writer.Create(context.Background(), path, writer.DefaultOptions("text"))
		if err != nil {
			log.Fatal(err)
		}
		for _, line := range day {
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
		segs = append(segs, seg)
	}
	sr, err := search.New(segs, search.Options{}) // global ids: day 1's docs, then day 2's
	if err != nil {
		log.Fatal(err)
	}
	return sr, done
}

var logDays = [][]string{
	{ // day 1: global ids 0..2
		"GET /api/orders 200 12ms",
		"connection refused to db-3:5432, retrying",
		"payment failed: card declined",
	},
	{ // day 2: global ids 3..6
		"connection refused to db-3:5432, connection refused again",
		"GET /api/cart 200 8ms",
		"timeout after 30s talking to db-3",
		"payment failed: timeout",
	},
}

// Rank the documents of two segments (one per day) as one index: the scores
// use the statistics of both, so they are those of one merged segment.
func ExampleSearcher_Top() {
	sr, done := daysSearcher(logDays)
	defer done()

	q := reader.Or(reader.Phrase("text", "connection", "refused"), reader.Term("text", "timeout"))
	hits, err := sr.Top(context.Background(), q, 3, &search.TopOptions{Explain: true})
	if err != nil {
		log.Fatal(err)
	}
	for _, h := range hits {
		seg, local, _ := sr.Locate(h.Doc)
		e := h.Explanation.Children[0] // the one matching clause
		fmt.Printf("doc %d (day %d, doc %d): %.4f from %s (idf %.4f, N %d)\n", h.Doc, seg+1, local, h.Score, e.Query, e.IDF, e.DocCount)
	}
	// Output:
	// doc 3 (day 2, doc 0): 1.2515 from phrase(text:"connection refused") (idf 2.3263, N 7)
	// doc 1 (day 1, doc 1): 0.9683 from phrase(text:"connection refused") (idf 2.3263, N 7)
	// doc 6 (day 2, doc 3): 0.6562 from term(text:"timeout") (idf 1.1632, N 7)
}

// Rank within a filter (here the documents of a time range, as global ids):
// the statistics stay those of every document, and the postings blocks that
// hold no allowed document are skipped.
func ExampleSearcher_Top_filter() {
	sr, done := daysSearcher(logDays)
	defer done()

	ctx := context.Background()
	afternoon := roaring64.New()
	afternoon.AddRange(2, 6) // global ids 2..5
	q := reader.Or(reader.Term("text", "failed"), reader.Term("text", "timeout"))
	hits, err := sr.Top(ctx, q, 10, &search.TopOptions{Filter: afternoon})
	if err != nil {
		log.Fatal(err)
	}
	for _, h := range hits {
		fmt.Printf("doc %d: %.4f\n", h.Doc, h.Score)
	}
	docs, err := sr.Docs(ctx, q, &search.SearchOptions{Filter: afternoon, Limit: 2})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("the first 2 matches in the range:", docs)
	// Output:
	// doc 2: 0.6027
	// doc 5: 0.4841
	// the first 2 matches in the range: [2 5]
}
