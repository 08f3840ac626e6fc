package prx

import (
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestStatsCounts(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 36))
	w := genWindow(rng, 300, 0, 6, 100)
	u := PlainSize(w)
	frames := map[Codec][]byte{}
	for _, c := range []Codec{CodecRaw, CodecPFOR, CodecZstd} {
		frames[c] = frameOf(t, c, w)
	}
	src := NewSource(Limits{})
	defer src.Close()
	var st Stats
	src.SetStats(&st)
	var dst Window
	ords := []uint32{2, 50, 100}
	var sel, upTo100 int64
	for _, o := range ords {
		sel += int64(len(w.Doc(int(o))))
	}
	upTo100 = int64(w.Offsets[101])
	var want Stats
	for _, c := range []Codec{CodecRaw, CodecPFOR, CodecZstd} {
		f := frames[c]
		if _, err := src.Decode(f, true, &dst); err != nil {
			t.Fatal(err)
		}
		if _, err := src.DecodeSelected(f, true, ords, &dst); err != nil {
			t.Fatal(err)
		}
		want.Frames[c] += 2
		want.FrameBytes += 2 * int64(len(f))
		want.TotalDocs += 600
		want.SelectedDocs += 300 + 3
		want.SelectedPositions += int64(len(w.Positions)) + sel
		if c == CodecPFOR {
			want.TotalPositions += 2 * int64(len(w.Positions))
		} else {
			want.PlainBytes += 2 * int64(u)
			want.TotalPositions += int64(len(w.Positions)) + upTo100
		}
	}
	if st.DecodeNanos <= 0 {
		t.Fatalf("no decode time recorded: %+v", st)
	}
	st.DecodeNanos = 0
	if d := cmp.Diff(want, st); d != "" {
		t.Fatalf("stats (-want +got):\n%s", d)
	}
	// A failed decode leaves the stats unchanged.
	before := st
	zh, err := ParseFrameHeader(frames[CodecZstd], true, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	zp := frames[CodecZstd][zh.HeaderLen : zh.HeaderLen+zh.PayloadLen]
	bad := assemble(CodecZstd, zp, uint32(u+1), uint32(len(zp)))
	for _, f := range [][]byte{bad, frames[CodecRaw][:10], {9, 9}} {
		if _, err := src.Decode(f, true, &dst); err == nil {
			t.Fatal("corrupt frame decoded")
		}
		if _, err := src.DecodeSelected(f, true, ords, &dst); err == nil {
			t.Fatal("corrupt frame decoded")
		}
	}
	if _, err := src.DecodeSelected(frames[CodecRaw], true, []uint32{300}, &dst); err == nil {
		t.Fatal("out-of-range ordinal accepted")
	}
	if st != before {
		t.Fatalf("failed decodes changed the stats: %+v -> %+v", before, st)
	}
	// Add.
	var sum Stats
	sum.Add(&st)
	sum.Add(&st)
	if sum.Frames[CodecZstd] != 2*st.Frames[CodecZstd] || sum.SelectedPositions != 2*st.SelectedPositions || sum.FrameBytes != 2*st.FrameBytes {
		t.Fatalf("Add: %+v", sum)
	}
	// Disabled stats: nothing recorded.
	src.SetStats(nil)
	if _, err := src.Decode(frames[CodecRaw], true, &dst); err != nil {
		t.Fatal(err)
	}
	if st != before {
		t.Fatal("stats changed after SetStats(nil)")
	}
}
