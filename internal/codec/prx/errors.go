package prx

import (
	"errors"
	"fmt"

	"github.com/snii-go/snii/internal/errs"
)

// ErrNeedsSplit is returned (wrapped) by Encoder.Encode for a window of more than one
// document that is over a limit (docs, positions or plain bytes). It is a signal to the
// writer, not an error kind (snii's kinds are the only ones a public package returns):
// the writer splits the window at document boundaries and encodes the halves, so it
// never leaves the library. A single document over a limit is snii.ErrLimit instead.
// Nothing was counted for the refused window.
var ErrNeedsSplit = errors.New("prx: window needs split")

// corruptf returns a snii.ErrCorrupt error naming the codec of the frame being decoded.
func corruptf(c Codec, format string, args ...any) error {
	return fmt.Errorf("prx: %s frame: %s: %w", c, fmt.Sprintf(format, args...), errs.Corrupt)
}

// plainCorruptf returns a snii.ErrCorrupt error for a plain payload decoded on its own
// (DecodePlain) or inside a frame of codec c.
func plainCorruptf(c Codec, standalone bool, format string, args ...any) error {
	if standalone {
		return fmt.Errorf("prx: plain payload: %s: %w", fmt.Sprintf(format, args...), errs.Corrupt)
	}
	return corruptf(c, format, args...)
}
