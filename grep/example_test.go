package grep_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"regexp"

	"github.com/snii-go/snii"
	"github.com/snii-go/snii/grep"
	"github.com/snii-go/snii/reader"
	"github.com/snii-go/snii/writer"
)

// Match a regexp against the stored lines of a segment, reading only the
// records of the query derived from it.
func Example() {
	dir, err := os.MkdirTemp("", "snii-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "logs.snii")
	o := writer.DefaultOptions("text")
	o.RecordFormat, o.TextField = snii.RecordText, "text" // a record is the line, as snii build stores it
	w, err := writer.Create(context.Background(), path, o)
	if err != nil {
		log.Fatal(err)
	}
	for _, line := range []string{
		"timeout after 30 ms on db-3",
		"connection refused by db-3",
		"timeout after 250ms on db-1",
		"all good",
	} {
		if _, err := w.Add(writer.Document{Fields: []writer.Field{{Name: "text", Values: []string{line}}}, Record: []byte(line)}); err != nil {
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
	var prof grep.Profile
	re := regexp.MustCompile(`timeout after [0-9]+ ?ms`)
	err = grep.Grep(context.Background(), seg, re, &grep.Options{Profile: &prof}, func(id uint32, rec []byte) error {
		fmt.Printf("%d: %s\n", id, rec)
		return nil
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(prof.Query, prof.Candidates, prof.Matched)
	// Output:
	// 0: timeout after 30 ms on db-3
	// 2: timeout after 250ms on db-1
	// term(text:"after") (not patternphrase(text:wildcard"*timeout" "after",max=0): the regexp matches 2 of 2 sampled candidates: its walk of the dictionary would remove about 0 of 2) 2 2
}
