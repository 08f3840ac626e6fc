package prx

import (
	"errors"
	"testing"

	"github.com/snii-go/snii"
	"github.com/snii-go/snii/budget"
	"github.com/snii-go/snii/internal/testkit"
	"github.com/snii-go/snii/limits"
)

func encodeWith(t *testing.T, l limits.Limits, w *Window) (Frame, error) {
	t.Helper()
	e, err := NewEncoder(EncoderOptions{Limits: l})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.Close)
	return e.Encode(w)
}

// A window over a limit needs a split when it has more than one doc; a single doc
// over a limit is snii.ErrLimit. Nothing is counted for a refused window.
func TestLimitsNeedsSplit(t *testing.T) {
	cases := []struct {
		name  string
		l     limits.Limits
		w     *Window
		split bool
	}{
		{"docs", limits.Limits{MaxDocs: 3}, tfWindow(1, 1, 1, 1), true},
		{"positions", limits.Limits{MaxPositions: 10}, tfWindow(6, 6), true},
		{"positions-one-doc", limits.Limits{MaxPositions: 10}, tfWindow(11), false},
		{"bytes", limits.Limits{MaxBytes: 20}, tfWindow(repeatTF(7, 2)...), true},
		{"bytes-one-doc", limits.Limits{MaxBytes: 20}, tfWindow(30), false},
	}
	for _, c := range cases {
		e, err := NewEncoder(EncoderOptions{Limits: c.l, Policy: budget.Policy{}})
		if err != nil {
			t.Fatal(err)
		}
		_, err = e.Encode(c.w)
		if c.split != errors.Is(err, ErrNeedsSplit) || !c.split != errors.Is(err, snii.ErrLimit) {
			t.Errorf("%s: %v", c.name, err)
		}
		if _, err := e.EncodeCodec(c.w, CodecPFOR); c.split != errors.Is(err, ErrNeedsSplit) || !c.split != errors.Is(err, snii.ErrLimit) {
			t.Errorf("%s EncodeCodec: %v", c.name, err)
		}
		if o := e.Outcome(); o.Windows != [NumCodecs]int64{} || o.Budget.Eligible != 0 {
			t.Errorf("%s: counted %+v", c.name, o)
		}
		e.Close()
		// At the limit, the window is accepted and the reader with the same
		// limits decodes it.
		for _, half := range [][2]int{{0, c.w.Docs() - 1}, {1, c.w.Docs()}} {
			var sub Window
			hw := c.w.Slice(half[0], half[1], &sub)
			if !c.split {
				break
			}
			f, err := encodeWith(t, c.l, hw)
			if err != nil {
				t.Errorf("%s: a half: %v", c.name, err)
				continue
			}
			var got Window
			if _, err := NewSource(c.l).Decode(f.Bytes, true, &got); err != nil {
				t.Errorf("%s: a half does not decode under the same limits: %v", c.name, err)
			}
		}
	}
}

// The reader checks each unit's RAW payload length against MaxBytes, so the
// encoder does too: a window whose v1 plain payload is within MaxBytes but whose
// unit payload is over (zigzag deltas are longer than the absolute first
// positions; a long doc adds its block directory) is refused, and every window
// the encoder accepts decodes under the same limits.
func TestLimitsUnitPayload(t *testing.T) {
	// One doc of 600 positions with deltas of 1: plain 1+2+600 = 603 bytes, unit
	// payload 600 + 2*4 = 608.
	long := tfWindow(600)
	if _, err := encodeWith(t, limits.Limits{MaxBytes: 605}, long); !errors.Is(err, snii.ErrLimit) {
		t.Fatalf("one doc with a unit payload over MaxBytes: %v", err)
	}
	if _, err := encodeWith(t, limits.Limits{MaxBytes: 608}, long); err != nil {
		t.Fatal(err)
	}
	// Property: what the encoder accepts, the reader with the same limits decodes.
	for _, nw := range testWindows() {
		for _, mb := range []int{16, 64, 200, 700, 3000} {
			l := limits.Limits{MaxBytes: mb}
			f, err := encodeWith(t, l, nw.w)
			if err != nil {
				if !errors.Is(err, ErrNeedsSplit) && !errors.Is(err, snii.ErrLimit) {
					t.Fatalf("%s: %v", nw.name, err)
				}
				continue
			}
			var got Window
			if _, err := NewSource(l).Decode(f.Bytes, true, &got); err != nil {
				t.Fatalf("%s MaxBytes %d: encoded but not decodable: %v", nw.name, mb, err)
			}
		}
	}
}

func TestLimitsValidate(t *testing.T) {
	for _, l := range []limits.Limits{{MaxDocs: -1}, {MaxPositions: limits.DefaultMaxPositions + 1}, {MaxBytes: limits.DefaultMaxBytes + 1}, {MaxBytes: -5}} {
		if err := l.Validate(); !isInvalid(err) {
			t.Errorf("%+v: %v", l, err)
		}
		if _, err := NewEncoder(EncoderOptions{Limits: l}); !isInvalid(err) {
			t.Errorf("NewEncoder %+v: %v", l, err)
		}
		if got := NewSource(l).Limits(); got.MaxDocs > limits.DefaultMaxDocs || got.MaxPositions > limits.DefaultMaxPositions || got.MaxBytes > limits.DefaultMaxBytes || got.MaxDocs <= 0 || got.MaxBytes <= 0 {
			t.Errorf("NewSource(%+v) limits %+v", l, got)
		}
	}
	if got := (limits.Limits{MaxDocs: 5}).Normalize(); got != (limits.Limits{MaxDocs: 5, MaxPositions: limits.DefaultMaxPositions, MaxBytes: limits.DefaultMaxBytes}) {
		t.Errorf("Normalize: %+v", got)
	}
	if _, err := NewEncoder(EncoderOptions{ZstdLevel: 5}); !isInvalid(err) {
		t.Errorf("zstd level 5: %v", err)
	}
	if _, err := NewEncoder(EncoderOptions{Policy: budget.Policy{Kind: budget.FixedShare, Percent: 101}}); !isInvalid(err) {
		t.Errorf("policy 101: %v", err)
	}
	for l := 0; l <= 4; l++ {
		if _, err := NewEncoder(EncoderOptions{ZstdLevel: l}); err != nil {
			t.Errorf("level %d: %v", l, err)
		}
	}
}

// zstdFrame hand-builds a single-segment zstd frame declaring fcs bytes whose
// blocks are the given (type, size, content) triples.
func zstdFrame(fcs uint32, blocks ...[]byte) []byte {
	b := []byte{0x28, 0xb5, 0x2f, 0xfd, 0xa0} // magic; FCS of 4 bytes, single segment
	b = append(b, byte(fcs), byte(fcs>>8), byte(fcs>>16), byte(fcs>>24))
	for _, blk := range blocks {
		b = append(b, blk...)
	}
	return b
}

// zstdBlock returns a block header (type 0 raw, 1 RLE, 2 compressed) and content.
func zstdBlock(typ, size int, last bool, content []byte) []byte {
	h := size<<3 | typ<<1
	if last {
		h |= 1
	}
	return append([]byte{byte(h), byte(h >> 8), byte(h >> 16)}, content...)
}

// zstdUnit builds a ZSTD unit frame (CRC form) of one doc with tf positions that
// declares plain bytes and carries the zstd payload z.
func zstdUnit(tf int, plain int, z []byte) []byte {
	b := []byte{byte(CodecZstd), 1}
	b = appendPackedColumn(b, []uint32{uint32(tf - 1)}, nil)
	b = uv(b, uint64(plain), uint64(len(z)))
	return withCRC(append(b, z...))
}

// Declared lengths are checked before anything is allocated: over MaxBytes; a
// ZSTD unit declaring 256 MiB that its positions or its zstd blocks cannot fill.
func TestDeclaredLengthsBeforeAllocating(t *testing.T) {
	const big = limits.DefaultMaxBytes // 256 MiB: at the limit, not over it
	cases := map[string]struct {
		frame []byte
		l     limits.Limits
	}{
		// One position declaring 256 MiB: the positions bound it to 5 bytes.
		"zstd-256MiB-one-position": {zstdUnit(1, big, zstdFrame(big, zstdBlock(0, 1, true, []byte{0}))), limits.Limits{}},
		// 2^26 positions may take 256 MiB, but one raw block of 1 byte cannot.
		"zstd-256MiB-one-block": {zstdUnit(limits.DefaultMaxPositions, big, zstdFrame(big, zstdBlock(0, 1, true, []byte{0}))), limits.Limits{}},
		// 100 compressed blocks regenerate at most 12.5 MiB.
		"zstd-256MiB-100-blocks": {zstdUnit(limits.DefaultMaxPositions, big, zstdFrame(big, compressedBlocks(100)...)), limits.Limits{}},
		// Over the limit.
		"zstd-over-MaxBytes": {zstdUnit(limits.DefaultMaxPositions, big+1, zstdFrame(big+1, zstdBlock(0, 1, true, []byte{0}))), limits.Limits{}},
		"zstd-over-1MiB":     {zstdUnit(1<<20, 2<<20, zstdFrame(2<<20, zstdBlock(1, 2<<20, true, []byte{1}))), limits.Limits{MaxBytes: 1 << 20}},
		"raw-over-MaxBytes":  {withCRC(uv([]byte{0, 1, 0x80, 0x80, 0x80, 0x20}, big+1)), limits.Limits{}},
		"pfor-over-MaxBytes": {withCRC(uv([]byte{2, 1, 0}, big+1)), limits.Limits{}},
		"tf-over-positions":  {withCRC(append(append([]byte{2, 1}, appendPackedColumn(nil, []uint32{limits.DefaultMaxPositions}, nil)...), 0)), limits.Limits{}},
	}
	for name, c := range cases {
		src := NewSource(c.l)
		var dst Window
		var err error
		n := testkit.AllocBytes(func() { _, err = src.Decode(c.frame, true, &dst) })
		if !isCorrupt(err) {
			t.Errorf("%s: %v", name, err)
		}
		if n > 1<<20 {
			t.Errorf("%s: %d bytes allocated", name, n)
		}
		n = testkit.AllocBytes(func() { _, err = src.DecodeSelected(c.frame, true, []uint32{0}, &dst) })
		if !isCorrupt(err) || n > 1<<20 {
			t.Errorf("%s selective: %v, %d bytes allocated", name, err, n)
		}
		src.Close()
	}
}

// compressedBlocks returns n compressed zstd block headers of one byte each.
func compressedBlocks(n int) [][]byte {
	out := make([][]byte, n)
	for i := range out {
		out[i] = zstdBlock(2, 1, i == n-1, []byte{0})
	}
	return out
}
