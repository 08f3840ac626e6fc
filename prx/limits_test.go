package prx

import (
	"errors"
	"testing"

	"github.com/snii-go/snii/budget"
)

func TestLimitsValidateNormalize(t *testing.T) {
	if d := DefaultLimits(); d != (Limits{1 << 24, 1 << 26, 256 << 20}) {
		t.Fatalf("defaults %+v", d)
	}
	if (Limits{}).Normalize() != DefaultLimits() {
		t.Fatal("zero limits do not normalize to the defaults")
	}
	if l := (Limits{MaxDocs: 5}).Normalize(); l.MaxDocs != 5 || l.MaxBytes != DefaultMaxBytes {
		t.Fatalf("normalize %+v", l)
	}
	for _, l := range []Limits{{}, DefaultLimits(), {MaxDocs: 1, MaxPositions: 1, MaxBytes: 1}} {
		if err := l.Validate(); err != nil {
			t.Errorf("%+v: %v", l, err)
		}
	}
	for _, l := range []Limits{
		{MaxDocs: DefaultMaxDocs + 1}, {MaxPositions: DefaultMaxPositions + 1},
		{MaxBytes: DefaultMaxBytes + 1}, {MaxDocs: -1}, {MaxBytes: -5},
	} {
		if err := l.Validate(); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("%+v: %v, want ErrInvalidArgument", l, err)
		}
		if _, err := NewEncoder(EncoderOptions{Limits: l, Policy: budget.DefaultPolicy()}); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("NewEncoder %+v: %v", l, err)
		}
	}
	// Constructors without an error never raise a limit.
	if got := NewSource(Limits{MaxDocs: DefaultMaxDocs * 2, MaxBytes: -1, MaxPositions: 7}).Limits(); got != (Limits{DefaultMaxDocs, 7, DefaultMaxBytes}) {
		t.Fatalf("NewSource limits %+v", got)
	}
}

func TestEncodeLimits(t *testing.T) {
	lim := Limits{MaxDocs: 4, MaxPositions: 10, MaxBytes: 30}
	e, err := NewEncoder(EncoderOptions{Limits: lim, Policy: budget.DefaultPolicy()})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	split := map[string]*Window{
		"docs":      newWindow([]uint32{1}, []uint32{2}, []uint32{3}, []uint32{4}, []uint32{5}),
		"positions": newWindow([]uint32{1, 2, 3, 4, 5, 6}, []uint32{1, 2, 3, 4, 5}),
		"bytes":     newWindow([]uint32{1 << 28, 1 << 29}, []uint32{1 << 28, 1 << 29}, []uint32{1 << 28, 1 << 29, 1 << 30}),
	}
	for name, w := range split {
		_, err := e.Encode(w)
		if !errors.Is(err, ErrNeedsSplit) || errors.Is(err, ErrLimit) {
			t.Errorf("%s: %v, want ErrNeedsSplit", name, err)
		}
		if _, err := e.EncodeCodec(w, CodecRaw); !errors.Is(err, ErrNeedsSplit) {
			t.Errorf("%s EncodeCodec: %v", name, err)
		}
	}
	single := map[string]*Window{
		"positions": newWindow([]uint32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}),
		"bytes":     newWindow([]uint32{1 << 28, 1 << 29, 1 << 30, 1<<31 + 1, 1<<31 + 1<<30, 1<<31 + 1<<30 + 1<<29, maxUint32, maxUint32, maxUint32}),
	}
	for name, w := range single {
		_, err := e.Encode(w)
		if !errors.Is(err, ErrLimit) || errors.Is(err, ErrNeedsSplit) {
			t.Errorf("single doc %s: %v, want ErrLimit", name, err)
		}
	}
	if o := e.Outcome(); o.Windows != [NumCodecs]int64{} || o.Budget.Eligible != 0 {
		t.Fatalf("refused windows were counted: %+v", o)
	}
	// At the limits exactly: fine.
	if _, err := e.Encode(newWindow([]uint32{1, 2, 3}, []uint32{2}, []uint32{3, 4, 5, 6}, []uint32{})); err != nil {
		t.Fatal(err)
	}
	// Malformed windows are invalid arguments.
	if _, err := e.Encode(&Window{Offsets: []uint32{0, 2}, Positions: []uint32{3, 1}}); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("descending positions: %v", err)
	}
}

// A PFOR payload over MaxBytes is not a candidate even when the plain payload fits.
func TestPFOROverByteLimitIsNoCandidate(t *testing.T) {
	// 128 docs of one position each, deltas forcing 32-bit packing in every group:
	// plain ~ 2 + 128*2..6 bytes, PFOR ~ 4 + 32 + 16 + 4*128 bytes.
	w := &Window{}
	for i := 0; i < 128; i++ {
		p := uint32(1)
		if i%32 == 5 {
			p = 1 << 30
		}
		w.AppendDoc([]uint32{p})
	}
	u := PlainSize(w)
	e, err := NewEncoder(EncoderOptions{Limits: Limits{MaxBytes: u}, Policy: budget.DefaultPolicy()})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	f, err := e.Encode(w)
	if err != nil {
		t.Fatal(err)
	}
	if f.Sizes.PFOROK || f.Codec == CodecPFOR {
		t.Fatalf("PFOR payload over the limit %d was a candidate: %+v", u, f.Sizes)
	}
	if _, err := e.EncodeCodec(w, CodecPFOR); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("EncodeCodec(pfor) over the limit: %v", err)
	}
}
