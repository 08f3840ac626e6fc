// Command pairbuild builds one snii segment from a docs file written by the
// peers harness (the "docs.bin" of its work folder, kept with -keep), with
// the phrase-pair budget given in percent (0: no pairs), and prints the
// times of Add and Close. Run it under /usr/bin/time in alternating order to
// compare the build cost of pairs (docs/bench/pairs/build-cpu.txt):
//
//	/usr/bin/time -f "%e %U %S %M" go run ./cmd/pairbuild -docs DOCS -pairs 10 -out /tmp/p.snii
//
// -cpuprofile FILE writes a CPU profile of the build.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"runtime/pprof"
	"time"

	"github.com/snii-go/snii/bench/peers"
	"github.com/snii-go/snii/writer"
)

func main() {
	docs := flag.String("docs", "", "docs file written by the peers harness")
	pct := flag.Int("pairs", writer.DefaultPairsPercent, "pair budget in percent of the .prx bytes (0: none)")
	out := flag.String("out", "pairbuild.snii", "segment to write")
	prof := flag.String("cpuprofile", "", "write a CPU profile of the build here")
	flag.Parse()
	if *prof != "" {
		f, err := os.Create(*prof)
		if err != nil {
			log.Fatal(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			log.Fatal(err)
		}
		defer pprof.StopCPUProfile()
	}
	o := writer.DefaultOptions(peers.Field)
	o.Pairs.Percent = *pct
	if *pct == 0 {
		o.Pairs.Percent = writer.PairsOff
	}
	t0 := time.Now()
	w, err := writer.Create(context.Background(), *out, o)
	if err != nil {
		log.Fatal(err)
	}
	doc := writer.Document{Fields: []writer.Field{{Name: peers.Field, Values: []string{""}}}}
	if err := peers.EachDoc(*docs, func(_ int, text string) error {
		doc.Fields[0].Values[0] = text
		_, err := w.Add(doc)
		return err
	}); err != nil {
		w.Abort()
		log.Fatal(err)
	}
	t1 := time.Now()
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}
	fi, err := os.Stat(*out)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("add %v close %v bytes %d\n", t1.Sub(t0), time.Since(t1), fi.Size())
}
