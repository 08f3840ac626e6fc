package snii_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/snii-go/snii/query"
	"github.com/snii-go/snii/reader"
	"github.com/snii-go/snii/search"
	"github.com/snii-go/snii/writer"
	"github.com/snii-go/snii/writer/merge"
)

// A new user's trial of the library: build three segments, query each kind,
// rank, search the three as one collection, and merge them; a ranked search
// over the three gives the same documents and scores as one over their merge.
// TestTrialNames counts the package-level names it uses.
func Example_trial() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "snii-trial")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	days := [][]string{
		{"connection refused to db-3", "GET /health 200", "connection reset by peer"},
		{"connection refused again", "timeout connecting to db-3", "NullPointerException in handler"},
		{"GET /index 200", "connection timed out after 30s", "conection refused (typo)"},
	}

	// Build: one segment per day.
	var segs []*reader.Segment
	for i, lines := range days {
		path := filepath.Join(dir, fmt.Sprintf("day%d.snii", i))
		w, err := writer.Create(ctx, path, writer.DefaultOptions("text"))
		if err != nil {
			log.Fatal(err)
		}
		for _, line := range lines {
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
		segs = append(segs, seg)
	}

	// Query each kind on the second day, from Go and from the query language.
	day := segs[1]
	fromText, err := query.Compile(`"/conn.*/ refused" OR db-*`, day, query.Options{DefaultField: "text"})
	if err != nil {
		log.Fatal(err)
	}
	match, err := day.Match("text", "Connection Refused") // the field's analyzer
	if err != nil {
		log.Fatal(err)
	}
	for _, q := range []reader.Query{
		reader.Term("text", "connection"),
		reader.Phrase("text", "connection", "refused"),
		reader.PhrasePrefix("text", 0, "connection", "ref"),
		reader.SloppyPhrase("text", 2, "timeout", "db"),
		reader.Prefix("text", "conn", 0),
		reader.Fuzzy("text", "conection", 1, 0),
		reader.Regexp("text", "null.*", 0),
		reader.Wildcard("text", "*exception", 0),
		reader.PatternPhrase("text", []reader.Slot{{Kind: reader.SlotRegexp, Text: "conn.*"}, {Text: "refused"}}, 0),
		reader.And(reader.Term("text", "connection"), reader.Term("text", "again")),
		reader.Or(reader.Term("text", "timeout"), reader.Term("text", "handler")),
		reader.AndNot(reader.Prefix("text", "conn", 0), reader.Term("text", "again")),
		fromText,
		match,
	} {
		docs, err := day.Docs(ctx, q, nil)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(q, docs)
	}

	// Rank one segment, then the three as one collection.
	q := reader.Or(reader.Term("text", "connection"), reader.Term("text", "refused"))
	hits, err := day.Top(ctx, q, 2, nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, h := range hits {
		fmt.Printf("day 1: doc %d, score %.4f\n", h.Doc, h.Score)
	}
	sr, err := search.New(segs, search.Options{})
	if err != nil {
		log.Fatal(err)
	}
	all, err := sr.Top(ctx, q, 5, nil)
	if err != nil {
		log.Fatal(err)
	}

	// Merge the three and rank the merged segment: the same ids and scores.
	path := filepath.Join(dir, "all.snii")
	sources := []merge.Source{{Segment: segs[0]}, {Segment: segs[1]}, {Segment: segs[2]}}
	if _, err := merge.Merge(ctx, path, sources, merge.Options{}); err != nil {
		log.Fatal(err)
	}
	merged, err := reader.Open(path, reader.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer merged.Close()
	one, err := merged.Top(ctx, q, 5, nil)
	if err != nil {
		log.Fatal(err)
	}
	same := len(one) == len(all)
	for i := range one {
		same = same && uint64(one[i].Doc) == all[i].Doc && one[i].Score == all[i].Score
	}
	fmt.Println("ranked over 3 segments:", len(all), "hits; same as the merged segment:", same)
	// Output:
	// term(text:"connection") [0]
	// phrase(text:"connection refused") [0]
	// phraseprefix(text:"connection ref"*,max=0) [0]
	// phrase(text:"timeout db"~2) [1]
	// prefix(text:"conn"*,max=0) [0 1]
	// fuzzy(text:"conection"~1,max=0) [0]
	// regexp(text:/null.*/,max=0) [2]
	// wildcard(text:"*exception",max=0) [2]
	// patternphrase(text:/conn.*/ "refused",max=0) [0]
	// and(term(text:"connection"), term(text:"again")) [0]
	// or(term(text:"timeout"), term(text:"handler")) [1 2]
	// andnot(prefix(text:"conn"*,max=0), term(text:"again")) [1]
	// or(patternphrase(text:/conn.*/ "refused",max=0), prefix(text:"db"*,max=0)) [0 1]
	// phrase(text:"connection refused") [0]
	// day 1: doc 0, score 0.9633
	// ranked over 3 segments: 5 hits; same as the merged segment: true
}
