package capture_test

import (
	"bufio"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/snii-go/snii/budget"
	"github.com/snii-go/snii/internal/codec/prx"
	"github.com/snii-go/snii/internal/codec/prx/capture"
	"github.com/snii-go/snii/limits"
)

// Capture the .prx windows an encoder sees into a file, then replay them
// under another codec policy. `snii build --capture` and `snii capture`
// write such files from real builds and segments, and `snii replay` compares
// many policies on them; its engine is internal, so this example replays by
// hand: prx.DecodePlain gives each captured window back, and a prx.Encoder
// with the other policy re-encodes it.
func Example() {
	dir, err := os.MkdirTemp("", "snii-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "text.sncp")

	// Capture: encode windows with a fixed share of 90 (the fast frame
	// unless zstd saves 90%) and hand each window and its frame to the
	// capture writer.
	f, err := os.Create(path)
	if err != nil {
		log.Fatal(err)
	}
	bw := bufio.NewWriter(f)
	cw, err := capture.NewWriter(bw, capture.WriterOptions{All: true}) // keep fast-path windows too
	if err != nil {
		log.Fatal(err)
	}
	policy := budget.Policy{Kind: budget.FixedShare, Percent: 90}
	idx, err := cw.AddIndex(capture.IndexInfo{Name: "text", Known: true, Policy: policy})
	if err != nil {
		log.Fatal(err)
	}
	enc, err := prx.NewEncoder(prx.EncoderOptions{Policy: policy})
	if err != nil {
		log.Fatal(err)
	}
	defer enc.Close()
	for w := 0; w < 4; w++ {
		var win prx.Window
		for d := 0; d < 40; d++ { // 40 documents, 12 positions each: one unit
			pos := make([]uint32, 12)
			for i := range pos {
				pos[i] = uint32(i*(130+d%5) + w)
			}
			win.AppendDoc(pos)
		}
		fr, err := enc.Encode(&win)
		if err != nil {
			log.Fatal(err)
		}
		if err := cw.Encoded(idx, &win, fr); err != nil {
			log.Fatal(err)
		}
	}
	if err := cw.SetOutcome(idx, capture.Outcome{Windows: enc.Outcome().Windows, Bytes: enc.Outcome().Bytes, Budget: enc.Outcome().Budget}); err != nil {
		log.Fatal(err)
	}
	if err := cw.Close(); err != nil {
		log.Fatal(err)
	}
	if err := bw.Flush(); err != nil {
		log.Fatal(err)
	}
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}

	// Read it back and replay with "always the smallest frame".
	f, err = os.Open(path)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	windows, indexes, all, err := capture.ReadAll(bufio.NewReader(f), capture.ReaderOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("index %q (policy %s): %d windows captured (all: %v)\n", indexes[0].Name, indexes[0].Policy, len(windows), all)
	smallest, err := prx.NewEncoder(prx.EncoderOptions{Policy: budget.Policy{Kind: budget.Smallest}})
	if err != nil {
		log.Fatal(err)
	}
	defer smallest.Close()
	var win prx.Window
	for _, cwin := range windows {
		if err := prx.DecodePlain(cwin.Plain, limits.Limits{}, &win); err != nil {
			log.Fatal(err)
		}
		if _, err := smallest.Encode(&win); err != nil {
			log.Fatal(err)
		}
	}
	rec, re := indexes[0].Recorded, smallest.Outcome()
	fmt.Println("recorded windows per codec (raw, zstd, pfor):", rec.Windows)
	fmt.Println("replayed windows per codec (raw, zstd, pfor):", re.Windows)
	fmt.Println("replay stores fewer bytes:", sum(re.Bytes) < sum(rec.Bytes))
	// Output:
	// index "text" (policy 90): 4 windows captured (all: true)
	// recorded windows per codec (raw, zstd, pfor): [0 0 4]
	// replayed windows per codec (raw, zstd, pfor): [0 4 0]
	// replay stores fewer bytes: true
}

func sum(a [3]int64) (n int64) {
	for _, v := range a {
		n += v
	}
	return n
}
