package replay

import (
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/snii-go/snii/budget"
	"github.com/snii-go/snii/internal/codec/chooser"
	"github.com/snii-go/snii/internal/codec/prx"
	"github.com/snii-go/snii/internal/codec/prx/capture"
	"github.com/snii-go/snii/internal/errs"
	"github.com/snii-go/snii/limits"
)

// Window is one captured window prepared for replay: its exact frame sizes and
// the frames a policy can store for it.
type Window struct {
	Record    int64 // capture record it came from
	Docs      int
	Positions int
	PlainLen  int
	Plain     []byte // the captured plain payload
	Eligible  bool
	// Eval holds the exact frame sizes of an eligible window (zero otherwise).
	Eval chooser.Eval
	// FastCodec is the codec of Fast: PFOR or RAW.
	FastCodec prx.Codec
	// Fast is the fast frame (CRC form) of an eligible window, or the only frame
	// of a fast-path window.
	Fast []byte
	// Zstd is the zstd frame of an eligible window when zstd is the smallest
	// (Eval.ZstdWins), else nil: no policy stores zstd otherwise.
	Zstd []byte
}

// Stored returns the frame stored when the chooser says storeZstd.
func (w *Window) Stored(storeZstd bool) []byte {
	if storeZstd {
		return w.Zstd
	}
	return w.Fast
}

// Smallest returns the smallest frame of the window.
func (w *Window) Smallest() []byte { return w.Stored(w.Eval.ZstdWins) }

// Set is the captured windows of one field, prepared for replay.
type Set struct {
	Info      capture.IndexInfo
	ZstdLevel int           // the encoder's zstd level (prx.EncoderOptions.ZstdLevel)
	Limits    limits.Limits // the window limits, normalized
	All       bool          // the capture kept fast-path windows too
	Windows   []Window      // in captured order
	// Eligible lists the positions in Windows of the eligible windows, in captured order.
	Eligible []int
}

// PrepareOptions configure Prepare and Load.
type PrepareOptions struct {
	// ZstdLevel overrides the zstd level (1..4); 0 = the level recorded in the
	// capture, or prx's default when the capture does not know it.
	ZstdLevel int
	// Field selects one field by name (Load only); "" = every field.
	Field string
	// Progress, when set, is called as windows are prepared (done of total).
	Progress func(done, total int)
	// MaxRecord bounds a capture record (Load only; see capture.ReaderOptions).
	MaxRecord int
}

// Load reads a whole capture and prepares one Set per field (or only the field
// named by o.Field; a missing field is a not-found error). An empty capture gives
// no sets and no error.
func Load(r io.Reader, o PrepareOptions) ([]*Set, error) {
	cr, err := capture.NewReader(r, capture.ReaderOptions{MaxRecord: o.MaxRecord})
	if err != nil {
		return nil, err
	}
	var byField [][]capture.Unit
	for {
		w, err := cr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		if o.Field != "" && cr.Indexes()[w.Index].Name != o.Field {
			continue // another index: not kept
		}
		for len(byField) <= w.Index {
			byField = append(byField, nil)
		}
		w.Plain = slices.Clone(w.Plain)
		byField[w.Index] = append(byField[w.Index], w)
	}
	infos := cr.Indexes()
	total := 0
	for i, info := range infos {
		if o.Field == "" || info.Name == o.Field {
			if i < len(byField) {
				total += len(byField[i])
			}
		}
	}
	var sets []*Set
	done := 0
	for i, info := range infos {
		if o.Field != "" && info.Name != o.Field {
			continue
		}
		var wins []capture.Unit
		if i < len(byField) {
			wins = byField[i]
		}
		po := o
		if o.Progress != nil {
			base := done
			po.Progress = func(d, _ int) { o.Progress(base+d, total) }
		}
		s, err := Prepare(info, cr.All(), wins, po)
		if err != nil {
			return nil, err
		}
		done += len(wins)
		sets = append(sets, s)
	}
	if o.Field != "" && len(sets) == 0 {
		names := make([]string, len(infos))
		for i, in := range infos {
			names[i] = in.Name
		}
		return nil, errs.NotFoundf("replay: index %q is not in the capture (it holds %q)", o.Field, names)
	}
	return sets, nil
}

// Prepare decodes the captured windows (their payloads are kept, not copied) of one field and builds, once, the frames
// any policy can store for them: for an eligible window its fast frame (the
// smaller of PFOR and RAW) and, when zstd is strictly smaller, its zstd frame.
// Policies are then applied with chooser.Chooser on the exact sizes, the same
// decision prx.Encoder makes.
func Prepare(info capture.IndexInfo, all bool, wins []capture.Unit, o PrepareOptions) (*Set, error) {
	s := &Set{Info: info, All: all, Limits: limits.Limits{}.Normalize(), ZstdLevel: o.ZstdLevel}
	if info.Known {
		s.Limits = info.Limits.Normalize()
		if s.ZstdLevel == 0 {
			s.ZstdLevel = info.ZstdLevel
		}
	}
	// Policy 0 stores the smallest frame; the chooser is consulted only to learn the sizes.
	enc, err := prx.NewEncoder(prx.EncoderOptions{ZstdLevel: s.ZstdLevel, Limits: s.Limits,
		Policy: budget.Policy{Kind: budget.Smallest}})
	if err != nil {
		return nil, fmt.Errorf("replay: index %q: %w", info.Name, err)
	}
	defer enc.Close()
	var pw prx.Window
	s.Windows = make([]Window, 0, len(wins))
	for i, cw := range wins {
		where := func() string {
			return fmt.Sprintf("replay: index %q: window %d (capture record %d)", info.Name, cw.Ordinal, cw.Record)
		}
		if err := prx.DecodePlain(cw.Plain, s.Limits, &pw); err != nil {
			return nil, fmt.Errorf("%s: %w", where(), err)
		}
		f, err := enc.Encode(&pw)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", where(), err)
		}
		if len(f.Units) != 1 {
			return nil, errs.Corruptf("%s: the captured payload holds %d units; a capture record is one unit", where(), len(f.Units))
		}
		if f.Eligible != cw.Eligible {
			return nil, errs.Corruptf("%s: captured as eligible=%v, but its %d-byte plain payload makes it eligible=%v",
				where(), cw.Eligible, f.PlainLen, f.Eligible)
		}
		w := Window{Record: cw.Record, Docs: pw.Docs(), Positions: len(pw.Positions), PlainLen: f.PlainLen, Plain: cw.Plain,
			Eligible: f.Eligible, FastCodec: f.Codec}
		if !f.Eligible {
			w.Fast = slices.Clone(f.Bytes)
		} else {
			fast, isPFOR := chooser.FastSize(f.Sizes.Raw, f.Sizes.PFOR, f.Sizes.PFOROK)
			w.Eval = chooser.Evaluate(fast, f.Sizes.Zstd)
			w.FastCodec = prx.CodecRaw
			if isPFOR {
				w.FastCodec = prx.CodecPFOR
			}
			if w.Eval.ZstdWins {
				w.Zstd = slices.Clone(f.Bytes)
				ff, err := enc.EncodeCodec(&pw, w.FastCodec)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", where(), err)
				}
				w.Fast = slices.Clone(ff.Bytes)
			} else {
				w.Fast = slices.Clone(f.Bytes)
			}
			if len(w.Fast) != w.Eval.Fast || (w.Zstd != nil && len(w.Zstd) != w.Eval.Zstd) {
				return nil, fmt.Errorf("%s: frames of %d and %d bytes, sizes say %d and %d: %w",
					where(), len(w.Fast), len(w.Zstd), w.Eval.Fast, w.Eval.Zstd, errs.InvalidArgument)
			}
			s.Eligible = append(s.Eligible, len(s.Windows))
		}
		s.Windows = append(s.Windows, w)
		if o.Progress != nil && (i%64 == 63 || i == len(wins)-1) {
			o.Progress(i+1, len(wins))
		}
	}
	return s, nil
}
