package prx

import (
	"math/rand/v2"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"

	"github.com/klauspost/compress/zstd"
	"github.com/snii-go/snii/budget"
	"github.com/snii-go/snii/internal/testkit"
)

var (
	benchOnce    sync.Once
	benchWins    []*Window
	benchSource  string
	benchWinsErr error
)

// benchWindows returns windows of 256 docs with tf 1..8: from the agent logs when the
// corpus is present (terms' postings from the "content" field, tokenized as maximal
// runs of letters or digits, lowercased), otherwise generated.
func benchWindows(b *testing.B) []*Window {
	benchOnce.Do(func() {
		dir, err := testkit.FindCorpora()
		if err == nil {
			benchWins, err = corpusWindows(filepath.Join(dir, testkit.AgentLogs), 256, 96)
		}
		benchWinsErr = err
		benchSource = "agent logs (" + testkit.AgentLogs + ")"
		if benchWinsErr != nil || len(benchWins) == 0 {
			benchSource = "generated (corpus absent)"
			rng := rand.New(rand.NewPCG(41, 42))
			benchWins = nil
			for i := 0; i < 96; i++ {
				benchWins = append(benchWins, genWindow(rng, 256, 1, 8, uint32(30+rng.IntN(600))))
			}
		}
	})
	b.Logf("windows: %d from %s", len(benchWins), benchSource)
	return benchWins
}

type posting struct {
	doc uint32
	pos []uint32
}

func corpusWindows(path string, docsPerWindow, maxWindows int) ([]*Window, error) {
	terms := map[string][]posting{}
	var doc uint32
	err := testkit.ScanLines(path, func(line []byte) error {
		content, err := testkit.AgentContent(line)
		if err != nil {
			return nil
		}
		pos := uint32(0)
		inDoc := map[string][]uint32{}
		for _, tok := range strings.FieldsFunc(content, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
			t := strings.ToLower(tok)
			inDoc[t] = append(inDoc[t], pos)
			pos++
		}
		for t, p := range inDoc {
			terms[t] = append(terms[t], posting{doc, p})
		}
		doc++
		return nil
	})
	if err != nil {
		return nil, err
	}
	// Terms with enough docs of tf 1..8, in a fixed order; one window per term, from
	// terms spread over the frequency range.
	var names []string
	for t, ps := range terms {
		n := 0
		for _, p := range ps {
			if len(p.pos) <= 8 {
				n++
			}
		}
		if n >= docsPerWindow {
			names = append(names, t)
		}
	}
	sort.Strings(names)
	step := max(1, len(names)/maxWindows)
	var out []*Window
	for i := 0; i < len(names) && len(out) < maxWindows; i += step {
		w := &Window{}
		for _, p := range terms[names[i]] {
			if len(p.pos) <= 8 {
				w.AppendDoc(p.pos)
				if w.Docs() == docsPerWindow {
					break
				}
			}
		}
		out = append(out, w)
	}
	return out, nil
}

// benchFrames encodes every window with codec c.
func benchFrames(b *testing.B, ws []*Window, c Codec) [][]byte {
	e, err := NewEncoder(EncoderOptions{Policy: budget.Policy{}})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	var out [][]byte
	for _, w := range ws {
		f, err := e.EncodeCodec(w, c)
		if err != nil {
			continue // PFOR not representable
		}
		out = append(out, append([]byte(nil), f.Bytes...))
	}
	return out
}

func avgLen(fs [][]byte) float64 {
	n := 0
	for _, f := range fs {
		n += len(f)
	}
	return float64(n) / float64(len(fs))
}

// BenchmarkDecode: ns per window decode (256 docs, tf 1..8), per codec, full and
// selective (8 random docs per window).
func BenchmarkDecode(b *testing.B) {
	ws := benchWindows(b)
	rng := rand.New(rand.NewPCG(43, 44))
	sels := make([][]uint32, len(ws))
	for i := range sels {
		perm := rng.Perm(256)[:8]
		sort.Ints(perm)
		for _, p := range perm {
			sels[i] = append(sels[i], uint32(p))
		}
	}
	for _, c := range []Codec{CodecRaw, CodecPFOR, CodecZstd} {
		frames := benchFrames(b, ws, c)
		for _, mode := range []string{"full", "selective8"} {
			b.Run(c.String()+"/"+mode, func(b *testing.B) {
				src := NewSource(Limits{})
				defer src.Close()
				var dst Window
				for _, f := range frames { // warm the Source and dst
					if _, err := src.Decode(f, true, &dst); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					k := i % len(frames)
					var err error
					if mode == "full" {
						_, err = src.Decode(frames[k], true, &dst)
					} else {
						_, err = src.DecodeSelected(frames[k], true, sels[k], &dst)
					}
					if err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(avgLen(frames), "frameB/win")
			})
		}
	}
}

// BenchmarkDecodePaired decodes each window with every codec back to back (rotating
// the order), so the codecs see the same machine load; it reports ns per window per
// codec and the ratios to RAW. Full decodes and selective decodes of 8 docs.
func BenchmarkDecodePaired(b *testing.B) {
	ws := benchWindows(b)
	var frames [NumCodecs][][]byte
	var keep []*Window
	for _, w := range ws {
		if pforRepresentable(w) {
			keep = append(keep, w)
		}
	}
	for _, c := range []Codec{CodecRaw, CodecPFOR, CodecZstd} {
		frames[c] = benchFrames(b, keep, c)
	}
	rng := rand.New(rand.NewPCG(45, 46))
	sels := make([][]uint32, len(keep))
	for i := range sels {
		perm := rng.Perm(keep[i].Docs())[:min(8, keep[i].Docs())]
		sort.Ints(perm)
		for _, p := range perm {
			sels[i] = append(sels[i], uint32(p))
		}
	}
	for _, mode := range []string{"full", "selective8"} {
		b.Run(mode, func(b *testing.B) {
			src := NewSource(Limits{})
			defer src.Close()
			var dst Window
			var spent [NumCodecs]time.Duration
			run := func(c Codec, k int) {
				var err error
				if mode == "full" {
					_, err = src.Decode(frames[c][k], true, &dst)
				} else {
					_, err = src.DecodeSelected(frames[c][k], true, sels[k], &dst)
				}
				if err != nil {
					b.Fatal(err)
				}
			}
			for k := range keep { // warm up
				for c := Codec(0); c < NumCodecs; c++ {
					run(c, k)
				}
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				k := i % len(keep)
				for j := 0; j < NumCodecs; j++ {
					c := Codec((i + j) % NumCodecs)
					t0 := time.Now()
					run(c, k)
					spent[c] += time.Since(t0)
				}
			}
			n := float64(b.N)
			b.ReportMetric(float64(spent[CodecRaw].Nanoseconds())/n, "raw-ns/win")
			b.ReportMetric(float64(spent[CodecPFOR].Nanoseconds())/n, "pfor-ns/win")
			b.ReportMetric(float64(spent[CodecZstd].Nanoseconds())/n, "zstd-ns/win")
			b.ReportMetric(float64(spent[CodecPFOR])/float64(spent[CodecRaw]), "pfor/raw")
			b.ReportMetric(float64(spent[CodecZstd])/float64(spent[CodecRaw]), "zstd/raw")
		})
	}
}

// BenchmarkZstdPooledVsNew: zstd windows of at most 4 KiB decoded by a pooled Source
// against a new klauspost decoder per window (then the same plain decode).
func BenchmarkZstdPooledVsNew(b *testing.B) {
	var small []*Window
	for _, w := range benchWindows(b) {
		if PlainSize(w) <= 4<<10 {
			small = append(small, w)
		}
	}
	frames := benchFrames(b, small, CodecZstd)
	if len(frames) == 0 {
		b.Skip("no window of at most 4 KiB")
	}
	pooled := func(pool *SourcePool, f []byte, dst *Window) {
		s := pool.Get()
		if _, err := s.Decode(f, true, dst); err != nil {
			b.Fatal(err)
		}
		pool.Put(s)
	}
	fresh := func(f []byte, dst *Window) {
		h, err := ParseFrameHeader(f, true, Limits{})
		if err != nil {
			b.Fatal(err)
		}
		if err := checkCRC(f, &h); err != nil {
			b.Fatal(err)
		}
		d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1))
		if err != nil {
			b.Fatal(err)
		}
		plain, err := d.DecodeAll(f[h.HeaderLen:h.HeaderLen+h.PayloadLen], nil)
		d.Close()
		if err != nil {
			b.Fatal(err)
		}
		if err := DecodePlain(plain, Limits{}, dst); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("pooled", func(b *testing.B) {
		pool := NewSourcePool(Limits{})
		defer pool.Close()
		var dst Window
		for _, f := range frames { // warm the pooled Source
			pooled(pool, f, &dst)
		}
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			pooled(pool, frames[i%len(frames)], &dst)
		}
		b.ReportMetric(avgLen(frames), "frameB/win")
	})
	b.Run("new-decoder", func(b *testing.B) {
		var dst Window
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			fresh(frames[i%len(frames)], &dst)
		}
		b.ReportMetric(avgLen(frames), "frameB/win")
	})
	// paired: each window decoded both ways back to back (alternating which goes
	// first), so both sides see the same machine load; reports new/pooled.
	b.Run("paired", func(b *testing.B) {
		pool := NewSourcePool(Limits{})
		defer pool.Close()
		var dst Window
		var tp, tn time.Duration
		for i := 0; i < b.N; i++ {
			f := frames[i%len(frames)]
			for k := 0; k < 2; k++ {
				t0 := time.Now()
				if (i+k)%2 == 0 {
					pooled(pool, f, &dst)
					tp += time.Since(t0)
				} else {
					fresh(f, &dst)
					tn += time.Since(t0)
				}
			}
		}
		b.ReportMetric(float64(tp.Nanoseconds())/float64(b.N), "pooled-ns/win")
		b.ReportMetric(float64(tn.Nanoseconds())/float64(b.N), "new-ns/win")
		b.ReportMetric(float64(tn)/float64(tp), "new/pooled")
	})
}

// BenchmarkChoose: the codec choice of an eligible window beyond building its frames
// (FastSize, Chooser.Choose and the selection), over the exact frame sizes of the
// benchmark windows: with the default budget, with policy 0, and the budget's
// Chooser.Choose alone (to attribute the cost).
func BenchmarkChoose(b *testing.B) {
	ws := benchWindows(b)
	var sizes []Sizes
	{
		e, err := NewEncoder(EncoderOptions{Policy: budget.DefaultPolicy()})
		if err != nil {
			b.Fatal(err)
		}
		for _, w := range ws {
			f, err := e.Encode(w)
			if err != nil {
				b.Fatal(err)
			}
			if f.Eligible {
				sizes = append(sizes, f.Sizes)
			}
		}
		e.Close()
	}
	if len(sizes) == 0 {
		b.Skip("no eligible window")
	}
	for _, tc := range []struct {
		name   string
		policy budget.Policy
	}{{"budget", budget.DefaultPolicy()}, {"smallest", budget.Policy{}}} {
		b.Run(tc.name, func(b *testing.B) {
			e, err := NewEncoder(EncoderOptions{Policy: tc.policy})
			if err != nil {
				b.Fatal(err)
			}
			defer e.Close()
			var counts [NumCodecs]int
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				counts[e.chooseEligible(&sizes[i%len(sizes)])]++
			}
			b.StopTimer()
			if counts[0]+counts[1]+counts[2] != b.N {
				b.Fatal("lost choices")
			}
		})
	}
	b.Run("budget-chooser-only", func(b *testing.B) {
		ch, err := budget.NewChooser(budget.DefaultPolicy())
		if err != nil {
			b.Fatal(err)
		}
		fast := make([]int, len(sizes))
		for i := range sizes {
			fast[i], _ = budget.FastSize(sizes[i].Raw, sizes[i].PFOR, sizes[i].PFOROK)
		}
		n := 0
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			k := i % len(sizes)
			if z, _ := ch.Choose(fast[k], sizes[k].Zstd); z {
				n++
			}
		}
		b.StopTimer()
		if n > b.N {
			b.Fatal("impossible")
		}
	})
}

// BenchmarkEncode: one window through Encode (all frames built, default budget).
func BenchmarkEncode(b *testing.B) {
	ws := benchWindows(b)
	e, err := NewEncoder(EncoderOptions{Policy: budget.DefaultPolicy()})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	for _, w := range ws { // warm the encoder (its zstd encoder is created lazily)
		if _, err := e.Encode(w); err != nil {
			b.Fatal(err)
		}
	}
	before := e.Outcome()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := e.Encode(ws[i%len(ws)]); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	o := e.Outcome()
	b.ReportMetric(float64(o.Windows[CodecZstd]-before.Windows[CodecZstd])/float64(b.N), "zstd/win")
}
