package prx

import (
	"encoding/binary"
	"fmt"

	"github.com/klauspost/compress/zstd"
	"github.com/snii-go/snii/budget"
	"github.com/snii-go/snii/internal/codec/bitpack"
	"github.com/snii-go/snii/internal/codec/chooser"
	"github.com/snii-go/snii/internal/codec/zstdopt"
	"github.com/snii-go/snii/internal/errs"
	"github.com/snii-go/snii/limits"
)

// ZstdMinPlain is the plain length (RAW positions payload) from which a unit gets a
// zstd frame and goes through the chooser (an eligible unit). Smaller units, and
// singletons, take the smaller of PFOR and RAW and are never counted by the budget.
const ZstdMinPlain = 512

// EncoderOptions configure an Encoder.
type EncoderOptions struct {
	// ZstdLevel: 0 is the default level (as 2); 1 the fastest, 3 better, 4
	// the best compression.
	ZstdLevel int
	// Limits bound each window; zero fields are the defaults (see Limits).
	Limits limits.Limits
	// Policy decides between the zstd and the fast frame of eligible units;
	// the zero value is the default (the budget, see budget.Policy).
	Policy budget.Policy
	// Parallel compresses units on a goroutine of its own (the same frames):
	// the units of a window given to Prepare while the caller encodes the
	// window before it, and otherwise, from the last unit down, the units of
	// a multi-unit window that Encode has not reached.
	Parallel bool
}

// Sizes are the exact sizes (CRC included) of the unit frames considered for a
// unit; a size is 0 when that frame was not considered.
type Sizes struct {
	Raw, PFOR, Zstd int
	PFOROK          bool // PFOR is a candidate (always, for a valid unit)
	ZstdBuilt       bool // a zstd frame was built (eligible unit)
}

// Unit describes one encoded unit of a window.
type Unit struct {
	Codec     Codec
	Lo, Hi    int  // the window's documents Lo..Hi-1
	Positions int  // positions of those documents
	PlainLen  int  // the unit's plain length: its RAW positions payload
	Eligible  bool // the unit went through the chooser (not a singleton, PlainLen >= ZstdMinPlain)
	Sizes     Sizes
	Off, Len  int // the unit frame within Frame.Bytes
}

// Frame is an encoded window: one unit frame, or a multi-unit header followed by
// the unit frames.
type Frame struct {
	Bytes []byte // the whole window in CRC form; valid until the next Encode or EncodeCodec
	Units []Unit // the units, in order; valid until the next Encode or EncodeCodec
	// For a window of one unit, the fields of that unit (Codec, PlainLen, Eligible,
	// Sizes); for a multi-unit window Codec is the first unit's and the rest is zero.
	Codec    Codec
	PlainLen int
	Eligible bool
	Sizes    Sizes
}

// Inline returns the frame in its inline form (without its CRC), for a frame stored
// inside a dictionary entry (whose block CRC covers it). Only a window of one unit
// has an inline form; for others Inline returns nil.
func (f Frame) Inline() []byte {
	if len(f.Units) != 1 || len(f.Bytes) < CRCSize {
		return nil
	}
	return f.Bytes[:len(f.Bytes)-CRCSize]
}

// Outcome is what an Encoder stored: per codec, the units and their frame bytes
// (CRC included), the multi-unit windows and their header bytes, and the chooser's
// accounting of the eligible units.
type Outcome struct {
	Windows     [NumCodecs]int64 // units stored, by codec
	Bytes       [NumCodecs]int64 // unit frame bytes, by codec
	MultiUnit   int64            // windows of more than one unit
	HeaderBytes int64            // bytes of their multi-unit headers
	Budget      budget.Outcome
}

// Encoder encodes the windows of one field of one segment build, choosing a
// codec per unit with that field's chooser.Chooser. It owns one zstd encoder (created
// at the first eligible unit) and reusable buffers. It is not safe for concurrent use.
type Encoder struct {
	limits  limits.Limits
	level   int // zstd level option (see EncoderOptions.ZstdLevel)
	chooser *chooser.Chooser
	zenc    *zstd.Encoder
	share   zstdopt.Sharer
	zshared []byte // Share's output buffer
	plan    unitPlan
	cuts    []int
	units   []Unit
	body    []byte // unit frames of the window being encoded
	out     []byte
	rawBuf  []byte
	zcomp   []byte
	windows [NumCodecs]int64
	bytes   [NumCodecs]int64
	multi   int64
	hdr     int64
	closed  bool
	par     bool      // EncoderOptions.Parallel
	ahead   *ahead    // the second goroutine (Parallel), from the first multi-unit or prepared window
	set     *aheadSet // the payloads built ahead for the window being encoded, or nil
}

// NewEncoder returns an encoder, or an error wrapping snii.ErrInvalidArgument for invalid
// options (zstd level, limits above the defaults, policy out of range).
func NewEncoder(o EncoderOptions) (*Encoder, error) {
	lim, err := checkedLimits(o.Limits)
	if err != nil {
		return nil, err
	}
	if _, err := zstdopt.Level(o.ZstdLevel); err != nil {
		return nil, fmt.Errorf("prx: %w", err)
	}
	ch, err := chooser.New(o.Policy)
	if err != nil {
		return nil, fmt.Errorf("prx: encoder policy: %w", err)
	}
	return &Encoder{limits: lim, level: o.ZstdLevel, chooser: ch, par: o.Parallel}, nil
}

// Eligible reports whether Encode would build a zstd frame for the window w taken as
// one unit and let the policy choose (it is not a singleton and its plain length is
// at least ZstdMinPlain bytes). Units read back from a segment are classified with
// it (see UnitBounds and Window.Slice).
func Eligible(w *Window) bool {
	if w.Docs() == 0 || (w.Docs() == 1 && len(w.Positions) == 1) {
		return false
	}
	var p unitPlan
	p.vals, p.tfs = unitStream(w, 0, w.Docs(), nil, nil)
	return rawPositionsSize(p.vals) >= ZstdMinPlain
}

// Encode encodes one window: its documents are cut into units (UnitValues) and each
// unit's codec is chosen:
//   - a singleton (one document with one position) is RAW; no PFOR is built;
//   - a unit whose plain length is under ZstdMinPlain takes the smaller of PFOR and
//     RAW (PFOR on a tie); zstd is not tried and the budget is not consulted;
//   - otherwise (eligible) RAW, PFOR and zstd frames are measured, fast =
//     min(PFOR, RAW), and the chooser decides between zstd and fast.
//
// Errors: snii.ErrInvalidArgument for a malformed window (see Window.Validate), a
// document without positions or a position above MaxPosition; for a window over a
// limit (docs, positions, plain bytes of the window or of one of its units),
// ErrNeedsSplit when it has more than one document and snii.ErrLimit when it is a single
// document. Nothing is counted for a window that fails.
func (e *Encoder) Encode(w *Window) (Frame, error) {
	return e.encode(w, -1)
}

// Prepare starts compressing the units of w on the Parallel encoder's
// goroutine, for the next Encode of w; w must not change before that Encode
// or the next Prepare. It waits for the units of the window prepared before
// (or being shared). An encoder that is not Parallel ignores it.
func (e *Encoder) Prepare(w *Window) {
	if !e.par || e.closed || w.Docs() == 0 {
		return
	}
	if e.ahead == nil {
		e.ahead = newAhead(e.level)
	}
	e.ahead.prepare(w)
}

// EncodeCodec encodes w with codec c for every unit, regardless of the choice rules,
// for tools that compare codecs (capture/replay, benchmarks). It neither consults
// nor updates the chooser and the Outcome. The window is validated and limited as
// in Encode. Frame.Eligible is false and Frame.Sizes holds only the size of the
// frame built (for a window of one unit).
func (e *Encoder) EncodeCodec(w *Window, c Codec) (Frame, error) {
	if c >= NumCodecs {
		return Frame{}, errs.Invalidf("prx: unknown codec %d", c)
	}
	return e.encode(w, int(c))
}

func (e *Encoder) encode(w *Window, force int) (Frame, error) {
	e.set = nil
	if e.ahead != nil {
		s, err := e.ahead.take(w)
		if err != nil {
			return Frame{}, err
		}
		e.set = s
	}
	if err := e.prepare(w); err != nil {
		return Frame{}, err
	}
	e.cuts = cutUnits(w.Offsets, e.cuts)
	if err := e.checkUnitPayloads(w); err != nil {
		return Frame{}, err
	}
	e.units = e.units[:0]
	e.body = e.body[:0]
	var counts [NumCodecs]int64
	var sizes [NumCodecs]int64
	shared := false // the units are shared with the ahead goroutine
	if n := len(e.cuts) - 1; e.set == nil && e.par && force < 0 && n >= 2 {
		if e.ahead == nil {
			e.ahead = newAhead(e.level)
		}
		shared = true
		e.ahead.start(w, e.cuts)
		e.set = &e.ahead.sets[e.ahead.fill]
	}
	for u := 0; u+1 < len(e.cuts); u++ {
		if shared && !e.ahead.claim(u) {
			if err := e.ahead.wait(); err != nil {
				return Frame{}, err
			}
		}
		un, err := e.encodeUnit(w, e.cuts[u], e.cuts[u+1], force, u)
		if err != nil {
			if shared {
				_ = e.ahead.wait()
			}
			return Frame{}, err
		}
		counts[un.Codec]++
		sizes[un.Codec] += int64(un.Len)
		e.units = append(e.units, un)
	}
	f := Frame{Units: e.units, Codec: e.units[0].Codec}
	if len(e.units) == 1 {
		f.Bytes = e.body
		f.PlainLen, f.Eligible, f.Sizes = e.units[0].PlainLen, e.units[0].Eligible, e.units[0].Sizes
	} else {
		b := append(e.out[:0], codecMulti)
		b = bitpack.AppendUvarint(b, uint32(len(e.units)))
		for i := range e.units {
			b = bitpack.AppendUvarint(b, uint32(e.units[i].Hi-e.units[i].Lo))
			b = bitpack.AppendUvarint(b, uint32(e.units[i].Len))
		}
		b = appendCRC(b, 0)
		h := len(b)
		for i := range e.units {
			e.units[i].Off += h
		}
		b = append(b, e.body...)
		e.out = b
		f.Bytes = b
		if force < 0 {
			e.multi++
			e.hdr += int64(h)
		}
	}
	if force < 0 {
		for c := range counts {
			e.windows[c] += counts[c]
			e.bytes[c] += sizes[c]
		}
	}
	return f, nil
}

// encodeUnit encodes the documents lo..hi-1 of w (its unit u) as one unit
// frame appended to e.body; force >= 0 imposes the codec (EncodeCodec).
func (e *Encoder) encodeUnit(w *Window, lo, hi int, force int, u int) (Unit, error) {
	p := &e.plan
	p.lo, p.hi = lo, hi
	p.tfPar, p.valPar = p.tfPar[:0], p.valPar[:0] // (the last unit's parameters are not this one's)
	p.positions = int(w.Offsets[hi] - w.Offsets[lo])
	p.vals, p.tfs = unitStream(w, lo, hi, p.vals, p.tfs)
	p.tfRaw = rawColumnSize(p.tfs)
	p.rawLen = rawPositionsSize(p.vals)
	un := Unit{Lo: lo, Hi: hi, Positions: p.positions, PlainLen: p.rawLen, Off: len(e.body)}
	singleton := hi-lo == 1 && p.positions == 1
	var c Codec
	switch {
	case force >= 0:
		c = Codec(force)
	case singleton:
		c = CodecRaw
		un.Sizes.Raw = p.rawSize()
	default:
		p.tfPacked, p.tfPar = packedColumnSize(p.tfs, p.tfPar)
		p.pforLen, p.valPar = packedColumnSize(p.vals, p.valPar)
		un.Sizes.Raw, un.Sizes.PFOR, un.Sizes.PFOROK = p.rawSize(), p.pforSize(), true
		fast, isPFOR := chooser.FastSize(un.Sizes.Raw, un.Sizes.PFOR, true)
		c = CodecRaw
		if isPFOR {
			c = CodecPFOR
		}
		if p.rawLen >= ZstdMinPlain {
			un.Eligible = true
			comp, err := e.unitPayload(p, u)
			if err != nil {
				return un, err
			}
			un.Sizes.Zstd, un.Sizes.ZstdBuilt = p.zstdSize(len(comp)), true
			if storeZstd, _ := e.chooser.Choose(fast, un.Sizes.Zstd); storeZstd {
				c = CodecZstd
			}
		}
	}
	un.Codec = c
	start := len(e.body)
	b := e.body
	switch c {
	case CodecRaw:
		b = appendUnitHead(b, c, p)
		b = bitpack.AppendUvarint(b, uint32(p.rawLen))
		b = appendRawPositions(growBytes(b, p.rawLen+CRCSize), p.vals)
	case CodecPFOR:
		if force >= 0 {
			p.tfPacked, p.tfPar = packedColumnSize(p.tfs, p.tfPar)
			p.pforLen, p.valPar = packedColumnSize(p.vals, p.valPar)
		}
		b = appendUnitHead(b, c, p)
		b = bitpack.AppendUvarint(b, uint32(p.pforLen))
		b = appendPackedColumn(growBytes(b, p.pforLen+CRCSize), p.vals, p.valPar)
	case CodecZstd:
		if force >= 0 {
			p.tfPacked, p.tfPar = packedColumnSize(p.tfs, p.tfPar)
			if _, err := e.compress(p); err != nil {
				return un, err
			}
		}
		b = appendUnitHead(b, c, p)
		b = bitpack.AppendUvarint(b, uint32(p.rawLen))
		b = bitpack.AppendUvarint(b, uint32(len(e.zcomp)))
		b = append(b, e.zcomp...)
	}
	b = appendCRC(b, start)
	e.body = b
	un.Len = len(b) - start
	if force >= 0 {
		switch c {
		case CodecRaw:
			un.Sizes.Raw = un.Len
		case CodecPFOR:
			un.Sizes.PFOR, un.Sizes.PFOROK = un.Len, true
		case CodecZstd:
			un.Sizes.Zstd, un.Sizes.ZstdBuilt = un.Len, true
		}
	}
	return un, nil
}

// unitPayload returns the zstd payload of unit u (plan p) in e.zcomp: the one
// built ahead, else compress's.
func (e *Encoder) unitPayload(p *unitPlan, u int) ([]byte, error) {
	if e.set != nil {
		if b, ok := e.set.payload(u); ok {
			e.zcomp = append(e.zcomp[:0], b...)
			return e.zcomp, nil
		}
	}
	return e.compress(p)
}

// compress builds the zstd payload of the unit's RAW positions payload into e.zcomp.
func (e *Encoder) compress(p *unitPlan) ([]byte, error) {
	if e.zenc == nil {
		z, err := zstdopt.NewEncoder(e.level)
		if err != nil {
			return nil, fmt.Errorf("prx: %w", err)
		}
		e.zenc = z
	}
	e.rawBuf = appendRawPositions(e.rawBuf[:0], p.vals)
	e.zcomp = e.zenc.EncodeAll(e.rawBuf, e.zcomp[:0])
	// The frame with its literals recoded: in four streams from
	// zstdopt.FourStreamsMin bytes, with a shared literal table when smaller.
	shared, err := e.share.Share(e.zcomp, e.zshared)
	if err != nil {
		return nil, fmt.Errorf("prx: %w", err)
	}
	if &shared[0] != &e.zcomp[0] { // (Share returns the frame itself when it keeps it)
		e.zcomp, e.zshared = shared, e.zcomp
	}
	return e.zcomp, nil
}

// prepare validates w and applies the limits.
func (e *Encoder) prepare(w *Window) error {
	if e.closed {
		return fmt.Errorf("prx: encode after Close: %w", errs.Closed)
	}
	s, err := scanWindow(w)
	if err != nil {
		return err
	}
	if s.docs == 0 {
		return errs.Invalidf("prx: window of no documents")
	}
	if s.empty >= 0 {
		return errs.Invalidf("prx: window doc %d has no positions", s.empty)
	}
	if s.maxPos > MaxPosition {
		return errs.Invalidf("prx: window position %d above the maximum %d", s.maxPos, MaxPosition)
	}
	l := &e.limits
	if s.docs > l.MaxDocs || s.positions > l.MaxPositions || s.plain > l.MaxBytes {
		if s.docs > 1 {
			return fmt.Errorf("prx: window of %d docs, %d positions, %d plain bytes is over the limits (%d docs, %d positions, %d bytes): %w",
				s.docs, s.positions, s.plain, l.MaxDocs, l.MaxPositions, l.MaxBytes, ErrNeedsSplit)
		}
		return errs.Limitf("prx: a single document with %d positions (%d plain bytes) is over the window limits (%d positions, %d bytes)",
			s.positions, s.plain, l.MaxPositions, l.MaxBytes)
	}
	return nil
}

// checkUnitPayloads refuses a window that has a unit whose RAW positions payload
// (the plain length a reader checks against MaxBytes) is over MaxBytes, before any
// unit is chosen. The window's plain payload may be within MaxBytes when a unit's is
// not: a zigzag delta can be longer than the absolute first position it replaces, and
// a long document adds its block directory. A unit payload takes at most 5 bytes per
// value plus 2 per block boundary, so the units are measured only when that bound of
// the whole window is over MaxBytes.
func (e *Encoder) checkUnitPayloads(w *Window) error {
	n := len(w.Positions)
	if 5*n+2*(n/bitpack.BlockLen) <= e.limits.MaxBytes {
		return nil
	}
	p := &e.plan
	for u := 0; u+1 < len(e.cuts); u++ {
		p.vals, p.tfs = unitStream(w, e.cuts[u], e.cuts[u+1], p.vals, p.tfs)
		l := rawPositionsSize(p.vals)
		if l <= e.limits.MaxBytes {
			continue
		}
		if w.Docs() > 1 {
			return fmt.Errorf("prx: window of %d docs has a unit (docs %d..%d) of %d plain bytes, over the limit %d: %w",
				w.Docs(), e.cuts[u], e.cuts[u+1]-1, l, e.limits.MaxBytes, ErrNeedsSplit)
		}
		return errs.Limitf("prx: a single document with %d positions has %d plain bytes, over the limit %d", n, l, e.limits.MaxBytes)
	}
	return nil
}

// Outcome reports the units stored so far and the chooser's accounting.
func (e *Encoder) Outcome() Outcome {
	return Outcome{Windows: e.windows, Bytes: e.bytes, MultiUnit: e.multi, HeaderBytes: e.hdr, Budget: e.chooser.Outcome()}
}

// Close releases the zstd encoder. The Encoder must not be used afterwards (Encode
// returns an error wrapping snii.ErrClosed). Close is idempotent.
func (e *Encoder) Close() {
	if e.ahead != nil {
		e.ahead.close()
		e.ahead = nil
	}
	if e.zenc != nil {
		_ = e.zenc.Close()
		e.zenc = nil
	}
	e.closed = true
}

// appendCRC appends the CRC32C of dst[start:].
func appendCRC(dst []byte, start int) []byte {
	return binary.LittleEndian.AppendUint32(dst, crc32c(dst[start:]))
}
