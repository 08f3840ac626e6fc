package zstdopt_test

import (
	"bufio"
	"fmt"
	"os"
	"testing"

	"github.com/snii-go/snii/internal/zstdopt"
	"github.com/snii-go/snii/prx"
	"github.com/snii-go/snii/prx/capture"
)

// TestShareCost is a measuring tool, not a check: with SNII_CAPTURE set to a
// capture file (snii capture) it builds the zstd frame of every eligible unit,
// keeps those Share rewrites, prints their count and bytes, and inflates them
// 50 times in the form SNII_SHARE_MODE says (own: as EncodeAll wrote them;
// shared: as Share did), the reader's way (Unshare, then a decoder without
// dictionaries). Two runs under callgrind give the instructions a
// shared frame saves (docs/BENCHMARKS.md has the commands and results).
func TestShareCost(t *testing.T) {
	path := os.Getenv("SNII_CAPTURE")
	if path == "" {
		t.Skip("set SNII_CAPTURE to a capture file (and SNII_SHARE_MODE to own or shared) to measure")
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	windows, _, _, err := capture.ReadAll(bufio.NewReader(f), capture.ReaderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	enc, err := prx.NewEncoder(prx.EncoderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	zenc, err := zstdopt.NewEncoder(0)
	if err != nil {
		t.Fatal(err)
	}
	var sh zstdopt.Sharer
	var frames [][]byte
	var win prx.Window
	units, withTable, before, after := 0, 0, 0, 0
	for _, cw := range windows {
		if err := prx.DecodePlain(cw.Plain, prx.Limits{}, &win); err != nil {
			t.Fatal(err)
		}
		rf, err := enc.EncodeCodec(&win, prx.CodecRaw)
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range rf.Units {
			if u.PlainLen < prx.ZstdMinPlain {
				continue
			}
			end := u.Off + u.Len - prx.CRCSize
			fr := zenc.EncodeAll(rf.Bytes[end-u.PlainLen:end], nil)
			units++
			if _, ok := zstdopt.FrameLiterals(fr); ok {
				withTable++
			}
			nf, err := sh.Share(fr, nil)
			if err != nil {
				t.Fatal(err)
			}
			before += len(fr)
			after += len(nf)
			if len(nf) == len(fr) {
				continue
			}
			if os.Getenv("SNII_SHARE_MODE") == "shared" {
				fr = append([]byte(nil), nf...)
			}
			frames = append(frames, fr)
		}
	}
	dec, err := zstdopt.NewDecoder(1 << 20)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 0, 1<<20)
	var un []byte
	for r := 0; r < 50; r++ {
		for _, fr := range frames { // as the reader does
			if un, err = zstdopt.Unshare(fr, un, 1<<20); err != nil {
				t.Fatal(err)
			}
			if buf, err = dec.DecodeAll(un, buf[:0]); err != nil {
				t.Fatal(err)
			}
		}
	}
	fmt.Printf("%d eligible units, %d with their own literal table, %d shared; zstd frames %d -> %d bytes (%+.2f%%)\n",
		units, withTable, len(frames), before, after, 100*float64(after-before)/float64(before))
}
