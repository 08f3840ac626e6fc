package s3_test

import (
	"context"
	"fmt"
	"log"

	"github.com/snii-go/snii/objstore/s3"
	"github.com/snii-go/snii/reader"
)

// Open a segment stored in S3-compatible storage and count the documents
// of a phrase, with what the query cost in round trips. It needs a server
// (the endpoint, region and credentials come from the AWS environment
// variables), so it is compiled but not run.
func ExampleClient_OpenSegment() {
	ctx := context.Background()
	client, err := s3.New(s3.Config{}, s3.NewCache(s3.DefaultCacheBytes))
	if err != nil {
		log.Fatal(err)
	}
	seg, err := client.OpenSegment(ctx, "logs", "2026/12/07/app.snii", reader.Options{})
	if err != nil {
		log.Fatal(err) // errors.Is(err, snii.ErrNotFound) for a missing bucket or key
	}
	defer seg.Close()

	q, err := seg.Match("text", "connection refused") // the field's analyzer
	if err != nil {
		log.Fatal(err)
	}
	var prof reader.Profile
	n, err := seg.Count(ctx, q, &reader.SearchOptions{Profile: &prof})
	if err != nil {
		log.Fatal(err)
	}
	open := seg.OpenCost()
	fmt.Printf("%d documents; open: %d rounds, query: %d rounds, %d requests, %d bytes\n",
		n, open.Rounds, prof.Rounds, prof.Requests, prof.FetchedBytes)
}
