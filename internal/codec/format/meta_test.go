package format

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/snii-go/snii/budget"
	"github.com/snii-go/snii/internal/codec/prx"
	"github.com/snii-go/snii/limits"

	"github.com/snii-go/snii/internal/errs"
)

// sampleMeta returns a consistent metadata group with real blocks.
func sampleMeta(t testing.TB) IndexMeta {
	r := rand.New(rand.NewPCG(51, 52))
	var bb BlockBuilder
	m := IndexMeta{
		Name: "body", Analyzer: "standard",
		DocCount: 1000, DocsWithField: 990, SkippedTokens: 7,
		PostingOff: HeaderSize, PostingLen: 123456,
		DocBytes: 5000, PreludeBytes: 300, PrxBytes: 100000, InlineFrameBytes: 777,
		Policy: budget.Policy{}, ZstdLevel: 3, Limits: limits.Limits{}.Normalize(),
	}
	m.DictOff = m.PostingOff + m.PostingLen
	m.Outcome.Windows = [prx.NumCodecs]int64{10, 20, 30}
	m.Outcome.Bytes = [prx.NumCodecs]int64{1000, 2000, 3000}
	m.Outcome.Budget = budget.Outcome{Policy: m.Policy, Eligible: 40, SumSmallest: 12345, Traded: 321, TradedCount: 4, FinalShare: 30, Allowance: 987}
	terms := randTerms(r, 100)
	for i := 0; i < len(terms); i += 30 {
		tes := randTermEntries(r, terms[i:min(i+30, len(terms))])
		bb.Reset()
		for _, te := range tes {
			bb.Add(te.term, &te.entry)
			m.SumDF += te.entry.DF
			m.SumTTF += te.entry.TTF
			switch te.entry.Class {
			case ClassInline:
				m.InlineTerms++
			case ClassSlim:
				m.SlimTerms++
			default:
				m.WindowedTerms++
			}
		}
		m.FirstTerms = append(m.FirstTerms, slices.Clone(bb.FirstTerm()))
		_, info := bb.Finish(nil)
		info.Offset = m.DictLen
		m.DictLen += uint64(info.StoredLen)
		m.Blocks = append(m.Blocks, info)
	}
	m.TermCount = uint64(len(terms))
	m.HasNorms, m.NormsOff, m.NormsCRC = true, m.DictOff+m.DictLen, 0xabcdef01
	m.PairsOff, m.PairsLen, m.PairCount = m.NormsEnd(), 900, 30
	m.PairsPercent, m.PairsMinDF, m.PairsMinDFUsed, m.PairsAllowance, m.PairsEligible = 10, 0, 64, 1000, 77
	m.SkipDocs, m.SkipDocsKnown = []uint32{0, 3, 4, 500, 999}, true
	return m
}

func TestIndexMetaRoundTrip(t *testing.T) {
	m := sampleMeta(t)
	b := AppendIndexMeta(nil, &m)
	got, err := DecodeIndexMeta(b, FormatVersion)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(m, got); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
	// The result does not alias b.
	for i := range b {
		b[i] = 0
	}
	if diff := cmp.Diff(m, got); diff != "" {
		t.Fatalf("decoded meta aliases its input:\n%s", diff)
	}
	// Policies of each kind; an empty index.
	for _, p := range []budget.Policy{budget.FromPercents(0, 8), budget.FromPercents(100, 8), budget.FromPercents(-1, 0)} {
		m2 := m
		m2.Policy = p
		m2.Outcome.Budget.Policy = p
		got, err := DecodeIndexMeta(AppendIndexMeta(nil, &m2), FormatVersion)
		if err != nil || got.Policy != p || got.Outcome.Budget.Policy != p {
			t.Errorf("policy %+v: %+v, %v", p, got.Policy, err)
		}
	}
	empty := IndexMeta{Name: "empty", Policy: budget.Policy{}, Limits: limits.Limits{}.Normalize(), PostingOff: 16, DictOff: 16, PairsOff: 16, SkipDocsKnown: true}
	empty.Outcome.Budget.Policy = empty.Policy
	got, err = DecodeIndexMeta(AppendIndexMeta(nil, &empty), FormatVersion)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(empty, got); diff != "" {
		t.Fatalf("empty (-want +got):\n%s", diff)
	}
}

func TestDecodeIndexMetaInvalid(t *testing.T) {
	base := sampleMeta(t)
	cases := map[string]func(m *IndexMeta){
		"no name":              func(m *IndexMeta) { m.Name = "" },
		"pairs off the dict":   func(m *IndexMeta) { m.PairsOff++ },
		"pairs without bytes":  func(m *IndexMeta) { m.PairsLen = 0 },
		"bytes without pairs":  func(m *IndexMeta) { m.PairCount = 0 },
		"pairs over budget":    func(m *IndexMeta) { m.PairsAllowance = m.PairsLen - 5 },
		"pairs when off":       func(m *IndexMeta) { m.PairsPercent = 0 },
		"pairs > eligible":     func(m *IndexMeta) { m.PairsEligible = m.PairCount - 1 },
		"pairs percent > 100":  func(m *IndexMeta) { m.PairsPercent = 101 },
		"docs with field":      func(m *IndexMeta) { m.DocsWithField = m.DocCount + 1 },
		"doc count":            func(m *IndexMeta) { m.DocCount = 1<<32 + 1; m.DocsWithField = 0 },
		"class counts":         func(m *IndexMeta) { m.InlineTerms++ },
		"class counts 2":       func(m *IndexMeta) { m.SlimTerms = m.TermCount + 1 },
		"sum df":               func(m *IndexMeta) { m.SumDF = m.TermCount - 1 },
		"sum ttf":              func(m *IndexMeta) { m.SumTTF = m.SumDF - 1 },
		"dict not after post":  func(m *IndexMeta) { m.DictOff++ },
		"prelude bytes":        func(m *IndexMeta) { m.PreludeBytes = m.DocBytes + 1 },
		"posting overflow":     func(m *IndexMeta) { m.PostingLen = math.MaxInt64 },
		"policy":               func(m *IndexMeta) { m.Policy = budget.Policy{Kind: budget.FixedShare, Percent: 101} },
		"budget percent":       func(m *IndexMeta) { m.Policy = budget.Policy{Kind: budget.Budget, Percent: 101} },
		"limits":               func(m *IndexMeta) { m.Limits.MaxDocs = limits.DefaultMaxDocs + 1 },
		"negative outcome":     func(m *IndexMeta) { m.Outcome.Bytes[1] = -1 },
		"final share":          func(m *IndexMeta) { m.Outcome.Budget.FinalShare = 101 },
		"block offset":         func(m *IndexMeta) { m.Blocks[1].Offset++ },
		"block plain len":      func(m *IndexMeta) { m.Blocks[0].PlainLen++ },
		"block plain huge":     func(m *IndexMeta) { m.Blocks[0].PlainLen = MaxBlockPlainLen + 1; m.Blocks[0].Flags = 1 },
		"block entries":        func(m *IndexMeta) { m.Blocks[0].Entries++ },
		"block no entries":     func(m *IndexMeta) { m.Blocks[0].Entries = 0 },
		"block flags":          func(m *IndexMeta) { m.Blocks[0].Flags = 2 },
		"dict len":             func(m *IndexMeta) { m.DictLen++ },
		"norms not after dict": func(m *IndexMeta) { m.NormsOff++ },
		"no blocks":            func(m *IndexMeta) { m.Blocks, m.FirstTerms = nil, nil },
		"first terms order":    func(m *IndexMeta) { m.FirstTerms[0], m.FirstTerms[1] = m.FirstTerms[1], m.FirstTerms[0] },
		"first terms equal":    func(m *IndexMeta) { m.FirstTerms[1] = m.FirstTerms[0] },
		"skip doc past docs":   func(m *IndexMeta) { m.SkipDocs = []uint32{3, uint32(m.DocCount)} },
		"skip docs > skipped":  func(m *IndexMeta) { m.SkippedTokens = uint64(len(m.SkipDocs)) - 1 },
		"skip docs unsorted":   func(m *IndexMeta) { m.SkipDocs = []uint32{5, 3} },
		"skip docs twice":      func(m *IndexMeta) { m.SkipDocs = []uint32{3, 3} },
		"skip docs unknown":    func(m *IndexMeta) { m.SkipDocsKnown, m.SkippedTokens, m.SkipDocs = false, 0, nil },
	}
	for name, f := range cases {
		m := base
		m.Blocks = slices.Clone(base.Blocks)
		m.FirstTerms = slices.Clone(base.FirstTerms)
		f(&m)
		if _, err := DecodeIndexMeta(AppendIndexMeta(nil, &m), FormatVersion); !errors.Is(err, errs.Corrupt) {
			t.Errorf("%s: err = %v, want errs.Corrupt", name, err)
		}
	}
	b := AppendIndexMeta(nil, &base)
	if _, err := DecodeIndexMeta(append(b, 0), FormatVersion); !errors.Is(err, errs.Corrupt) {
		t.Errorf("trailing byte: err = %v", err)
	}
}

func TestIndexMetaCorruption(t *testing.T) {
	m := sampleMeta(t)
	b := AppendIndexMeta(nil, &m)
	crc := Checksum(b)
	for l := 0; l < len(b); l++ {
		if _, err := DecodeIndexMeta(b[:l], FormatVersion); !errors.Is(err, errs.Corrupt) {
			t.Fatalf("truncated to %d: err = %v", l, err)
		}
	}
	for i := range b {
		for _, x := range []byte{1, 0x80, 0xff} {
			c := slices.Clone(b)
			c[i] ^= x
			if err := VerifyChecksum(c, crc, "directory"); !errors.Is(err, errs.Corrupt) {
				t.Fatalf("byte %d: checksum not caught", i)
			}
			// Without the CRC: an error, or a faithful decode.
			got, err := DecodeIndexMeta(c, FormatVersion)
			if err != nil {
				if !errors.Is(err, errs.Corrupt) {
					t.Fatalf("byte %d ^ %#x: err = %v", i, x, err)
				}
				continue
			}
			if re := AppendIndexMeta(nil, &got); !slices.Equal(re, c) && !cmp.Equal(got, m) {
				t.Fatalf("byte %d ^ %#x: decoded meta neither re-encodes to the input nor equals the original", i, x)
			}
		}
	}
}

func FuzzDecodeIndexMeta(f *testing.F) {
	m := sampleMeta(f)
	f.Add(AppendIndexMeta(nil, &m))
	empty := IndexMeta{Name: "x", Policy: budget.Policy{}, SkipDocsKnown: true}
	f.Add(AppendIndexMeta(nil, &empty))
	f.Fuzz(func(t *testing.T, b []byte) {
		got, err := DecodeIndexMeta(b, FormatVersion)
		if err != nil {
			if !errors.Is(err, errs.Corrupt) {
				t.Fatalf("err = %v", err)
			}
			return
		}
		// A decoded group re-encodes to bytes that decode to the same value.
		re := AppendIndexMeta(nil, &got)
		again, err := DecodeIndexMeta(re, FormatVersion)
		if err != nil {
			t.Fatalf("re-encoded: %v", err)
		}
		if !cmp.Equal(got, again) {
			t.Fatalf("re-decoded meta differs: %s", cmp.Diff(got, again))
		}
		if len(got.Blocks) != len(got.FirstTerms) || uint64(len(got.Blocks)) > got.TermCount {
			t.Fatalf("%d blocks, %d first terms, %d terms", len(got.Blocks), len(got.FirstTerms), got.TermCount)
		}
	})
}

func FuzzParseTail(f *testing.F) {
	f.Add(AppendTail(nil, Tail{DirOff: 100, DirLen: 5, DirCRC: 7}))
	f.Add(AppendTail(nil, Tail{Version: 2, MinReader: 2}))
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, in := range [][]byte{b, fixTailCRC(b)} {
			tl, err := ParseTail(in)
			if err != nil {
				if !errors.Is(err, errs.Corrupt) && !errors.Is(err, errs.Version) {
					t.Fatalf("err = %v", err)
				}
				continue
			}
			if re := AppendTail(nil, tl); !slices.Equal(re, in) {
				t.Fatalf("tail % x re-encodes to % x", in, re)
			}
			_ = tl.CheckFileSize(uint64(len(b)) * 1000)
		}
	})
}

// fixTailCRC returns a copy of b with a correct tail CRC when b has the tail's size.
func fixTailCRC(b []byte) []byte {
	if len(b) != TailSize {
		return b
	}
	c := slices.Clone(b)
	copy(c[24:], TailMagic)
	return resumPrelude(c) // same layout: CRC32C of everything before the last 4 bytes
}
