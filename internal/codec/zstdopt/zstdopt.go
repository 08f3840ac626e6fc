package zstdopt

import (
	"fmt"

	"github.com/klauspost/compress/zstd"
	"github.com/snii-go/snii/internal/errs"
)

// MaxLevel is the highest level option.
const MaxLevel = 4

// Level maps a level option to the encoder's level: 0 is the default (as 2),
// 1 the fastest, 3 better and 4 the best compression. Another value is an
// error wrapping snii.ErrInvalidArgument.
func Level(l int) (zstd.EncoderLevel, error) {
	switch l {
	case 0, 2:
		return zstd.SpeedDefault, nil
	case 1:
		return zstd.SpeedFastest, nil
	case 3:
		return zstd.SpeedBetterCompression, nil
	case 4:
		return zstd.SpeedBestCompression, nil
	}
	return 0, errs.Invalidf("zstd level %d (want 0 for the default, or 1..%d)", l, MaxLevel)
}

// NewEncoder returns a single-threaded encoder at level (see Level) for
// EncodeAll: single-segment frames (they declare their content size, which
// decoders check) without zstd's own checksum (snii's sections carry a
// CRC32C).
func NewEncoder(level int) (*zstd.Encoder, error) {
	return NewEncoderWindow(level, 0)
}

// NewEncoderWindow returns an encoder as NewEncoder's whose matches reach at
// most window bytes back (a power of two, at least 1 KiB; 0: zstd's default,
// 8 MiB). The encoder's history buffer is about twice its window (at least
// 1 MiB): a small window bounds the memory of an encoder of small inputs,
// whose frames it does not change while the input fits in the window.
func NewEncoderWindow(level, window int) (*zstd.Encoder, error) {
	lv, err := Level(level)
	if err != nil {
		return nil, err
	}
	opts := []zstd.EOption{
		zstd.WithEncoderConcurrency(1),
		zstd.WithEncoderCRC(false),
		zstd.WithEncoderLevel(lv),
		zstd.WithSingleSegment(true),
	}
	if window > 0 {
		opts = append(opts, zstd.WithWindowSize(window))
	}
	e, err := zstd.NewWriter(nil, opts...)
	if err != nil {
		return nil, fmt.Errorf("zstd encoder: %w", err)
	}
	return e, nil
}

// DecodeSlack is the room to leave in a DecodeAll destination after the
// output so that the decoder uses its fast copies up to the last byte (they
// may write up to this many bytes past a copy's end); the output must still
// come out at its declared length.
const DecodeSlack = 32

// NewDecoder returns a single-threaded decoder for DecodeAll that never
// allocates beyond maxBytes of output (its memory, window and DecodeAll's
// capacity are capped) and ignores zstd checksums (snii writes none; a
// CRC32C covers each frame or block). It knows no dictionary: a frame naming
// a shared literal table goes through Unshare first. The window may exceed
// maxBytes up to 256 KiB, the window Unshare may give a frame of one block
// (the output stays capped).
func NewDecoder(maxBytes int) (*zstd.Decoder, error) {
	d, err := zstd.NewReader(nil,
		zstd.WithDecoderConcurrency(1),
		zstd.WithDecoderMaxMemory(uint64(maxBytes)),
		zstd.WithDecoderMaxWindow(uint64(max(maxBytes, 256<<10))),
		zstd.WithDecodeAllCapLimit(true),
		zstd.IgnoreChecksum(true),
	)
	if err != nil {
		return nil, fmt.Errorf("zstd decoder: %w", err)
	}
	return d, nil
}
