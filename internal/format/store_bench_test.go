package format

import (
	"fmt"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"
	"github.com/snii-go/snii/internal/testkit"
	"github.com/snii-go/snii/internal/zstdopt"
)

// BenchmarkStoreChoices measures the store's choices on the corpora (agent
// logs: each JSON line a record; service logs: each line a record): block
// target, zstd level, a dictionary trained on the corpus or none. Each
// sub-benchmark encodes the corpus once (outside the timer) and decodes every
// block per iteration; it reports the stored bytes (blocks and block index),
// the ratio to the raw records, the share of blocks zstd shrinks least
// (under 2x: the blocks a budget would keep in a cheaper frame), the encode
// speed and the decode time of one block. Run:
//
//	go test -run '^$' -bench StoreChoices -benchtime 3x ./internal/format/
func BenchmarkStoreChoices(b *testing.B) {
	corpora := map[string][][]byte{}
	var agent, service [][]byte
	testkit.EachLine(b, []string{testkit.CorpusPath(b, testkit.AgentLogs)}, func(l []byte) { agent = append(agent, append([]byte(nil), l...)) })
	testkit.EachLine(b, testkit.CorpusFiles(b, testkit.ServiceLogs...), func(l []byte) { service = append(service, append([]byte(nil), l...)) })
	corpora["agent"], corpora["service"] = agent, service
	for _, name := range []string{"agent", "service"} {
		recs := corpora[name]
		var raw int
		for _, r := range recs {
			raw += len(r)
		}
		dict := trainDict(b, recs)
		for _, target := range []int{16 << 10, 32 << 10, 64 << 10, 128 << 10, 256 << 10} {
			for level := 1; level <= 4; level++ {
				for _, useDict := range []bool{false, true} {
					if useDict && level != 3 {
						continue // the dictionary at one level is enough to judge it
					}
					label := fmt.Sprintf("%s/block=%dK/level=%d/dict=%v", name, target>>10, level, useDict)
					b.Run(label, func(b *testing.B) {
						var d []byte
						if useDict {
							d = dict
						}
						benchStore(b, recs, raw, target, level, d)
					})
				}
			}
		}
	}
}

func benchStore(b *testing.B, recs [][]byte, raw, target, level int, dict []byte) {
	lv, err := zstdopt.Level(level)
	if err != nil {
		b.Fatal(err)
	}
	eo := []zstd.EOption{zstd.WithEncoderConcurrency(1), zstd.WithEncoderCRC(false), zstd.WithEncoderLevel(lv), zstd.WithSingleSegment(true)}
	do := []zstd.DOption{zstd.WithDecoderConcurrency(1), zstd.IgnoreChecksum(true)}
	if dict != nil {
		eo = append(eo, zstd.WithEncoderDict(dict))
		do = append(do, zstd.WithDecoderDicts(dict))
	}
	enc, err := zstd.NewWriter(nil, eo...)
	if err != nil {
		b.Fatal(err)
	}
	defer enc.Close()
	dec, err := zstd.NewReader(nil, do...)
	if err != nil {
		b.Fatal(err)
	}
	defer dec.Close()
	bb := StoreBlockBuilder{target: target}
	var stored []byte
	var blocks []StoreBlock
	compress := func(dst, src []byte) []byte { return enc.EncodeAll(src, dst) }
	t0 := time.Now()
	for _, r := range recs {
		if !bb.Fits(len(r)) {
			var sb StoreBlock
			stored, sb = bb.Finish(stored, compress)
			blocks = append(blocks, sb)
		}
		bb.Add(r)
	}
	stored, sb := bb.Finish(stored, compress)
	blocks = append(blocks, sb)
	encSecs := time.Since(t0).Seconds()
	index := len(AppendStoreMeta(nil, &StoreMeta{Blocks: blocks}))
	poor := 0
	for _, sb := range blocks {
		if sb.Flags == 0 || sb.PlainLen < 2*sb.StoredLen {
			poor++
		}
	}
	total := len(stored) + index + len(dict)
	var buf []byte
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		off := 0
		for _, sb := range blocks {
			p, err := DecodeStoreBlock(stored[off:off+int(sb.StoredLen)], 0, sb, func(dst, src []byte) ([]byte, error) { return dec.DecodeAll(src, dst) }, buf)
			if err != nil {
				b.Fatal(err)
			}
			if sb.Flags != 0 {
				buf = p
			}
			off += int(sb.StoredLen)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(total), "bytes")
	b.ReportMetric(float64(raw)/float64(total), "ratio")
	b.ReportMetric(float64(len(blocks)), "blocks")
	b.ReportMetric(100*float64(poor)/float64(len(blocks)), "%poor")
	b.ReportMetric(float64(raw)/encSecs/1e6, "encMB/s")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(blocks)), "ns/block")
	b.ReportMetric(0, "ns/op")
}

// trainDict builds a 64 KiB dictionary from records sampled evenly over recs.
func trainDict(b *testing.B, recs [][]byte) []byte {
	var hist []byte
	var samples [][]byte
	step := max(1, len(recs)/4096)
	for i := 0; i < len(recs); i += step {
		samples = append(samples, recs[i])
	}
	for i := 0; i < len(samples) && len(hist) < 64<<10; i += max(1, len(samples)/256) {
		hist = append(hist, samples[i]...)
	}
	d, err := zstd.BuildDict(zstd.BuildDictOptions{ID: 1, Contents: samples, History: hist[:min(len(hist), 64<<10)], Offsets: [3]int{1, 4, 8}})
	if err != nil {
		b.Fatal(err)
	}
	return d
}
