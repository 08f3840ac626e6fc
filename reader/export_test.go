package reader

import (
	"context"
	"slices"
)

// NewDecodeBudgetHold makes a stand-in query hold n bytes of b (it runs, holding
// them); the returned func gives them back.
func NewDecodeBudgetHold(b *DecodeBudget, n int64) func() {
	if err := b.acquire(context.Background(), 0, n); err != nil {
		panic(err)
	}
	return func() { b.release(n) }
}

// DecodeBudgetAcquire and DecodeBudgetRelease expose the budget's protocol.
func DecodeBudgetAcquire(b *DecodeBudget, ctx context.Context, held, n int64) error {
	return b.acquire(ctx, held, n)
}

func DecodeBudgetRelease(b *DecodeBudget, n int64) { b.release(n) }

// TopScored is Segment.Top, also returning the documents it scored in full.
func TopScored(s *Segment, ctx context.Context, q Query, k int, o *TopOptions) ([]Hit, int64, error) {
	return s.top(ctx, q, k, o)
}

// CanMmap reports whether Open maps segments on this platform.
const CanMmap = canMmap

// OpenMappedThen is Open with between called once the file is opened (and
// mapped, unless o.NoMmap) and before Open reads it (to change the file under
// the mapping at that moment).
func OpenMappedThen(path string, o Options, between func()) (*Segment, error) {
	s, err := openFile(path, o)
	if err != nil {
		return nil, err
	}
	between()
	if err := s.init(context.Background(), o); err != nil {
		s.release()
		return nil, err
	}
	return s, nil
}

// LeapCounts counts q's matches without pairs and returns how many times
// the leapfrog called advance and how many candidates went to leapVerify
// (the general verification).
func LeapCounts(s *Segment, q Query) (n uint64, advances, verifies int64, err error) {
	x := s.getCtx(context.Background(), false)
	defer s.putCtx(x)
	x.noPairs = true
	n, err = q.count(x)
	return n, x.count.leapAdvances, x.count.leapVerifies, err
}

// PhraseTFReads lists q's matches among ids (ascending) and returns how
// many term frequencies the lazy verification of its candidates read
// (lazyTFs, lazyReplay).
func PhraseTFReads(s *Segment, q Query, ids []uint32) (docs []uint32, tfReads int64, err error) {
	x := s.getCtx(context.Background(), false)
	defer s.putCtx(x)
	docs, err = q.docs(x, only(ids), nil)
	return slices.Clone(docs), x.count.tfReads, err
}
