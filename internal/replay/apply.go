package replay

import (
	"github.com/snii-go/snii/budget"
	"github.com/snii-go/snii/internal/codec/chooser"
	"github.com/snii-go/snii/internal/codec/prx"
)

// Applied is one policy applied to the eligible windows of a Set in one order.
type Applied struct {
	Policy budget.Policy
	Order  Order
	// Perm is the order the chooser saw: positions in Set.Eligible.
	Perm []int
	// StoreZstd[k] says whether the k-th eligible window (Set.Eligible[k]) stores
	// its zstd frame (else its fast frame).
	StoreZstd []bool
	// Outcome is the chooser's accounting after the last window.
	Outcome budget.Outcome
}

// Permutation returns the order o of the set's eligible windows (positions in Eligible).
func (s *Set) Permutation(o Order) []int {
	return o.Permute(len(s.Eligible), func(k int) int { return s.Windows[s.Eligible[k]].Eval.Saving })
}

// Apply runs a fresh chooser for p over the eligible windows in order o, as the
// writer's encoder would see them, and records its choices.
func (s *Set) Apply(p budget.Policy, o Order) (*Applied, error) {
	ch, err := chooser.New(p)
	if err != nil {
		return nil, err
	}
	a := &Applied{Policy: p, Order: o, Perm: s.Permutation(o), StoreZstd: make([]bool, len(s.Eligible))}
	for _, k := range a.Perm {
		e := &s.Windows[s.Eligible[k]].Eval
		a.StoreZstd[k], _ = ch.Choose(e.Fast, e.Zstd)
	}
	a.Outcome = ch.Outcome()
	return a, nil
}

// Codecs counts windows or bytes per codec.
type Codecs struct {
	Raw  int64 `json:"raw"`
	Zstd int64 `json:"zstd"`
	PFOR int64 `json:"pfor"`
}

// Add adds n to codec c.
func (c *Codecs) Add(codec prx.Codec, n int64) {
	switch codec {
	case prx.CodecRaw:
		c.Raw += n
	case prx.CodecZstd:
		c.Zstd += n
	case prx.CodecPFOR:
		c.PFOR += n
	}
}

// Array returns the counts indexed by codec number (as prx.Outcome holds them).
func (c Codecs) Array() [3]int64 {
	var a [3]int64
	a[prx.CodecRaw], a[prx.CodecZstd], a[prx.CodecPFOR] = c.Raw, c.Zstd, c.PFOR
	return a
}

// Total returns the sum over codecs.
func (c Codecs) Total() int64 { return c.Raw + c.Zstd + c.PFOR }

// Bytes is what an applied policy stores.
type Bytes struct {
	Stored   int64  // bytes of the stored frames of the eligible windows
	Smallest int64  // bytes of their smallest frames
	Frames   Codecs // eligible windows per stored codec
	Sizes    Codecs // their stored bytes per codec
	// AllFrames and AllSizes add the captured fast-path windows (meaningful when Set.All).
	AllFrames Codecs
	AllSizes  Codecs
}

// Bytes totals what a stores, per codec.
func (s *Set) Bytes(a *Applied) Bytes {
	var b Bytes
	for k, wi := range s.Eligible {
		w := &s.Windows[wi]
		codec, n := w.FastCodec, int64(len(w.Fast))
		if a.StoreZstd[k] {
			codec, n = prx.CodecZstd, int64(len(w.Zstd))
		}
		b.Stored += n
		b.Smallest += int64(w.Eval.Smallest)
		b.Frames.Add(codec, 1)
		b.Sizes.Add(codec, n)
	}
	b.AllFrames, b.AllSizes = b.Frames, b.Sizes
	for i := range s.Windows {
		if w := &s.Windows[i]; !w.Eligible {
			b.AllFrames.Add(w.FastCodec, 1)
			b.AllSizes.Add(w.FastCodec, int64(len(w.Fast)))
		}
	}
	return b
}

// Frames returns the stored frames of the eligible windows in captured order.
func (s *Set) Frames(a *Applied) [][]byte {
	out := make([][]byte, len(s.Eligible))
	for k, wi := range s.Eligible {
		out[k] = s.Windows[wi].Stored(a.StoreZstd[k])
	}
	return out
}

// SmallestFrames returns the smallest frames of the eligible windows in captured order.
func (s *Set) SmallestFrames() [][]byte {
	out := make([][]byte, len(s.Eligible))
	for k, wi := range s.Eligible {
		out[k] = s.Windows[wi].Smallest()
	}
	return out
}
