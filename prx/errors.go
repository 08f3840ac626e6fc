package prx

import (
	"errors"
	"fmt"

	"github.com/snii-go/snii/internal/errs"
)

// Error kinds re-exported from internal/errs, so errors.Is works with either name.
var (
	// ErrCorrupt: a frame or payload fails a check (CRC, bounds, counts, limits,
	// trailing bytes, position overflow).
	ErrCorrupt = errs.Corrupt
	// ErrInvalidArgument: the caller passed something the API does not accept
	// (a malformed window, ordinals out of order, limits above the defaults, a bad policy).
	ErrInvalidArgument = errs.InvalidArgument
	// ErrLimit: a single document is over a window limit; it cannot be split.
	ErrLimit = errs.Limit
	// ErrClosed: an Encoder or Source was used after Close.
	ErrClosed = errs.Closed
)

// ErrNeedsSplit is returned (wrapped) by Encoder.Encode for a window of more than one
// document that is over a limit (docs, positions or plain bytes). It is its own kind,
// distinct from ErrLimit: the writer splits the window at document boundaries and
// encodes the halves. Nothing was counted for the refused window.
var ErrNeedsSplit = errors.New("prx: window needs split")

// corruptf returns an ErrCorrupt error naming the codec of the frame being decoded.
func corruptf(c Codec, format string, args ...any) error {
	return fmt.Errorf("prx: %s frame: %s: %w", c, fmt.Sprintf(format, args...), errs.Corrupt)
}

// plainCorruptf returns an ErrCorrupt error for a plain payload decoded on its own
// (DecodePlain) or inside a frame of codec c.
func plainCorruptf(c Codec, standalone bool, format string, args ...any) error {
	if standalone {
		return fmt.Errorf("prx: plain payload: %s: %w", fmt.Sprintf(format, args...), errs.Corrupt)
	}
	return corruptf(c, format, args...)
}
