// Command storeframes cuts a corpus into store blocks as the writer does (16
// KiB of plain bytes: n uvarint lengths, then the records) and compares frames
// for them: the bytes each stores (the smaller of the frame and the plain
// block, as the writer keeps), its encode rate and its decode time per block.
// Other modes:
//
//   - -decode FRAME only decodes the blocks of one frame -rounds times, for
//     instruction counts (callgrind: the difference of two round counts is the
//     cost of the rounds alone);
//   - -ab times the decodes of the -frames in turn, pass by pass;
//   - -hist prints how many bytes the Huffman-coded literals of zstd3 save
//     over the same frame with raw literals, block by block;
//   - -par K times fetches of K blocks decoded on one goroutine and on two.
//
// Usage:
//
//	storeframes [-corpus service|agent] [-rounds N] [-frames a,b,...] [-decode FRAME | -ab | -hist | -par K]
package main

import (
	"encoding/binary"
	"flag"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/klauspost/compress/s2"
	"github.com/klauspost/compress/zstd"
	"github.com/snii-go/snii/bench/peers"
)

const target = 16 << 10

// frame is one way of storing a block.
type frame struct {
	name   string
	encode func(dst, src []byte) []byte
	decode func(dst, src []byte) ([]byte, error)
}

func main() {
	corpus := flag.String("corpus", "service", "agent or service")
	root := flag.String("corpora", "", "corpora root (default: shared/corpora above the working directory)")
	rounds := flag.Int("rounds", 20, "decode rounds over every block")
	only := flag.String("frames", "", "comma-separated frames to measure (default all)")
	dec := flag.String("decode", "", "only decode the blocks of this frame -rounds times")
	hist := flag.Bool("hist", false, "print the distribution over blocks of the share of the zstd3-rawlit frame that zstd3's Huffman literals save")
	cost := flag.String("cost", "", "file of query|first ids lines: pick per block the cheapest frame to decode under -budget bytes and report the fetched blocks' decode time")
	budget := flag.Int("budget", 150000, "bytes -cost may add to the store")
	trade := flag.Int("trade", 0, "with -cost: instead of the greedy choice, take the faster frame for every block it makes at most this many bytes longer")
	par := flag.Int("par", 0, "time the zstd3 decode of this many blocks a fetch, on one goroutine and split over two, in turn -rounds times")
	ab := flag.Bool("ab", false, "time the -frames' decodes in turn, -rounds passes each, and print each one's fastest and median pass")
	flag.Parse()
	if err := run(*corpus, *root, *rounds, *only, *dec, *ab, *hist, *par, *cost, *budget, *trade); err != nil {
		fmt.Fprintln(os.Stderr, "storeframes:", err)
		os.Exit(1)
	}
}

func zstdFrame(name string, level zstd.EncoderLevel, noEntropy bool, d *zstd.Decoder) frame {
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1), zstd.WithEncoderCRC(false),
		zstd.WithEncoderLevel(level), zstd.WithSingleSegment(true), zstd.WithWindowSize(1<<20),
		zstd.WithNoEntropyCompression(noEntropy))
	if err != nil {
		panic(err)
	}
	return frame{name: name, encode: func(dst, src []byte) []byte { return enc.EncodeAll(src, dst) },
		decode: func(dst, src []byte) ([]byte, error) { return d.DecodeAll(src, dst) }}
}

func frames(dict *s2.Dict) []frame {
	d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(1<<28),
		zstd.WithDecodeAllCapLimit(true), zstd.IgnoreChecksum(true))
	if err != nil {
		panic(err)
	}
	s2dec := func(dst, src []byte) ([]byte, error) { return s2.Decode(dst[:cap(dst)], src) }
	return []frame{
		zstdFrame("zstd3", zstd.SpeedBetterCompression, false, d),
		zstdFrame("zstd3-rawlit", zstd.SpeedBetterCompression, true, d),
		zstdFrame("zstd4", zstd.SpeedBestCompression, false, d),
		zstdFrame("zstd4-rawlit", zstd.SpeedBestCompression, true, d),
		zstdFrame("zstd2", zstd.SpeedDefault, false, d),
		zstdFrame("zstd1", zstd.SpeedFastest, false, d),
		{name: "s2", encode: func(dst, src []byte) []byte { return append(dst, s2.Encode(nil, src)...) }, decode: s2dec},
		{name: "s2better", encode: func(dst, src []byte) []byte { return append(dst, s2.EncodeBetter(nil, src)...) }, decode: s2dec},
		{name: "s2best", encode: func(dst, src []byte) []byte { return append(dst, s2.EncodeBest(nil, src)...) }, decode: s2dec},
		{name: "s2best-dict", encode: func(dst, src []byte) []byte { return append(dst, dict.EncodeBest(nil, src)...) },
			decode: func(dst, src []byte) ([]byte, error) { return dict.Decode(dst[:cap(dst)], src) }},
	}
}

// blocks cuts docs into plain store blocks by the writer's rule.
func blocks(docs []string) [][]byte {
	var out [][]byte
	var lens, recs []byte
	n := 0
	flush := func() {
		out = append(out, append(append([]byte(nil), lens...), recs...))
		lens, recs, n = lens[:0], recs[:0], 0
	}
	var tmp [binary.MaxVarintLen64]byte
	for _, d := range docs {
		if n > 0 && len(lens)+len(recs)+binary.PutUvarint(tmp[:], uint64(len(d)))+len(d) > target {
			flush()
		}
		lens = binary.AppendUvarint(lens, uint64(len(d)))
		recs = append(recs, d...)
		n++
	}
	if n > 0 {
		flush()
	}
	return out
}

func run(corpus, root string, rounds int, only, decOnly string, ab, hist bool, par int, cost string, budget, trade int) error {
	if root == "" {
		root = peers.FindCorpora()
	}
	c, err := peers.LoadCorpus(root, corpus)
	if err != nil {
		return err
	}
	plain := blocks(c.Docs)
	var sample []byte
	for _, p := range plain {
		sample = append(sample, p...)
		if len(sample) >= 4<<20 {
			break
		}
	}
	dict := s2.MakeDict(sample[len(sample)-s2.MaxDictSize:], nil)
	want := map[string]bool{}
	for _, f := range strings.Split(only, ",") {
		if f != "" {
			want[f] = true
		}
	}
	if decOnly != "" {
		want = map[string]bool{decOnly: true}
	}
	plainBytes := 0
	for _, p := range plain {
		plainBytes += len(p)
	}
	if decOnly == "" {
		fmt.Printf("corpus %s: %d docs, %d blocks, %d plain bytes\n", corpus, len(c.Docs), len(plain), plainBytes)
		fmt.Println("| frame | stored bytes | vs zstd3 | blocks kept plain | encode MB/s | decode ns/block | decode MB/s |")
		fmt.Println("|---|---:|---:|---:|---:|---:|---:|")
	}
	if cost != "" {
		return costs(c.Docs, plain, frames(dict), cost, budget, trade, rounds)
	}
	if par > 0 {
		return parallel(plain, par, rounds)
	}
	if hist {
		return savings(plain, frames(dict))
	}
	if ab {
		return interleave(plain, frames(dict), want, rounds)
	}
	base := 0
	for _, f := range frames(dict) {
		if len(want) > 0 && !want[f.name] {
			continue
		}
		comp := make([][]byte, len(plain))
		stored, kept := 0, 0
		t0 := time.Now()
		for i, p := range plain {
			comp[i] = f.encode(nil, p)
		}
		enc := time.Since(t0)
		for i, p := range plain {
			if len(comp[i]) >= len(p) {
				kept++
				stored += len(p)
				comp[i] = nil
			} else {
				stored += len(comp[i])
			}
		}
		if f.name == "zstd3" {
			base = stored
		}
		buf := make([]byte, 0, 1<<20)
		for i, p := range plain { // check once
			if comp[i] == nil {
				continue
			}
			out, err := f.decode(buf[:0:len(p)+32], comp[i])
			if err != nil || string(out) != string(p) {
				return fmt.Errorf("%s: block %d does not round-trip (%d of %d bytes): %v", f.name, i, len(out), len(p), err)
			}
		}
		runtime.GC()
		t0 = time.Now()
		for r := 0; r < rounds; r++ {
			for i, p := range plain {
				if comp[i] == nil {
					continue
				}
				if _, err := f.decode(buf[:0:len(p)+32], comp[i]); err != nil {
					return err
				}
			}
		}
		dec := time.Since(t0)
		if decOnly != "" {
			return nil
		}
		ratio := "–"
		if base > 0 {
			ratio = fmt.Sprintf("%.3f", float64(stored)/float64(base))
		}
		fmt.Printf("| %s | %d | %s | %d | %.1f | %.0f | %.0f |\n", f.name, stored, ratio, kept,
			float64(plainBytes)/enc.Seconds()/1e6,
			float64(dec.Nanoseconds())/float64(rounds*len(plain)),
			float64(plainBytes)*float64(rounds)/dec.Seconds()/1e6)
	}
	return nil
}

// interleave times one decode pass over every block of each frame in turn,
// rounds times, and prints each frame's fastest and median pass per block.
func interleave(plain [][]byte, all []frame, want map[string]bool, rounds int) error {
	var fs []frame
	var comp [][][]byte
	for _, f := range all {
		if !want[f.name] {
			continue
		}
		c := make([][]byte, len(plain))
		for i, p := range plain {
			if c[i] = f.encode(nil, p); len(c[i]) >= len(p) {
				c[i] = nil
			}
		}
		fs, comp = append(fs, f), append(comp, c)
	}
	buf := make([]byte, 0, 1<<20)
	passes := make([][]float64, len(fs))
	for r := 0; r < rounds; r++ {
		for k, f := range fs {
			t0 := time.Now()
			for i, p := range plain {
				if comp[k][i] == nil {
					continue
				}
				if _, err := f.decode(buf[:0:len(p)+32], comp[k][i]); err != nil {
					return err
				}
			}
			passes[k] = append(passes[k], float64(time.Since(t0).Nanoseconds())/float64(len(plain)))
		}
	}
	fmt.Println("| frame | fastest ns/block | median ns/block | median vs first |")
	fmt.Println("|---|---:|---:|---:|")
	var first float64
	for k, f := range fs {
		slices.Sort(passes[k])
		med := passes[k][len(passes[k])/2]
		if k == 0 {
			first = med
		}
		fmt.Printf("| %s | %.0f | %.0f | %.3f |\n", f.name, passes[k][0], med, med/first)
	}
	return nil
}

// savings prints, over the blocks, the distribution of the share of the
// raw-literal frame (zstd3-rawlit) that the Huffman-coded one (zstd3) saves,
// and the bytes a threshold on it would add.
func savings(plain [][]byte, all []frame) error {
	var huf, raw frame
	for _, f := range all {
		switch f.name {
		case "zstd3":
			huf = f
		case "zstd3-rawlit":
			raw = f
		}
	}
	var hist [101]int
	var extra [101]int
	cuts := []int{64, 128, 192, 256, 320, 384, 448, 512, 768, 1024, 1 << 30}
	byTrade := make([][2]int, len(cuts))
	total := 0
	for _, p := range plain {
		h, r := len(huf.encode(nil, p)), len(raw.encode(nil, p))
		total += h
		for k, c := range cuts {
			if r-h <= c {
				byTrade[k][0]++
				byTrade[k][1] += r - h
			}
		}
		s := 0
		if r > h {
			s = 100 * (r - h) / r
		}
		hist[s]++
		extra[s] += r - h
	}
	fmt.Printf("zstd3 total %d bytes\n| saving %% below | blocks | cum blocks | cum extra bytes | cum extra %% |\n|---:|---:|---:|---:|---:|\n", total)
	cb, ce := 0, 0
	for s := range hist {
		cb += hist[s]
		ce += extra[s]
		if hist[s] > 0 {
			fmt.Printf("| %d | %d | %d | %d | %.2f |\n", s+1, hist[s], cb, ce, 100*float64(ce)/float64(total))
		}
	}
	fmt.Printf("\n| trade at most (bytes) | blocks | extra bytes | extra %% |\n|---:|---:|---:|---:|\n")
	for k, c := range cuts {
		fmt.Printf("| %d | %d | %d | %.2f |\n", c, byTrade[k][0], byTrade[k][1], 100*float64(byTrade[k][1])/float64(total))
	}
	return nil
}

// parallel times fetches of k blocks spread over the store (every
// len/k-th, from a moving start): decoded one after the other on one
// goroutine, and split over the caller and one more goroutine with a decoder
// of its own (blocks alternating), in turn, rounds times each.
func parallel(plain [][]byte, k, rounds int) error {
	newDec := func() *zstd.Decoder {
		d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecodeAllCapLimit(true), zstd.IgnoreChecksum(true))
		if err != nil {
			panic(err)
		}
		return d
	}
	f := zstdFrame("zstd3", zstd.SpeedBetterCompression, false, newDec())
	comp := make([][]byte, len(plain))
	for i, p := range plain {
		comp[i] = f.encode(nil, p)
	}
	d1, d2 := newDec(), newDec()
	bufs := make([][]byte, k)
	for i := range bufs {
		bufs[i] = make([]byte, 0, 1<<20)
	}
	decode := func(d *zstd.Decoder, b, slot int) {
		if _, err := d.DecodeAll(comp[b], bufs[slot][:0:len(plain[b])+32]); err != nil {
			panic(err)
		}
	}
	var one, two []float64
	step := len(plain) / k
	for r := 0; r < rounds; r++ {
		start := r % step
		t0 := time.Now()
		for j := 0; j < k; j++ {
			decode(d1, start+j*step, j)
		}
		one = append(one, float64(time.Since(t0).Nanoseconds())/1e3)
		t0 = time.Now()
		done := make(chan struct{})
		go func() {
			for j := 1; j < k; j += 2 {
				decode(d2, start+j*step, j)
			}
			close(done)
		}()
		for j := 0; j < k; j += 2 {
			decode(d1, start+j*step, j)
		}
		<-done
		two = append(two, float64(time.Since(t0).Nanoseconds())/1e3)
	}
	slices.Sort(one)
	slices.Sort(two)
	fmt.Printf("%d blocks a fetch, %d rounds: one goroutine median %.1f µs (fastest %.1f), two goroutines median %.1f µs (fastest %.1f), ratio %.3f\n",
		k, rounds, one[len(one)/2], one[0], two[len(two)/2], two[0], two[len(two)/2]/one[len(one)/2])
	return nil
}

// costs times every block's decode as zstd3, zstd3-rawlit and s2better (the
// fastest of rounds passes, frames in turn), then stores, greedily by decode
// time saved per byte added, the blocks in the faster frame until budget
// bytes are added, and prints for each query of the file (lines
// "query|id id ...": its first hits) the decode time of the blocks its hits
// fall in, with zstd3 only and with the choice. With trade > 0 the choice
// is instead every block the faster frame makes at most trade bytes longer.
func costs(docs []string, plain [][]byte, all []frame, file string, budget, trade, rounds int) error {
	names := []string{"zstd3", "zstd3-rawlit", "s2better"}
	var fs []frame
	for _, n := range names {
		for _, f := range all {
			if f.name == n {
				fs = append(fs, f)
			}
		}
	}
	// first doc of each block, by the writer's rule (as blocks cuts them)
	first := make([]int, 0, len(plain)+1)
	d := 0
	for _, p := range plain {
		first = append(first, d)
		off, sum, k := 0, 0, 0
		for off+sum < len(p) {
			l, m := binary.Uvarint(p[off:])
			off += m
			sum += int(l)
			k++
		}
		d += k
	}
	first = append(first, d)
	if d != len(docs) {
		return fmt.Errorf("blocks hold %d records, corpus %d", d, len(docs))
	}
	comp := make([][][]byte, len(fs))
	size := make([][]int, len(fs))
	best := make([][]float64, len(fs))
	for k, f := range fs {
		comp[k] = make([][]byte, len(plain))
		size[k] = make([]int, len(plain))
		best[k] = make([]float64, len(plain))
		for i, p := range plain {
			comp[k][i] = f.encode(nil, p)
			size[k][i] = len(comp[k][i])
			best[k][i] = 1e18
		}
	}
	buf := make([]byte, 0, 1<<20)
	for r := 0; r < rounds; r++ {
		for i, p := range plain {
			for k, f := range fs {
				t0 := time.Now()
				if _, err := f.decode(buf[:0:len(p)+32], comp[k][i]); err != nil {
					return err
				}
				best[k][i] = min(best[k][i], float64(time.Since(t0).Nanoseconds()))
			}
		}
	}
	for k := 1; k < len(fs); k++ {
		// greedy: blocks by time saved per byte added
		type cand struct {
			i           int
			saved, cost float64
		}
		var cs []cand
		total, base := 0.0, 0
		for i := range plain {
			total += best[0][i]
			base += size[0][i]
			if sv := best[0][i] - best[k][i]; sv > 0 {
				cs = append(cs, cand{i, sv, float64(max(size[k][i]-size[0][i], 1))})
			}
		}
		slices.SortFunc(cs, func(a, b cand) int {
			x, y := a.saved/a.cost, b.saved/b.cost
			switch {
			case x > y:
				return -1
			case x < y:
				return 1
			}
			return 0
		})
		chosen := make([]bool, len(plain))
		added, saved, n := 0, 0.0, 0
		for _, c := range cs {
			if (trade == 0 && added+int(c.cost) > budget) || (trade > 0 && int(c.cost) > trade) {
				continue
			}
			added += int(c.cost)
			saved += c.saved
			chosen[c.i] = true
			n++
		}
		fmt.Printf("\n%s for %d of %d blocks, %d bytes added (%.1f%% of %d): all blocks' decode %.0f → %.0f µs (%.3f)\n",
			fs[k].name, n, len(plain), added, 100*float64(added)/float64(base), base, total/1e3, (total-saved)/1e3, (total-saved)/total)
		fmt.Println("| query | blocks | of them chosen | decode µs zstd3 | with the choice | ratio |")
		fmt.Println("|---|---:|---:|---:|---:|---:|")
		b, err := os.ReadFile(file)
		if err != nil {
			return err
		}
		var ratios []float64
		for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			q, ids, _ := strings.Cut(line, "|")
			seen := map[int]bool{}
			var t0, t1 float64
			nc := 0
			for j, f := range strings.Fields(ids) {
				var id int
				if _, err := fmt.Sscan(f, &id); err != nil || j >= 20 {
					break
				}
				bl, _ := slices.BinarySearch(first, id+1)
				bl--
				if seen[bl] {
					continue
				}
				seen[bl] = true
				t0 += best[0][bl]
				if chosen[bl] {
					t1 += best[k][bl]
					nc++
				} else {
					t1 += best[0][bl]
				}
			}
			ratios = append(ratios, t1/t0)
			fmt.Printf("| `%s` | %d | %d | %.1f | %.1f | %.3f |\n", q, len(seen), nc, t0/1e3, t1/1e3, t1/t0)
		}
		slices.Sort(ratios)
		fmt.Printf("median ratio over the queries %.3f\n", ratios[len(ratios)/2])
	}
	return nil
}
