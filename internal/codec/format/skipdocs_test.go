package format

import (
	"errors"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/snii-go/snii/internal/errs"
)

// TestSkipDocsRoundTrip: lists of every shape decode to themselves; an
// unknown list stays unknown; a group of format 8 (no list) decodes with the
// list known (empty) exactly when the field skipped no token.
func TestSkipDocsRoundTrip(t *testing.T) {
	base := sampleMeta(t)
	dense := make([]uint32, base.DocCount)
	for i := range dense {
		dense[i] = uint32(i)
	}
	for name, docs := range map[string][]uint32{
		"none":  nil,
		"first": {0},
		"last":  {uint32(base.DocCount - 1)},
		"dense": dense,
		"gaps":  {1, 2, 130, 20000 % uint32(base.DocCount), 999},
	} {
		m := base
		m.SkipDocs, m.SkipDocsKnown = docs, true
		m.SkippedTokens = max(m.SkippedTokens, uint64(len(docs)))
		if name == "gaps" {
			slices.Sort(m.SkipDocs)
		}
		got, err := DecodeIndexMeta(AppendIndexMeta(nil, &m), FormatVersion)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if diff := cmp.Diff(m, got); diff != "" {
			t.Fatalf("%s (-want +got):\n%s", name, diff)
		}
	}
	m := base
	m.SkipDocs, m.SkipDocsKnown = nil, false
	if got, err := DecodeIndexMeta(AppendIndexMeta(nil, &m), FormatVersion); err != nil || got.SkipDocsKnown || got.SkipDocs != nil {
		t.Fatalf("unknown list: known %v, %v, %v", got.SkipDocsKnown, got.SkipDocs, err)
	}
	// A format-8 group ends before the list (its u8 flag).
	for _, skipped := range []uint64{0, 7} {
		m := base
		m.SkippedTokens, m.SkipDocs, m.SkipDocsKnown = skipped, nil, false
		b := AppendIndexMeta(nil, &m)
		got, err := DecodeIndexMeta(b[:len(b)-1], SkipDocsVersion-1)
		if err != nil || got.SkipDocsKnown != (skipped == 0) || got.SkipDocs != nil {
			t.Fatalf("format 8, %d skipped: known %v, %v, %v", skipped, got.SkipDocsKnown, got.SkipDocs, err)
		}
		if _, err := DecodeIndexMeta(b, SkipDocsVersion-1); !errors.Is(err, errs.Corrupt) {
			t.Errorf("format 8 with a list: %v, want a corrupt error", err)
		}
	}
}

// TestSkipDocsBytes pins the encoding: a flag, the count, the gaps.
func TestSkipDocsBytes(t *testing.T) {
	for _, c := range []struct {
		m    IndexMeta
		want []byte
	}{
		{IndexMeta{}, []byte{0}},
		{IndexMeta{SkipDocsKnown: true}, []byte{1, 0}},
		{IndexMeta{SkipDocsKnown: true, SkipDocs: []uint32{2, 3, 200}}, []byte{1, 3, 2, 0, 196, 1}},
	} {
		if got := appendSkipDocs(nil, &c.m); !slices.Equal(got, c.want) {
			t.Errorf("%v: % x, want % x", c.m.SkipDocs, got, c.want)
		}
	}
}

// FuzzDecodeSkipDocs: the list decoder never panics, fails with a corrupt
// error, and what it accepts is ascending, below the document count, no
// longer than the skipped tokens, and re-encodes to its input.
func FuzzDecodeSkipDocs(f *testing.F) {
	f.Add(uint32(1000), uint32(7), []byte{1, 3, 2, 0, 196, 1})
	f.Add(uint32(10), uint32(1), []byte{0})
	f.Add(uint32(0), uint32(0), []byte{1, 0})
	f.Fuzz(func(t *testing.T, docs, skipped uint32, b []byte) {
		m := IndexMeta{DocCount: uint64(docs), SkippedTokens: uint64(skipped)}
		r := reader{b: b}
		if err := r.decodeSkipDocs(&m); err != nil {
			if !errors.Is(err, errs.Corrupt) {
				t.Fatalf("err = %v", err)
			}
			return
		}
		if uint64(len(m.SkipDocs)) > m.SkippedTokens || !m.SkipDocsKnown && m.SkippedTokens == 0 {
			t.Fatalf("%d docs for %d skipped tokens, known %v", len(m.SkipDocs), m.SkippedTokens, m.SkipDocsKnown)
		}
		for i, d := range m.SkipDocs {
			if uint64(d) >= m.DocCount || i > 0 && d <= m.SkipDocs[i-1] {
				t.Fatalf("doc %d = %d of %d docs, not ascending or past the end", i, d, m.DocCount)
			}
		}
		if re := appendSkipDocs(nil, &m); !slices.Equal(re, b[:r.off]) {
			t.Fatalf("% x re-encodes to % x", b[:r.off], re)
		}
	})
}
