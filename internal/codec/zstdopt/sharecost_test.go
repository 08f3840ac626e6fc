package zstdopt_test

import (
	"bufio"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/snii-go/snii/internal/codec/prx"
	"github.com/snii-go/snii/internal/codec/prx/capture"
	"github.com/snii-go/snii/internal/codec/zstdopt"
	"github.com/snii-go/snii/limits"
)

// TestShareCost is a measuring tool, not a check: with SNII_CAPTURE set to a
// capture file (snii capture) it builds the zstd frame of every eligible unit,
// passes it through Share, prints the counts and bytes, and inflates the
// frames whose literals have a table of their own 50 times in the form
// SNII_SHARE_MODE says (own: as EncodeAll wrote them; shared: as Share
// returned them), the reader's way (Unshare, then a decoder without
// dictionaries), and prints the time per frame (noisy: compare runs
// alternated on one machine). Two runs under callgrind give the instructions
// a recoded frame saves (docs/BENCHMARKS.md has the commands and results).
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
	var shareTime time.Duration
	var frames [][]byte
	var win prx.Window
	units, withTable, recoded, shared, before, after := 0, 0, 0, 0, 0, 0
	for _, cw := range windows {
		if err := prx.DecodePlain(cw.Plain, limits.Limits{}, &win); err != nil {
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
			t0 := time.Now()
			nf, err := sh.Share(fr, nil)
			shareTime += time.Since(t0)
			if err != nil {
				t.Fatal(err)
			}
			before += len(fr)
			after += len(nf)
			if _, ok := zstdopt.FrameLiterals(fr); !ok {
				continue // not one Share considers
			}
			withTable++
			if &nf[0] != &fr[0] {
				recoded++
			}
			if nf[4]&3 != 0 {
				shared++
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
	var un, ubuf []byte
	start := time.Now()
	for r := 0; r < 50; r++ {
		for _, fr := range frames { // as the reader does
			if un, err = zstdopt.Unshare(fr, ubuf, 1<<20); err != nil {
				t.Fatal(err)
			}
			if &un[0] != &fr[0] {
				ubuf = un // (a frame naming no table comes back itself)
			}
			if buf, err = dec.DecodeAll(un, buf[:0]); err != nil {
				t.Fatal(err)
			}
		}
	}
	fmt.Printf("%d eligible units, %d with their own literal table: %d recoded, %d with a shared table; zstd frames %d -> %d bytes (%+.2f%%)\n",
		units, withTable, recoded, shared, before, after, 100*float64(after-before)/float64(before))
	fmt.Printf("Share: %.1f µs a frame\n", float64(shareTime)/float64(units)/1000)
	if len(frames) > 0 {
		fmt.Printf("inflating the %d with their own table (%s): %.0f ns a frame\n", len(frames), os.Getenv("SNII_SHARE_MODE"), float64(time.Since(start))/float64(50*len(frames)))
	}
}
