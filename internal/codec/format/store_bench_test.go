package format

import (
	"fmt"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/snii-go/snii/internal/codec/zstdopt"
	"github.com/snii-go/snii/internal/testkit"
)

// storeCorpora returns the records of the agent and service logs (one per
// line), by corpus name.
func storeCorpora(b *testing.B) map[string][][]byte {
	var agent, service [][]byte
	testkit.EachLine(b, []string{testkit.CorpusPath(b, testkit.AgentLogs)}, func(l []byte) { agent = append(agent, append([]byte(nil), l...)) })
	testkit.EachLine(b, testkit.CorpusFiles(b, testkit.ServiceLogs...), func(l []byte) { service = append(service, append([]byte(nil), l...)) })
	return map[string][][]byte{"agent": agent, "service": service}
}

// BenchmarkStoreChoices measures the store's choices on the corpora (agent
// logs: each JSON line a record; service logs: each line a record): block
// target, zstd level, a dictionary trained on the corpus or none. Each
// sub-benchmark encodes the corpus once (outside the timer) and decodes every
// block per iteration; it reports the stored bytes (blocks and block index),
// the ratio to the raw records, the share of blocks zstd shrinks least
// (under 2x: the blocks a budget would keep in a cheaper frame), the encode
// speed (CPU time) and the decode time of one block. Run:
//
//	go test -run '^$' -bench StoreChoices -benchtime 3x ./internal/codec/format/
func BenchmarkStoreChoices(b *testing.B) {
	corpora := storeCorpora(b)
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

// benchCoders returns a zstd encoder at level (with dict when set) and a
// decoder that knows dict, each on one goroutine.
func benchCoders(b *testing.B, level int, dict []byte) (*zstd.Encoder, *zstd.Decoder) {
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
	dec, err := zstd.NewReader(nil, do...)
	if err != nil {
		enc.Close()
		b.Fatal(err)
	}
	return enc, dec
}

func benchStore(b *testing.B, recs [][]byte, raw, target, level int, dict []byte) {
	enc, dec := benchCoders(b, level, dict)
	defer enc.Close()
	defer dec.Close()
	bb := StoreBlockBuilder{target: target}
	var stored []byte
	var blocks []StoreBlock
	compress := func(dst, src []byte) []byte { return enc.EncodeAll(src, dst) }
	t0 := testkit.CPUTime()
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
	encSecs := (testkit.CPUTime() - t0).Seconds()
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

// BenchmarkStoreSubBlocks measures a block cut into sub-blocks (the agent
// logs, each JSON line a record, level 3): a chunk of records up to chunk
// bytes whose first sub-block (records up to dict bytes) is compressed alone
// and every later one (records up to sub bytes) with the first one's plain
// bytes as a raw zstd dictionary, so that a record is fetched by decoding
// the first sub-block and its own; dict=0 is plain blocks of chunk bytes.
// Each iteration fetches every record once that way; it reports the stored
// bytes, the encode speed (CPU time), and the bytes decoded and the time per
// record fetched. Run:
//
//	go test -run '^$' -bench StoreSubBlocks -benchtime 1x ./internal/codec/format/
func BenchmarkStoreSubBlocks(b *testing.B) {
	var recs [][]byte
	testkit.EachLine(b, []string{testkit.CorpusPath(b, testkit.AgentLogs)}, func(l []byte) { recs = append(recs, append([]byte(nil), l...)) })
	for _, l := range [][3]int{{8, 0, 0}, {16, 0, 0}, {32, 0, 0}, {64, 4, 4}, {64, 8, 8}, {64, 16, 8}, {128, 16, 8}, {128, 16, 16}, {128, 32, 8}} {
		b.Run(fmt.Sprintf("chunk=%dK/dict=%dK/sub=%dK", l[0], l[1], l[2]), func(b *testing.B) {
			benchSubBlocks(b, recs, l[0]<<10, l[1]<<10, l[2]<<10)
		})
	}
}

// subBlock is one compressed sub-block of a chunk.
type subBlock struct {
	frame []byte
	docs  int
}

func benchSubBlocks(b *testing.B, recs [][]byte, chunk, dict, sub int) {
	lv, _ := zstdopt.Level(3)
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1), zstd.WithEncoderCRC(false), zstd.WithEncoderLevel(lv), zstd.WithSingleSegment(true))
	if err != nil {
		b.Fatal(err)
	}
	defer enc.Close()
	dec, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.IgnoreChecksum(true))
	if err != nil {
		b.Fatal(err)
	}
	defer dec.Close()
	type chunkOf struct {
		dict []byte // the first sub-block's plain bytes (nil: no dictionary)
		subs []subBlock
	}
	var chunks []chunkOf
	stored := 0
	t0 := testkit.CPUTime()
	for i := 0; i < len(recs); {
		var c chunkOf
		id := uint32(len(chunks) + 1)
		var cur []byte
		n, size := 0, 0
		cut := func() {
			f := enc.EncodeAll(cur, nil)
			stored += len(f)
			c.subs = append(c.subs, subBlock{f, n})
			if dict > 0 && c.dict == nil {
				c.dict = cur
				if err := enc.ResetWithOptions(nil, zstd.WithEncoderDictRaw(id, c.dict)); err != nil {
					b.Fatal(err)
				}
			}
			cur, n = nil, 0
		}
		for i < len(recs) && (size == 0 || size+len(recs[i]) <= chunk) {
			t := sub
			if dict == 0 {
				t = chunk
			} else if c.dict == nil {
				t = dict
			}
			if n > 0 && len(cur)+len(recs[i]) > t {
				cut()
			}
			cur = append(cur, recs[i]...)
			n++
			size += len(recs[i])
			i++
		}
		cut()
		if dict > 0 {
			if err := enc.ResetWithOptions(nil, zstd.WithEncoderDictDelete()); err != nil {
				b.Fatal(err)
			}
		}
		chunks = append(chunks, c)
	}
	encSecs := (testkit.CPUTime() - t0).Seconds()
	var raw int
	for _, r := range recs {
		raw += len(r)
	}
	decoded, fetched := 0, 0
	var buf []byte
	b.ResetTimer()
	for it := 0; it < b.N; it++ {
		for ci, c := range chunks {
			if c.dict != nil {
				if err := dec.ResetWithOptions(nil, zstd.WithDecoderDictRaw(uint32(ci+1), c.dict)); err != nil {
					b.Fatal(err)
				}
			}
			for si, s := range c.subs {
				for range s.docs {
					fetched++
					for _, f := range [][]byte{c.subs[0].frame, s.frame}[:1+min(si, 1)] {
						if buf, err = dec.DecodeAll(f, buf[:0]); err != nil {
							b.Fatal(err)
						}
						decoded += len(buf)
					}
				}
			}
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(stored), "bytes")
	b.ReportMetric(float64(raw)/encSecs/1e6, "encMB/s")
	b.ReportMetric(float64(decoded)/float64(fetched), "decodedB/rec")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(fetched), "ns/rec")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkStoreDict measures small frames with a zstd dictionary trained per
// store (the agent logs: each JSON line a record; service logs: each line a
// record). The dictionary is trained on the first storeDictTrain bytes of
// records in doc order: its content dictContent's choice (cover=true) or
// records taken at an even stride (cover=false) up to the dictionary size,
// its tables trained at the frames' level on the window cut into frames.
// Frames are cut at the target (1: one record per frame) and encoded by one
// encoder kept across frames. Each sub-benchmark encodes the corpus once
// (outside the timer, CPU time) and fetches, per iteration, a scattered
// page: every 97th record, each decoding its own frame. It reports the
// stored bytes (frames, a frame index as the store header writes it, the
// dictionary), the encode speed, the training time, and per record fetched
// the bytes decoded and the CPU time. Run:
//
//	go test -run '^$' -bench StoreDict -benchtime 3x ./internal/codec/format/
func BenchmarkStoreDict(b *testing.B) {
	const storeDictTrain = 4 << 20
	corpora := storeCorpora(b)
	for _, name := range []string{"agent", "service"} {
		recs := corpora[name]
		for _, dictSize := range []int{0, 64 << 10, 256 << 10, 1 << 20} {
			for _, cover := range []bool{false, true} {
				if dictSize == 0 && cover {
					continue
				}
				for level := 1; level <= 3; level++ {
					for _, frame := range []int{1, 1 << 10, 2 << 10, 4 << 10, 16 << 10} {
						label := fmt.Sprintf("%s/dict=%dK/cover=%v/level=%d/frame=%d", name, dictSize>>10, cover, level, frame)
						b.Run(label, func(b *testing.B) {
							var dict []byte
							if dictSize > 0 {
								t0 := testkit.CPUTime()
								dict = benchTrainDict(b, recs, dictSize, storeDictTrain, level, max(frame, 1<<10), cover)
								b.ReportMetric((testkit.CPUTime()-t0).Seconds()*1e3, "trainms")
							}
							benchDictFrames(b, recs, frame, level, dict)
						})
					}
				}
			}
		}
	}
}

// benchTrainDict builds a dictionary of about size bytes from the records in
// the first train bytes of recs: its content is dictContent's choice (cover)
// or records at an even stride, the tables are trained at level on the
// window's records in chunks of frame bytes.
func benchTrainDict(b *testing.B, recs [][]byte, size, train, level, frame int, cover bool) []byte {
	var window [][]byte
	n := 0
	for _, r := range recs {
		if n+len(r) > train && len(window) > 0 {
			break
		}
		window = append(window, r)
		n += len(r)
	}
	var hist []byte
	if cover {
		hist = dictContent(window, size)
	} else {
		step := max(1, n/size)
		acc := 0
		for _, r := range window {
			acc += len(r)
			if acc >= step {
				acc -= step
				hist = append(hist, r...)
				if len(hist) >= size {
					break
				}
			}
		}
		hist = hist[:min(len(hist), size)]
	}
	var chunks [][]byte
	var cur []byte
	for _, r := range window {
		if len(cur) > 0 && len(cur)+len(r) > frame {
			chunks, cur = append(chunks, cur), nil
		}
		cur = append(cur, r...)
	}
	chunks = append(chunks, cur)
	lv, _ := zstdopt.Level(level)
	d, err := zstd.BuildDict(zstd.BuildDictOptions{ID: 1, Contents: chunks, History: hist, Offsets: [3]int{1, 4, 8}, Level: lv})
	if err != nil {
		b.Fatal(err)
	}
	return d
}

func benchDictFrames(b *testing.B, recs [][]byte, target, level int, dict []byte) {
	enc, dec := benchCoders(b, level, dict)
	defer enc.Close()
	defer dec.Close()
	bb := StoreBlockBuilder{target: target}
	var stored []byte
	var blocks []StoreBlock
	var firstDoc []int // first record of each frame
	compress := func(dst, src []byte) []byte { return enc.EncodeAll(src, dst) }
	raw := 0
	t0 := testkit.CPUTime()
	for i, r := range recs {
		if !bb.Fits(len(r)) {
			var sb StoreBlock
			stored, sb = bb.Finish(stored, compress)
			blocks = append(blocks, sb)
		}
		if bb.Len() == 0 {
			firstDoc = append(firstDoc, i)
		}
		bb.Add(r)
		raw += len(r)
	}
	stored, sb := bb.Finish(stored, compress)
	blocks = append(blocks, sb)
	encSecs := (testkit.CPUTime() - t0).Seconds()
	offs := make([]int, len(blocks)+1)
	for i, sb := range blocks {
		offs[i+1] = offs[i] + int(sb.StoredLen)
	}
	index := len(AppendStoreMeta(nil, &StoreMeta{Blocks: blocks}))
	total := len(stored) + index + len(dict)
	// the page: every 97th record, by the frame holding it
	var page []int
	f := 0
	for i := 0; i < len(recs); i += 97 {
		for f+1 < len(firstDoc) && firstDoc[f+1] <= i {
			f++
		}
		page = append(page, f)
	}
	var buf []byte
	decoded := 0
	b.ResetTimer()
	t1 := testkit.CPUTime()
	for it := 0; it < b.N; it++ {
		for _, f := range page {
			sb := blocks[f]
			p, err := DecodeStoreBlock(stored[offs[f]:offs[f+1]], f, sb, func(dst, src []byte) ([]byte, error) { return dec.DecodeAll(src, dst) }, buf)
			if err != nil {
				b.Fatal(err)
			}
			if sb.Flags != 0 {
				buf = p
			}
			decoded += len(p)
		}
	}
	b.StopTimer()
	decSecs := (testkit.CPUTime() - t1).Seconds()
	b.ReportMetric(float64(total), "bytes")
	b.ReportMetric(float64(raw)/float64(total), "ratio")
	b.ReportMetric(float64(len(blocks)), "frames")
	b.ReportMetric(float64(raw)/encSecs/1e6, "encMB/s")
	b.ReportMetric(float64(decoded)/float64(b.N*len(page)), "decodedB/rec")
	b.ReportMetric(decSecs*1e9/float64(b.N*len(page)), "cpu-ns/rec")
	b.ReportMetric(0, "ns/op")
}
