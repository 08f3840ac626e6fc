package reader_test

import (
	"bytes"
	"errors"
	"slices"
	"testing"

	"github.com/snii-go/snii/internal/seam"

	"github.com/snii-go/snii/internal/codec/prx"
	"github.com/snii-go/snii/internal/errs"
	"github.com/snii-go/snii/internal/testkit/oracle"
	"github.com/snii-go/snii/reader"
	"github.com/snii-go/snii/writer"
)

type seenWindow struct {
	plain string
	codec prx.Codec
}

// Windows yields exactly the windows the writer encoded, in the same order, with
// the codec each was stored in; terms come in byte order.
func TestWindowsEqualsWhatTheWriterEncoded(t *testing.T) {
	docs := oracle.Generate(77, oracle.GenOptions{Docs: 2500})
	o := writer.DefaultOptions("text", "host")
	encoded := map[string][]seenWindow{}
	seam.SetOnWindow(&o, func(field string, w *prx.Window, f prx.Frame) error {
		for _, u := range f.Units {
			encoded[field] = append(encoded[field], seenWindow{string(prx.AppendPlain(nil, w.Slice(u.Lo, u.Hi, &prx.Window{}))), u.Codec})
		}
		return nil
	})
	p := build(t, docs, o)
	seg, err := reader.Open(p, reader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer seg.Close()
	for _, field := range seg.Fields() {
		var got []seenWindow
		var last []byte
		var codecs [prx.NumCodecs]int64
		err := seam.SegmentWindows(bg, seg, field, func(term []byte, w *prx.Window, units []prx.Unit) error {
			if bytes.Compare(term, last) < 0 {
				t.Fatalf("term %q after %q", term, last)
			}
			last = append(last[:0], term...)
			for _, u := range units {
				got = append(got, seenWindow{string(prx.AppendPlain(nil, w.Slice(u.Lo, u.Hi, &prx.Window{}))), u.Codec})
				codecs[u.Codec]++
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) == 0 || !slices.Equal(got, encoded[field]) {
			t.Fatalf("index %q: %d windows read back, %d encoded, or they differ", field, len(got), len(encoded[field]))
		}
		m, _ := seam.IndexMeta(seg, field)
		if codecs != m.Outcome.Windows {
			t.Fatalf("index %q: windows per codec %v, recorded %v", field, codecs, m.Outcome.Windows)
		}
	}
	stop := errors.New("stop")
	if err := seam.SegmentWindows(bg, seg, "text", func([]byte, *prx.Window, []prx.Unit) error { return stop }); !errors.Is(err, stop) {
		t.Fatalf("the callback's error must stop the walk: %v", err)
	}
	if err := seam.SegmentWindows(bg, seg, "nope", func([]byte, *prx.Window, []prx.Unit) error { return nil }); !errors.Is(err, errs.NotFound) {
		t.Fatalf("unknown field: %v", err)
	}
}
