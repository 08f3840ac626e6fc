package writer_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/snii-go/snii/analysis"
	"github.com/snii-go/snii/internal/testkit"
	"github.com/snii-go/snii/writer"
)

// rawAnalyzer emits the '|'-separated parts of a value as they are (the empty
// part, NUL bytes and upper case included), one position each.
const rawAnalyzer = "writertest-raw"

func init() {
	analysis.Register(rawAnalyzer, 1, func(analysis.Spec) (analysis.Analyzer, error) { return rawTerms{}, nil })
}

type rawTerms struct{}

func (rawTerms) Analyze(text string, emit func(term []byte, pos uint32)) (uint32, uint32) {
	parts := strings.Split(text, "|")
	buf := make([]byte, 0, 64) // room past every term: its bytes past the term are another's
	for i, p := range parts {
		buf = append(buf[:0], p...)
		emit(buf, uint32(i))
	}
	return uint32(len(parts)), 0
}

// TestInlineTermBytes: terms of 0 to 17 bytes, those of at most 8 bytes
// stored by their 8-byte key, among look-alikes that differ only by
// trailing NULs ("ab", "ab\x00", "ab\x00\x00") or past the 8th byte, in
// documents whose tokens alternate short and long: every term's postings
// equal the analyzer's, and the bytes do not depend on the memory limit
// (spills).
func TestInlineTermBytes(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	var vocab []string
	for n := 0; n <= 17; n++ {
		b := []byte(strings.Repeat("abcdefghijklmnopq", 2)[:n])
		vocab = append(vocab, string(b))
		for _, pad := range []int{1, 2, 8 - n, 9 - n} {
			if pad > 0 && n+pad <= 17 {
				vocab = append(vocab, string(b)+strings.Repeat("\x00", pad))
			}
		}
		if n > 0 {
			c := bytes.Clone(b)
			c[n-1] ^= 0x20
			vocab = append(vocab, string(c))
		}
	}
	docs := make([]writer.Document, 1500)
	for i := range docs {
		parts := make([]string, 1+r.IntN(40))
		for j := range parts {
			parts[j] = vocab[r.IntN(len(vocab))]
		}
		docs[i] = writer.Document{Fields: []writer.Field{{Name: "text", Values: []string{strings.Join(parts, "|")}}}}
	}
	var ref []byte
	for _, limit := range []int64{0, 96 << 10} {
		o := writer.DefaultOptions("text")
		o.Fields[0].Analyzer = rawAnalyzer
		o.MemoryLimit = limit
		dir := t.TempDir()
		path, st := build(t, dir, fmt.Sprintf("l%d.snii", limit), o, docs)
		if limit > 0 && st.Spills == 0 {
			t.Fatalf("limit %d: no spill", limit)
		}
		checkAgainstOracle(t, path, o, docs)
		b := testkit.ReadFile(t, path)
		if ref == nil {
			ref = b
		} else if !bytes.Equal(b, ref) {
			t.Errorf("limit %d: the segment differs from the unlimited build's", limit)
		}
	}
}
