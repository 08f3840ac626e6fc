package format

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/snii-go/snii/internal/errs"
)

// randEntry returns a valid entry of class c.
func randEntry(r *rand.Rand, c Class) Entry {
	e := Entry{Class: c}
	switch c {
	case ClassInline:
		e.DF = uint64(1 + r.IntN(20))
		e.Docs = bytes.Repeat([]byte{byte(r.IntN(256))}, 1+r.IntN(60))
		e.Frame = bytes.Repeat([]byte{byte(r.IntN(256))}, 1+r.IntN(150))
	case ClassSlim:
		e.DF = uint64(1 + r.IntN(SlimMaxDF-1))
		e.Offset = r.Uint64N(1 << uint(r.IntN(40)))
		e.PrxLen = 1 + r.Uint64N(1<<uint(r.IntN(28)))
		e.DocLen = 1 + r.Uint64N(1<<uint(r.IntN(16)))
	case ClassWindowed:
		e.DF = uint64(SlimMaxDF + r.IntN(1<<uint(r.IntN(30))))
		e.Offset = r.Uint64N(1 << uint(r.IntN(40)))
		e.PrxLen = 1 + r.Uint64N(1<<uint(r.IntN(34)))
		e.DocLen = 1 + r.Uint64N(1<<uint(r.IntN(30)))
	}
	e.TTF = e.DF + r.Uint64N(1<<uint(r.IntN(33)))
	return e
}

func TestEntryRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	for i := 0; i < 3000; i++ {
		e := randEntry(r, Class(i%3))
		b := AppendEntry([]byte{9}, &e)[1:]
		b = append(b, 0xEE) // trailing bytes are not consumed
		var got Entry
		n, err := DecodeEntry(b, &got)
		if err != nil || n != len(b)-1 {
			t.Fatalf("%+v: n=%d (len %d), err %v", e, n, len(b)-1, err)
		}
		if diff := cmp.Diff(e, got); diff != "" {
			t.Fatalf("(-want +got):\n%s", diff)
		}
		if err := got.CheckLocator(got.Offset + got.PrxLen + got.DocLen); err != nil {
			t.Fatalf("CheckLocator: %v", err)
		}
		if e.Class != ClassInline {
			if err := got.CheckLocator(got.Offset + got.PrxLen + got.DocLen - 1); !errors.Is(err, errs.Corrupt) {
				t.Fatalf("CheckLocator one byte short: %v", err)
			}
		}
		// A lookup steps over the entry by its length alone.
		if sn, err := skipEntry(b); err != nil || sn != n {
			t.Fatalf("skipEntry: %d, %v; DecodeEntry read %d", sn, err, n)
		}
		// Every truncation fails.
		for l := 0; l < n; l++ {
			if _, err := DecodeEntry(b[:l], &got); !errors.Is(err, errs.Corrupt) {
				t.Fatalf("truncated to %d of %d: err = %v", l, n, err)
			}
			if _, err := skipEntry(b[:l]); !errors.Is(err, errs.Corrupt) {
				t.Fatalf("skipEntry truncated to %d of %d: err = %v", l, n, err)
			}
		}
	}
	if _, err := skipEntry([]byte{1, 1, 7, 0, 0, 0}); !errors.Is(err, errs.Corrupt) {
		t.Errorf("skipEntry of class 7: %v", err)
	}
	if ClassInline.String() != "inline" || ClassSlim.String() != "slim" || ClassWindowed.String() != "windowed" || Class(7).String() != "class(7)" {
		t.Error("Class.String")
	}
}

func TestDecodeEntryInvalid(t *testing.T) {
	enc := func(e Entry) []byte { return AppendEntry(nil, &e) }
	big := bytes.Repeat([]byte{1}, 200)
	cases := map[string][]byte{
		"df 0":            enc(Entry{DF: 0, TTF: 1, Class: ClassSlim, PrxLen: 1, DocLen: 1}),
		"ttf < df":        enc(Entry{DF: 3, TTF: 2, Class: ClassSlim, PrxLen: 1, DocLen: 1}),
		"df > 2^32":       enc(Entry{DF: math.MaxUint32 + 2, TTF: math.MaxUint32 + 2, Class: ClassWindowed, PrxLen: 1, DocLen: 1}),
		"unknown class":   enc(Entry{DF: 1, TTF: 1, Class: 3}),
		"inline too big":  enc(Entry{DF: 1, TTF: 1, Class: ClassInline, Docs: big, Frame: big[:57]}),
		"inline no docs":  enc(Entry{DF: 1, TTF: 1, Class: ClassInline, Frame: big[:5]}),
		"inline no frame": enc(Entry{DF: 1, TTF: 1, Class: ClassInline, Docs: big[:5]}),
		"slim df 512":     enc(Entry{DF: 512, TTF: 512, Class: ClassSlim, PrxLen: 1, DocLen: 1}),
		"slim no prx":     enc(Entry{DF: 1, TTF: 1, Class: ClassSlim, DocLen: 1}),
		"windowed no doc": enc(Entry{DF: 1, TTF: 1, Class: ClassWindowed, PrxLen: 1}),
		"overflow":        enc(Entry{DF: 1, TTF: 1, Class: ClassWindowed, Offset: math.MaxInt64, PrxLen: 1, DocLen: 1}),
	}
	for name, b := range cases {
		var e Entry
		if _, err := DecodeEntry(b, &e); !errors.Is(err, errs.Corrupt) {
			t.Errorf("%s: err = %v, want errs.Corrupt", name, err)
		}
	}
	ok := enc(Entry{DF: 1, TTF: 1, Class: ClassInline, Docs: big[:100], Frame: big[:156]})
	var e Entry
	if _, err := DecodeEntry(ok, &e); err != nil {
		t.Errorf("inline of exactly %d bytes: %v", InlineMax, err)
	}
}

func entryEqual(a, b *Entry) bool {
	return a.DF == b.DF && a.TTF == b.TTF && a.Class == b.Class && bytes.Equal(a.Docs, b.Docs) &&
		bytes.Equal(a.Frame, b.Frame) && a.Offset == b.Offset && a.PrxLen == b.PrxLen && a.DocLen == b.DocLen
}
