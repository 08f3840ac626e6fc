package replay

import (
	"bytes"
	"fmt"

	"github.com/snii-go/snii/internal/codec/prx"
	"github.com/snii-go/snii/internal/errs"
)

// Verify re-encodes the eligible windows with prx.Encoder under a's policy, in a's
// order, and checks that every window gets the frame a says (same codec, same
// bytes) and that the encoder's budget accounting equals a's. This proves that
// replaying with chooser.Chooser on prepared frames stores exactly what the writer
// would. It recompresses every window, so it costs about one Prepare.
func (s *Set) Verify(a *Applied) error {
	enc, err := prx.NewEncoder(prx.EncoderOptions{ZstdLevel: s.ZstdLevel, Limits: s.Limits, Policy: a.Policy})
	if err != nil {
		return err
	}
	defer enc.Close()
	var pw prx.Window
	for _, k := range a.Perm {
		w := &s.Windows[s.Eligible[k]]
		if err := prx.DecodePlain(w.Plain, s.Limits, &pw); err != nil {
			return fmt.Errorf("replay verify: capture record %d: %w", w.Record, err)
		}
		f, err := enc.Encode(&pw)
		if err != nil {
			return fmt.Errorf("replay verify: capture record %d: %w", w.Record, err)
		}
		want := w.Stored(a.StoreZstd[k])
		if !bytes.Equal(f.Bytes, want) {
			return errs.Corruptf("replay verify: policy %s, order %s, capture record %d: the encoder stores a %d-byte %s frame, the replay a %d-byte frame",
				a.Policy, a.Order, w.Record, len(f.Bytes), f.Codec, len(want))
		}
	}
	if got := enc.Outcome().Budget; got != a.Outcome {
		return errs.Corruptf("replay verify: policy %s, order %s: encoder outcome %+v, replay %+v", a.Policy, a.Order, got, a.Outcome)
	}
	return nil
}
