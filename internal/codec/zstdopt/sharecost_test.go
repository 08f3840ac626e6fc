package zstdopt_test

import (
	"bufio"
	"os"
	"testing"

	"github.com/snii-go/snii/internal/codec/prx"
	"github.com/snii-go/snii/internal/codec/prx/capture"
	"github.com/snii-go/snii/internal/codec/zstdopt"
	"github.com/snii-go/snii/limits"
)

// BenchmarkShareCost measures Share on the frames of a real segment. With
// SNII_CAPTURE set to a capture file (snii capture) it builds the zstd frame
// of every eligible unit and passes it through Share; then
//   - share: Share of every frame (frame bytes before and after, recoded and
//     shared-table frame counts reported per frame);
//   - inflate/own and inflate/shared: the frames whose literals have a table
//     of their own inflated the reader's way (Unshare, then a decoder without
//     dictionaries), as EncodeAll wrote them and as Share returned them.
//
// Run the two inflate sub-benchmarks under callgrind for the instructions a
// recoded frame saves (docs/BENCHMARKS-HISTORY.md, "Shared literal tables"):
//
//	SNII_CAPTURE=agent.cap go test -run '^$' -bench ShareCost -count 6 ./internal/codec/zstdopt/
func BenchmarkShareCost(b *testing.B) {
	path := os.Getenv("SNII_CAPTURE")
	if path == "" {
		b.Skip("set SNII_CAPTURE to a capture file (snii capture) to measure")
	}
	all, own, shared := captureFrames(b, path)
	b.Run("share", func(b *testing.B) {
		var sh zstdopt.Sharer
		var before, after, recoded, sharedTable int
		for i := 0; i < b.N; i++ {
			before, after, recoded, sharedTable = 0, 0, 0, 0
			for _, fr := range all {
				nf, err := sh.Share(fr, nil)
				if err != nil {
					b.Fatal(err)
				}
				before += len(fr)
				after += len(nf)
				if &nf[0] != &fr[0] {
					recoded++
				}
				if nf[4]&3 != 0 {
					sharedTable++
				}
			}
		}
		perFrame(b, len(all))
		b.ReportMetric(float64(len(all)), "frames")
		b.ReportMetric(float64(before), "bytes-before")
		b.ReportMetric(float64(after), "bytes-after")
		b.ReportMetric(float64(len(own)), "own-table")
		b.ReportMetric(float64(recoded), "recoded")
		b.ReportMetric(float64(sharedTable), "shared-table")
	})
	for _, c := range []struct {
		name   string
		frames [][]byte
	}{{"inflate/own", own}, {"inflate/shared", shared}} {
		b.Run(c.name, func(b *testing.B) {
			if len(c.frames) == 0 {
				b.Skip("no frame with a literal table of its own")
			}
			dec, err := zstdopt.NewDecoder(1 << 20)
			if err != nil {
				b.Fatal(err)
			}
			buf := make([]byte, 0, 1<<20)
			var un, ubuf []byte
			for i := 0; i < b.N; i++ {
				for _, fr := range c.frames { // as the reader does
					if un, err = zstdopt.Unshare(fr, ubuf, 1<<20); err != nil {
						b.Fatal(err)
					}
					if &un[0] != &fr[0] {
						ubuf = un // (a frame naming no table comes back itself)
					}
					if buf, err = dec.DecodeAll(un, buf[:0]); err != nil {
						b.Fatal(err)
					}
				}
			}
			perFrame(b, len(c.frames))
		})
	}
}

// perFrame reports the time per frame of a loop over n frames.
func perFrame(b *testing.B, n int) {
	if n > 0 {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/frame")
	}
}

// captureFrames returns the zstd frame (EncodeAll) of every eligible unit of
// the capture at path, and of those whose literals carry a table of their
// own, the frames as written and as Share returns them.
func captureFrames(b *testing.B, path string) (all, own, shared [][]byte) {
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	windows, _, _, err := capture.ReadAll(bufio.NewReader(f), capture.ReaderOptions{})
	if err != nil {
		b.Fatal(err)
	}
	enc, err := prx.NewEncoder(prx.EncoderOptions{})
	if err != nil {
		b.Fatal(err)
	}
	defer enc.Close()
	zenc, err := zstdopt.NewEncoder(0)
	if err != nil {
		b.Fatal(err)
	}
	var sh zstdopt.Sharer
	var win prx.Window
	for _, cw := range windows {
		if err := prx.DecodePlain(cw.Plain, limits.Limits{}, &win); err != nil {
			b.Fatal(err)
		}
		rf, err := enc.EncodeCodec(&win, prx.CodecRaw)
		if err != nil {
			b.Fatal(err)
		}
		for _, u := range rf.Units {
			if u.PlainLen < prx.ZstdMinPlain {
				continue
			}
			end := u.Off + u.Len - prx.CRCSize
			fr := zenc.EncodeAll(rf.Bytes[end-u.PlainLen:end], nil)
			all = append(all, fr)
			if _, ok := zstdopt.FrameLiterals(fr); !ok {
				continue // not one Share considers
			}
			nf, err := sh.Share(fr, nil)
			if err != nil {
				b.Fatal(err)
			}
			own = append(own, fr)
			shared = append(shared, append([]byte(nil), nf...))
		}
	}
	return all, own, shared
}
