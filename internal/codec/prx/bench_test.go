package prx

import (
	"math/rand/v2"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"unicode"

	"github.com/snii-go/snii/budget"
	"github.com/snii-go/snii/internal/codec/chooser"
	"github.com/snii-go/snii/internal/testkit"
	"github.com/snii-go/snii/limits"
)

// Benchmark window sets: generated ones always; agent-log ones when the shared
// corpora are present (the benchmark skips otherwise).
var (
	benchGenOnce sync.Once
	benchGen     map[string][]*Window

	benchLogOnce sync.Once
	benchLog     []*Window
	benchLogErr  error
)

// generatedSets: "small" = 256 docs of tf 1..8 (one or two units); "large" = 1024 docs of
// 30 positions (31 units of 8 blocks each).
func generatedSets() map[string][]*Window {
	benchGenOnce.Do(func() {
		rng := rand.New(rand.NewPCG(41, 42))
		benchGen = map[string][]*Window{}
		for i := 0; i < 64; i++ {
			benchGen["small"] = append(benchGen["small"], genWindow(rng, 256, 1, 8, uint32(30+rng.IntN(600))))
		}
		for i := 0; i < 8; i++ {
			benchGen["large"] = append(benchGen["large"], genWindow(rng, 1024, 30, 30, uint32(5+rng.IntN(60))))
		}
	})
	return benchGen
}

// logWindows returns windows of up to 1024 docs built from the agent logs: the
// postings of terms of the "content" field, tokenized as maximal runs of letters
// or digits, lowercased; one window per term, for terms spread over the frequency
// range.
func logWindows(b *testing.B) []*Window {
	benchLogOnce.Do(func() {
		dir, err := testkit.FindCorpora()
		if err != nil {
			benchLogErr = err
			return
		}
		benchLog, benchLogErr = corpusWindows(filepath.Join(dir, testkit.AgentLogs), 1024, 64)
	})
	if benchLogErr != nil || len(benchLog) == 0 {
		b.Skipf("agent-log windows unavailable: %v", benchLogErr)
	}
	return benchLog
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
			inDoc[t] = append(inDoc[t], min(pos, MaxPosition))
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
	var names []string
	for t, ps := range terms {
		if len(ps) >= 64 {
			names = append(names, t)
		}
	}
	sort.Strings(names)
	step := max(1, len(names)/maxWindows)
	var out []*Window
	for i := 0; i < len(names) && len(out) < maxWindows; i += step {
		w := &Window{}
		for _, p := range terms[names[i]][:min(docsPerWindow, len(terms[names[i]]))] {
			w.AppendDoc(p.pos)
		}
		out = append(out, w)
	}
	return out, nil
}

// benchFrames encodes every window with codec c.
func benchFrames(b *testing.B, ws []*Window, c Codec) [][]byte {
	e, err := NewEncoder(EncoderOptions{Policy: budget.Policy{Kind: budget.Smallest}})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	var out [][]byte
	for _, w := range ws {
		f, err := e.EncodeCodec(w, c)
		if err != nil {
			b.Fatal(err)
		}
		out = append(out, slices.Clone(f.Bytes))
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

// benchDecode: ns per window, per codec, full and selective (8 random docs per
// window); it reports the frame size and the blocks decoded per window.
func benchDecode(b *testing.B, ws []*Window) {
	rng := rand.New(rand.NewPCG(43, 44))
	sels := make([][]uint32, len(ws))
	for i, w := range ws {
		sels[i] = randomOrds(rng, w.Docs(), 8)
	}
	for _, c := range []Codec{CodecRaw, CodecPFOR, CodecZstd} {
		frames := benchFrames(b, ws, c)
		for _, mode := range []string{"full", "selective8"} {
			b.Run(c.String()+"/"+mode, func(b *testing.B) {
				src := NewSource(limits.Limits{})
				defer src.Close()
				var st Stats
				src.SetStats(&st)
				var dst Window
				for _, f := range frames { // warm the Source and dst
					if _, err := src.Decode(f, true, &dst); err != nil {
						b.Fatal(err)
					}
				}
				st = Stats{}
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
				b.ReportMetric(float64(st.Blocks)/float64(b.N), "blocks/win")
			})
		}
	}
}

func BenchmarkDecode(b *testing.B) {
	sets := generatedSets()
	for _, name := range []string{"small", "large"} {
		b.Run(name, func(b *testing.B) { benchDecode(b, sets[name]) })
	}
	b.Run("agentlogs", func(b *testing.B) { benchDecode(b, logWindows(b)) })
}

// BenchmarkEncode: one window through Encode (all frames measured, the default budget).
func BenchmarkEncode(b *testing.B) {
	sets := generatedSets()
	run := func(b *testing.B, ws []*Window) {
		e, err := NewEncoder(EncoderOptions{Policy: budget.Policy{}})
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
		var units int64
		for c := range o.Windows {
			units += o.Windows[c] - before.Windows[c]
		}
		b.ReportMetric(float64(units)/float64(b.N), "units/win")
	}
	for _, name := range []string{"small", "large"} {
		b.Run(name, func(b *testing.B) { run(b, sets[name]) })
	}
	b.Run("agentlogs", func(b *testing.B) { run(b, logWindows(b)) })
}

// BenchmarkChoose: the chooser's decision for one eligible unit, from its exact
// sizes (FastSize and Chooser.Choose), with the default budget and with policy 0.
func BenchmarkChoose(b *testing.B) {
	var sizes []Sizes
	e, err := NewEncoder(EncoderOptions{Policy: budget.Policy{Kind: budget.Smallest}})
	if err != nil {
		b.Fatal(err)
	}
	for _, ws := range generatedSets() {
		for _, w := range ws {
			f, err := e.Encode(w)
			if err != nil {
				b.Fatal(err)
			}
			for _, u := range f.Units {
				if u.Eligible {
					sizes = append(sizes, u.Sizes)
				}
			}
		}
	}
	e.Close()
	if len(sizes) == 0 {
		b.Skip("no eligible unit")
	}
	for _, tc := range []struct {
		name   string
		policy budget.Policy
	}{{"budget", budget.Policy{}}, {"smallest", budget.Policy{Kind: budget.Smallest}}} {
		b.Run(tc.name, func(b *testing.B) {
			ch, err := chooser.New(tc.policy)
			if err != nil {
				b.Fatal(err)
			}
			n := 0
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				s := &sizes[i%len(sizes)]
				fast, _ := chooser.FastSize(s.Raw, s.PFOR, s.PFOROK)
				if z, _ := ch.Choose(fast, s.Zstd); z {
					n++
				}
			}
			b.StopTimer()
			if n > b.N {
				b.Fatal("impossible")
			}
		})
	}
}
