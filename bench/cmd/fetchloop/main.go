// Command fetchloop repeats one phrase query's fetch on a segment, for
// instruction counts (callgrind: the difference of two round counts is the
// cost of rounds alone) and CPU profiles: count its hits, find its first k
// and load their records, as the store comparison's snii fetcher does
// (bench/peers/store.go), or one part of that.
//
//	fetchloop [-seg S] [-n N] [-k K] [-mode M] [-cpuprofile F] TERM...
//
// Modes: one (AppendDocs with Limit k and Total, then Records: the fetcher),
// two (Count, then AppendDocs with Limit k, then Records), count, docs
// (AppendDocs with Limit k) and records (Records of the first k ids, found
// once before the rounds). The field is "text", as the peers harness builds it.
package main

import (
	"context"
	"flag"
	"fmt"
	"hash/fnv"
	"os"
	"runtime/pprof"
	"strings"

	"github.com/snii-go/snii/reader"
)

func main() {
	seg := flag.String("seg", "store.snii", "segment (the peers store command's, kept with -work)")
	n := flag.Int("n", 1000, "rounds")
	k := flag.Int("k", 20, "records loaded per round")
	mode := flag.String("mode", "one", "one, two, count, docs or records")
	prof := flag.String("cpuprofile", "", "write a CPU profile of the rounds here")
	flag.Parse()
	if err := run(*seg, *n, *k, *mode, *prof, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "fetchloop:", err)
		os.Exit(1)
	}
}

func run(path string, rounds, k int, mode, prof string, terms []string) error {
	if len(terms) == 0 {
		return fmt.Errorf("no phrase terms given")
	}
	s, err := reader.Open(path, reader.Options{})
	if err != nil {
		return err
	}
	defer s.Close()
	ctx := context.Background()
	q := reader.Phrase("text", strings.Fields(strings.Join(terms, " "))...)
	first, err := s.Docs(ctx, q, &reader.SearchOptions{Limit: k})
	if err != nil {
		return err
	}
	if prof != "" {
		f, err := os.Create(prof)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	var ids []uint32
	var total uint64
	var loaded int
	h := fnv.New64a()
	load := func(ids []uint32) error {
		h.Reset()
		loaded = 0
		return s.Records(ctx, ids, func(_ uint32, rec []byte) error {
			loaded += len(rec)
			h.Write(rec)
			return nil
		})
	}
	for range rounds {
		switch mode {
		case "one":
			ids, err = s.AppendDocs(ctx, q, &reader.SearchOptions{Limit: k, Total: &total}, ids[:0])
			if err == nil {
				err = load(ids)
			}
		case "two":
			total, err = s.Count(ctx, q, nil)
			if err == nil {
				ids, err = s.AppendDocs(ctx, q, &reader.SearchOptions{Limit: k}, ids[:0])
			}
			if err == nil {
				err = load(ids)
			}
		case "count":
			total, err = s.Count(ctx, q, nil)
		case "docs":
			ids, err = s.AppendDocs(ctx, q, &reader.SearchOptions{Limit: k}, ids[:0])
		case "records":
			err = load(first)
		default:
			return fmt.Errorf("unknown mode %q (one, two, count, docs or records)", mode)
		}
		if err != nil {
			return err
		}
	}
	hits := "hits not counted"
	if mode == "one" || mode == "two" || mode == "count" {
		hits = fmt.Sprintf("%d hits", total)
	}
	fmt.Printf("%s: %s, first %d, %d bytes loaded (fnv %016x)\n", strings.Join(terms, " "), hits, len(first), loaded, h.Sum64())
	return nil
}
