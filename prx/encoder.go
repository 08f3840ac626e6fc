package prx

import (
	"fmt"

	"github.com/klauspost/compress/zstd"
	"github.com/snii-go/snii/budget"
	"github.com/snii-go/snii/internal/errs"
)

// ZstdMinPlain is the plain payload size from which a window gets a zstd frame and
// goes through the chooser (an eligible window). Smaller windows, and singletons,
// take the smaller of PFOR and RAW and are never counted by the budget.
const ZstdMinPlain = 512

// EncoderOptions configure an Encoder.
type EncoderOptions struct {
	// ZstdLevel: 0 = zstd.SpeedDefault; 1..4 = klauspost levels SpeedFastest,
	// SpeedDefault, SpeedBetterCompression, SpeedBestCompression.
	ZstdLevel int
	// Limits bound each window; zero fields are the defaults (see Limits).
	Limits Limits
	// Policy decides between the zstd and the fast frame of eligible windows. The
	// zero value is NOT the default (it means "always the smallest frame");
	// callers pass budget.DefaultPolicy().
	Policy budget.Policy
}

// Sizes are the exact sizes (CRC included) of the frames considered for a window;
// a size is 0 when that frame was not considered.
type Sizes struct {
	Raw, PFOR, Zstd int
	PFOROK          bool // PFOR is a candidate (running positions fit in uint32, payload within MaxBytes)
	ZstdBuilt       bool // a zstd frame was built (eligible window)
}

// Frame is an encoded window.
type Frame struct {
	Codec    Codec
	Bytes    []byte // the whole frame including its CRC; valid until the next Encode or EncodeCodec
	PlainLen int    // length of the window's plain payload
	Eligible bool   // the window went through the chooser (plain payload >= ZstdMinPlain)
	Sizes    Sizes  // exact sizes of the frames considered
}

// Inline returns the frame in its inline form: Bytes without the trailing CRC, for a
// frame stored inside a dictionary entry (whose block CRC covers it).
func (f Frame) Inline() []byte {
	if len(f.Bytes) < CRCSize {
		return nil
	}
	return f.Bytes[:len(f.Bytes)-CRCSize]
}

// Outcome is what an Encoder stored: per codec, the windows and their frame bytes
// (CRC included), and the chooser's accounting of the eligible windows.
type Outcome struct {
	Windows [NumCodecs]int64
	Bytes   [NumCodecs]int64
	Budget  budget.Outcome
}

// Encoder encodes the windows of one logical index of one segment build, choosing a
// codec per window with that index's budget.Chooser. It owns one zstd encoder (created
// at the first eligible window) and reusable buffers. It is not safe for concurrent use.
type Encoder struct {
	limits  Limits
	level   zstd.EncoderLevel
	chooser *budget.Chooser
	zenc    *zstd.Encoder
	pf      pforBuilder
	rawBuf  []byte
	pforBuf []byte
	zstdBuf []byte
	zcomp   []byte
	windows [NumCodecs]int64
	bytes   [NumCodecs]int64
	closed  bool
}

// NewEncoder returns an encoder, or an error wrapping ErrInvalidArgument for invalid
// options (zstd level, limits above the defaults, policy out of range).
func NewEncoder(o EncoderOptions) (*Encoder, error) {
	lim, err := o.Limits.checked()
	if err != nil {
		return nil, err
	}
	var level zstd.EncoderLevel
	switch o.ZstdLevel {
	case 0:
		level = zstd.SpeedDefault
	case 1:
		level = zstd.SpeedFastest
	case 2:
		level = zstd.SpeedDefault
	case 3:
		level = zstd.SpeedBetterCompression
	case 4:
		level = zstd.SpeedBestCompression
	default:
		return nil, errs.Invalidf("prx: zstd level %d (want 0 for the default, or 1..4)", o.ZstdLevel)
	}
	ch, err := budget.NewChooser(o.Policy)
	if err != nil {
		return nil, fmt.Errorf("prx: encoder policy: %w: %w", errs.InvalidArgument, err)
	}
	return &Encoder{limits: lim, level: level, chooser: ch}, nil
}

// Eligible reports whether Encode would build a zstd frame for w and let the
// policy choose (the window is not a singleton and its plain payload is at least
// ZstdMinPlain bytes). Windows read back from a segment are classified with it.
func Eligible(w *Window) bool {
	return !(w.Docs() == 1 && len(w.Positions) == 1) && PlainSize(w) >= ZstdMinPlain
}

// Encode encodes one window and chooses its codec:
//   - a singleton (one document with one position) is RAW; no PFOR is built;
//   - a plain payload under ZstdMinPlain bytes takes the smaller of PFOR and RAW
//     (PFOR on a tie); zstd is not tried and the budget is not consulted;
//   - otherwise (eligible) RAW, PFOR (when a candidate) and zstd frames are built,
//     fast = min(PFOR, RAW), and the chooser decides between zstd and fast.
//
// Errors: ErrInvalidArgument for a malformed window (see Window.Validate); for a
// window over a limit (docs, positions, plain bytes), ErrNeedsSplit when it has more
// than one document and ErrLimit when it is a single document. Nothing is counted
// for a window that fails.
func (e *Encoder) Encode(w *Window) (Frame, error) {
	s, err := e.prepare(w)
	if err != nil {
		return Frame{}, err
	}
	f := Frame{PlainLen: s.plain}
	f.Sizes.Raw = frameSize(s.plain)
	switch {
	case s.docs == 1 && s.positions == 1:
		f.Codec, f.Bytes = CodecRaw, e.buildRaw(w, &s)
	case s.plain < ZstdMinPlain:
		built := e.measurePFOR(w, &s, &f.Sizes)
		if _, isPFOR := budget.FastSize(f.Sizes.Raw, f.Sizes.PFOR, f.Sizes.PFOROK); isPFOR {
			f.Codec, f.Bytes = CodecPFOR, e.emitPFOR(w, &s, built)
		} else {
			f.Codec, f.Bytes = CodecRaw, e.buildRaw(w, &s)
		}
	default:
		raw := e.buildRaw(w, &s)
		h := 1 + uvarintLen32(uint32(s.plain))
		built := e.measurePFOR(w, &s, &f.Sizes)
		z, err := e.buildZstd(raw[h : h+s.plain])
		if err != nil {
			return Frame{}, err
		}
		f.Sizes.Zstd, f.Sizes.ZstdBuilt = len(z), true
		f.Eligible = true
		switch f.Codec = e.chooseEligible(&f.Sizes); f.Codec {
		case CodecZstd:
			f.Bytes = z
		case CodecPFOR:
			f.Bytes = e.emitPFOR(w, &s, built)
		default:
			f.Bytes = raw
		}
	}
	e.windows[f.Codec]++
	e.bytes[f.Codec] += int64(len(f.Bytes))
	return f, nil
}

// chooseEligible applies the policy to an eligible window's exact frame sizes.
func (e *Encoder) chooseEligible(sz *Sizes) Codec {
	fast, isPFOR := budget.FastSize(sz.Raw, sz.PFOR, sz.PFOROK)
	if storeZstd, _ := e.chooser.Choose(fast, sz.Zstd); storeZstd {
		return CodecZstd
	}
	if isPFOR {
		return CodecPFOR
	}
	return CodecRaw
}

// EncodeCodec encodes w with codec c regardless of the choice rules, for tools that
// compare codecs (capture/replay, benchmarks). It neither consults nor updates the
// chooser and the Outcome. The window is validated and limited as in Encode; a window
// that PFOR cannot represent is an ErrInvalidArgument error. Frame.Eligible is false
// and Frame.Sizes holds only the size of the frame built.
func (e *Encoder) EncodeCodec(w *Window, c Codec) (Frame, error) {
	s, err := e.prepare(w)
	if err != nil {
		return Frame{}, err
	}
	f := Frame{Codec: c, PlainLen: s.plain}
	switch c {
	case CodecRaw:
		f.Bytes = e.buildRaw(w, &s)
		f.Sizes.Raw = len(f.Bytes)
	case CodecPFOR:
		if !s.pforOK {
			return Frame{}, errs.Invalidf("prx: window of %d docs: running positions overflow uint32, no PFOR frame", s.docs)
		}
		p := e.pf.build(w, &s)
		if p > e.limits.MaxBytes {
			return Frame{}, errs.Invalidf("prx: window of %d docs: PFOR payload of %d bytes over the limit %d", s.docs, p, e.limits.MaxBytes)
		}
		f.Bytes = e.emitPFOR(w, &s, true)
		f.Sizes.PFOR, f.Sizes.PFOROK = len(f.Bytes), true
	case CodecZstd:
		raw := e.buildRaw(w, &s)
		h := 1 + uvarintLen32(uint32(s.plain))
		if f.Bytes, err = e.buildZstd(raw[h : h+s.plain]); err != nil {
			return Frame{}, err
		}
		f.Sizes.Zstd, f.Sizes.ZstdBuilt = len(f.Bytes), true
	default:
		return Frame{}, errs.Invalidf("prx: unknown codec %d", c)
	}
	return f, nil
}

// prepare validates w, measures it and applies the limits.
func (e *Encoder) prepare(w *Window) (windowScan, error) {
	if e.closed {
		return windowScan{}, fmt.Errorf("prx: encode after Close: %w", errs.Closed)
	}
	s, err := scanWindow(w)
	if err != nil {
		return s, err
	}
	l := &e.limits
	if s.docs > l.MaxDocs || s.positions > l.MaxPositions || s.plain > l.MaxBytes {
		if s.docs > 1 {
			return s, fmt.Errorf("prx: window of %d docs, %d positions, %d plain bytes is over the limits (%d docs, %d positions, %d bytes): %w",
				s.docs, s.positions, s.plain, l.MaxDocs, l.MaxPositions, l.MaxBytes, ErrNeedsSplit)
		}
		return s, errs.Limitf("prx: a single document with %d positions (%d plain bytes) is over the window limits (%d positions, %d bytes)",
			s.positions, s.plain, l.MaxPositions, l.MaxBytes)
	}
	return s, nil
}

// measurePFOR fills sz.PFOR and sz.PFOROK. Windows whose columns both have fewer
// than 128 values are measured without building (smallPFORSize); it reports whether
// the columns were built.
func (e *Encoder) measurePFOR(w *Window, s *windowScan, sz *Sizes) (built bool) {
	if !s.pforOK {
		return false
	}
	var p int
	if s.docs < pforBlock && s.positions < pforBlock {
		p = smallPFORSize(s)
	} else {
		p, built = e.pf.build(w, s), true
	}
	if p > e.limits.MaxBytes {
		return built
	}
	sz.PFOR, sz.PFOROK = frameSize(p), true
	return built
}

// buildRaw builds the RAW frame of w into the encoder's RAW buffer.
func (e *Encoder) buildRaw(w *Window, s *windowScan) []byte {
	b := append(e.rawBuf[:0], byte(CodecRaw))
	b = appendUvarint(b, uint32(s.plain))
	b = appendPlain(b, w, s.plain+CRCSize)
	b = appendCRC(b, 0)
	e.rawBuf = b
	return b
}

// emitPFOR writes the PFOR frame of w; built says whether pf holds its columns already.
func (e *Encoder) emitPFOR(w *Window, s *windowScan, built bool) []byte {
	if !built {
		e.pf.build(w, s)
	}
	p := uvarintLen32(uint32(s.docs)) + uvarintLen32(uint32(s.positions)) + 4*(len(e.pf.cw)+len(e.pf.rw))
	b := append(e.pforBuf[:0], byte(CodecPFOR))
	b = appendUvarint(b, uint32(p))
	b = e.pf.appendPayload(b, s)
	b = appendCRC(b, 0)
	e.pforBuf = b
	return b
}

// buildZstd compresses plain and builds the ZSTD frame into the encoder's zstd buffer.
func (e *Encoder) buildZstd(plain []byte) ([]byte, error) {
	if e.zenc == nil {
		z, err := zstd.NewWriter(nil,
			zstd.WithEncoderConcurrency(1),
			zstd.WithEncoderCRC(false),
			zstd.WithEncoderLevel(e.level),
			zstd.WithSingleSegment(true),
		)
		if err != nil {
			return nil, fmt.Errorf("prx: zstd encoder: %w", err)
		}
		e.zenc = z
	}
	e.zcomp = e.zenc.EncodeAll(plain, e.zcomp[:0])
	b := append(e.zstdBuf[:0], byte(CodecZstd))
	b = appendUvarint(b, uint32(len(plain)))
	b = appendUvarint(b, uint32(len(e.zcomp)))
	b = append(b, e.zcomp...)
	b = appendCRC(b, 0)
	e.zstdBuf = b
	return b, nil
}

// Outcome reports the frames stored so far and the chooser's accounting.
func (e *Encoder) Outcome() Outcome {
	return Outcome{Windows: e.windows, Bytes: e.bytes, Budget: e.chooser.Outcome()}
}

// Close releases the zstd encoder. The Encoder must not be used afterwards (Encode
// returns an error wrapping ErrClosed). Close is idempotent.
func (e *Encoder) Close() {
	if e.zenc != nil {
		_ = e.zenc.Close()
		e.zenc = nil
	}
	e.closed = true
}
