package reader

import (
	"context"
	"os"
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

// OpenMappedThen is Open of a mapped segment with between called once the
// file is mapped and before Open reads it (to change the file under the
// mapping at that moment).
func OpenMappedThen(path string, o Options, between func()) (*Segment, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	data, unmap, err := mapFile(f, st.Size())
	f.Close()
	if err != nil {
		return nil, err
	}
	s := &Segment{name: path, size: st.Size(), data: data, unmap: unmap, crcs: newCRCSet(st.Size())}
	between()
	if err := s.init(context.Background(), o); err != nil {
		s.release()
		return nil, err
	}
	return s, nil
}
