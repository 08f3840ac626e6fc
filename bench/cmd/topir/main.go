// Command topir runs BM25 top-k searches on a snii segment a fixed number of
// times, for instruction counts under callgrind: the instructions of one Top
// call are (Ir(2R) - Ir(R)) / R, R the -reps of one run (the fixed cost of
// opening the segment cancels out).
//
//	go run ./cmd/topir -build service -seg /tmp/x/service.snii
//	go build -o /tmp/x/topir ./cmd/topir
//	GODEBUG=asyncpreemptoff=1 GOMAXPROCS=1 valgrind --tool=callgrind \
//	    /tmp/x/topir -seg /tmp/x/service.snii -reps 10 'or:server root in'
//
// A query is "term:T", "or:T1 T2 ...", "phrase:T1 T2 ..." or
// "sloppy:N:T1 T2 ..." on the bench's field. With -build it builds the
// segment of a bench corpus (default options, as bm25check) instead.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/snii-go/snii/bench/peers"
	"github.com/snii-go/snii/reader"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "topir:", err)
		os.Exit(1)
	}
}

func run() error {
	build := flag.String("build", "", "build the segment of this corpus (agent or service) at -seg")
	corpora := flag.String("corpora", "", "shared corpora folder (default: found by walking up)")
	seg := flag.String("seg", "", "segment file")
	reps := flag.Int("reps", 10, "Top calls per query")
	k := flag.Int("k", 10, "top k")
	flag.Parse()
	if *seg == "" {
		return fmt.Errorf("-seg is required")
	}
	if *build != "" {
		root := *corpora
		if root == "" {
			root = peers.FindCorpora()
		}
		c, err := peers.LoadCorpus(root, *build)
		if err != nil {
			return err
		}
		docs := filepath.Join(filepath.Dir(*seg), *build+".docs")
		if err := peers.WriteDocsFile(docs, c.Docs); err != nil {
			return err
		}
		_, err = peers.BuildSnii("snii", docs, *seg, -1, 0)
		return err
	}
	var qs []reader.Query
	for _, a := range flag.Args() {
		q, err := parse(a)
		if err != nil {
			return err
		}
		qs = append(qs, q)
	}
	s, err := reader.Open(*seg, reader.Options{})
	if err != nil {
		return err
	}
	defer s.Close()
	for i, q := range qs {
		for range *reps {
			if _, err := s.Top(context.Background(), q, *k, nil); err != nil {
				return fmt.Errorf("%s: %w", flag.Arg(i), err)
			}
		}
	}
	return nil
}

func parse(a string) (reader.Query, error) {
	kind, rest, _ := strings.Cut(a, ":")
	terms := strings.Fields(rest)
	switch kind {
	case "term":
		if len(terms) == 1 {
			return reader.Term(peers.Field, terms[0]), nil
		}
	case "or":
		qs := make([]reader.Query, len(terms))
		for i, t := range terms {
			qs[i] = reader.Term(peers.Field, t)
		}
		if len(qs) > 0 {
			return reader.Or(qs...), nil
		}
	case "phrase":
		if len(terms) > 0 {
			return reader.Phrase(peers.Field, terms...), nil
		}
	case "sloppy":
		n, r, _ := strings.Cut(rest, ":")
		slop, err := strconv.Atoi(n)
		if err == nil && slop >= 1 && len(strings.Fields(r)) > 0 {
			return reader.SloppyPhrase(peers.Field, slop, strings.Fields(r)...), nil
		}
	}
	return nil, fmt.Errorf("query %q: want term:T, or:T1 T2, phrase:T1 T2 or sloppy:N:T1 T2 (terms separated by spaces)", a)
}
