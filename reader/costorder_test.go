package reader_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/snii-go/snii/internal/codec/prx"
	"github.com/snii-go/snii/internal/seam"
	"github.com/snii-go/snii/internal/testkit/oracle"
	"github.com/snii-go/snii/reader"
	"github.com/snii-go/snii/writer"
)

// TestZstdReadLast: a phrase verifier reads the positions of a term whose unit
// is a ZSTD unit not inflated yet after those that cost no inflation, so a
// candidate they rule out never inflates it. "z" (the rarest term, on ZSTD
// units: its positions cycle through 16 values), "p" and "q" (random
// positions, which ZSTD does not shrink by the 30% the policy asks) are in
// thousands of documents, and "p q z" only in the first few, all in z's first
// unit; elsewhere p is never right before q. Once p is in each document once
// (verifyLeap's tight case), once twice (matchStream, whose anchor by
// occurrences would be z or q). Either way the phrase inflates z's first unit
// alone; reading z first inflated every one of its units.
func TestZstdReadLast(t *testing.T) {
	pattern := [16]int{3, 17, 9, 28, 2, 22, 14, 6, 30, 11, 25, 4, 19, 8, 27, 12}
	for _, twice := range []bool{false, true} {
		t.Run(fmt.Sprintf("p twice %v", twice), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(7, 9))
			// z in more than format.LargeDF docs: 1,024-doc windows, whose
			// units are long enough to be ZSTD.
			const n, hits = 8800, 6
			var docs []oracle.Doc
			for d := 0; d < n; d++ {
				words := make([]string, 40)
				for i := range words {
					words[i] = fmt.Sprintf("f%d", rng.IntN(60))
				}
				zp := -1
				if d%40 != 39 { // z in 39 of 40 docs, p and q in all: z leads
					zp = pattern[d%16]
					words[zp] = "z"
				}
				free := func(ok func(i int) bool) int {
					for {
						if i := rng.IntN(len(words)); words[i] != "z" && words[i] != "p" && words[i] != "q" && ok(i) {
							return i
						}
					}
				}
				if d < hits && zp >= 0 {
					words[zp-2], words[zp-1] = "p", "q"
				} else {
					// p never right before q: no match, whatever z does
					qi := free(func(int) bool { return true })
					words[qi] = "q"
					words[free(func(i int) bool { return i+1 != qi })] = "p"
					if twice {
						words[free(func(i int) bool { return i+1 != qi })] = "p"
					}
				}
				docs = append(docs, oracle.Doc{{Name: "text", Values: []string{strings.Join(words, " ")}}})
			}
			o := options(30, "text") // ZSTD where it saves 30%: z's units, not p's
			o.Pairs.Percent = writer.PairsOff
			s := open(t, build(t, docs, o))

			// z's units are ZSTD (but its last, a short one), p's and q's are
			// not (else the fixture tests nothing).
			units := unitsByCodec(t, s, "text", "z", "p", "q")
			zz := units[0][prx.CodecZstd]
			if zz < 3 || units[0][prx.CodecRaw]+units[0][prx.CodecPFOR] > 1 || units[1][prx.CodecZstd]+units[2][prx.CodecZstd] != 0 {
				t.Fatalf("fixture: units by codec: z %v, p %v, q %v: want z's ZSTD (3 or more, one other at most), none of p's and q's", units[0], units[1], units[2])
			}

			c := corpusOf(docs)
			want, pr := checkPhraseDocs(t, s, c, []string{"p", "q", "z"})
			if len(want) != hits {
				t.Fatalf("fixture: %d hits, want %d", len(want), hits)
			}
			if pr.Inflated != 1 {
				t.Errorf("%d ZSTD units inflated (z has %d); want 1, the unit of the hits", pr.Inflated, zz)
			}
		})
	}
}

// unitsByCodec counts the .prx units of each term of field by codec.
func unitsByCodec(t *testing.T, s *reader.Segment, field string, terms ...string) [][prx.NumCodecs]int {
	t.Helper()
	units := make([][prx.NumCodecs]int, len(terms))
	err := seam.SegmentWindows(bg, s, field, func(term []byte, w *prx.Window, us []prx.Unit) error {
		for k, name := range terms {
			if string(term) == name {
				for _, u := range us {
					units[k][u.Codec]++
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return units
}
