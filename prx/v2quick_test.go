package prx

import (
	"math/rand/v2"
	"testing"

	"github.com/snii-go/snii/budget"
)

func TestV2Quick(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for it := 0; it < 400; it++ {
		docs := 1 + rng.IntN(600)
		tfMax := 1 + rng.IntN(40)
		if it%10 == 0 {
			tfMax = 3000
		}
		w := genWindow(rng, docs, 1, tfMax, uint32(1+rng.IntN(5000)))
		for _, pol := range []int{-2, 0, 1, 2} {
			e, _ := NewEncoder(EncoderOptions{Policy: budget.Policy{Kind: budget.Smallest}})
			var f Frame
			var err error
			if pol == -2 {
				f, err = e.Encode(w)
			} else {
				f, err = e.EncodeCodec(w, Codec(pol))
			}
			if err != nil {
				t.Fatal(err)
			}
			src := NewSource(Limits{})
			var got Window
			if _, err := src.Decode(f.Bytes, true, &got); err != nil {
				t.Fatalf("it %d pol %d units %d: %v", it, pol, len(f.Units), err)
			}
			if d := diffWindow(canon(w), canon(&got)); d != "" {
				t.Fatalf("it %d pol %d: %s", it, pol, d)
			}
			var ords []uint32
			for i := 0; i < docs; i++ {
				if rng.IntN(7) == 0 {
					ords = append(ords, uint32(i))
				}
			}
			if _, err := src.DecodeSelected(f.Bytes, true, ords, &got); err != nil {
				t.Fatalf("sel it %d pol %d: %v", it, pol, err)
			}
			if d := diffWindow(canon(oracleSelect(w, ords)), canon(&got)); d != "" {
				t.Fatalf("sel it %d pol %d: %s", it, pol, d)
			}
			e.Close()
		}
	}
}
