package format

import (
	"bytes"
	"encoding/binary"
	"math"

	"github.com/snii-go/snii/budget"
	"github.com/snii-go/snii/internal/codec/prx"
	"github.com/snii-go/snii/internal/errs"
	"github.com/snii-go/snii/limits"
)

// IndexMeta is the metadata group of one field.
type IndexMeta struct {
	Name     string // field name
	Analyzer string // analyzer name (see NewAnalyzer)

	// Stats.
	DocCount      uint64 // documents in the segment
	DocsWithField uint64 // documents with at least one token in this field
	TermCount     uint64 // dict entries
	SumDF         uint64 // sum of df over all terms
	SumTTF        uint64 // sum of ttf (positions) over all terms
	SkippedTokens uint64 // tokens the analyzer skipped (over its max_token_bytes); they take a position but are not indexed

	// Class counts (they sum to TermCount).
	InlineTerms, SlimTerms, WindowedTerms uint64

	// Sections, absolute file offsets. The dict region follows the posting
	// region: DictOff == PostingOff+PostingLen.
	PostingOff, PostingLen, DictOff, DictLen uint64

	// Byte accounting.
	DocBytes         uint64 // doc windows and preludes (posting region and inline)
	PreludeBytes     uint64 // preludes
	PrxBytes         uint64 // prx frames in the posting region
	InlineFrameBytes uint64 // prx frames stored inline in dict entries

	// Norms: when HasNorms, the norms section (DocCount bytes, see
	// EncodeNorm) lies at NormsOff == DictOff+DictLen, right after the dict
	// region, with CRC32C NormsCRC.
	HasNorms bool
	NormsOff uint64
	NormsCRC uint32

	// Codec policy and its outcome. Outcome.Budget.Policy is not stored
	// separately: DecodeIndexMeta sets it to Policy.
	Policy    budget.Policy
	ZstdLevel int
	Limits    limits.Limits
	Outcome   prx.Outcome

	// Pair index (format 3): the pair section follows the dict region and
	// the norms (PairsOff == NormsEnd()) and holds PairCount pairs.
	PairsOff, PairsLen, PairCount uint64
	PairsPercent                  int    // the budget in percent of the .prx bytes (0: no pairs)
	PairsMinDF                    uint64 // the configured minimum pair df (0: the default rule)
	PairsMinDFUsed                uint64 // the minimum pair df applied
	PairsAllowance                uint64 // the budget in bytes
	PairsEligible                 uint64 // pairs that met the minimum df with a positive gain

	// Block directory and sampled term index (first term of each block).
	Blocks     []BlockInfo
	FirstTerms [][]byte

	// Skipped documents (format 9): when SkipDocsKnown, SkipDocs are the
	// documents, ascending, in which the analyzer skipped at least one
	// token of the field. They are unknown only for a field that skipped
	// tokens in a segment of format 8 or older, or in a merge of one.
	SkipDocs      []uint32
	SkipDocsKnown bool
}

// End is the end of the field's sections before its metadata group: the
// pair section's (which follows the dict region and the norms, and is empty
// when the field has no pairs).
func (m *IndexMeta) End() uint64 { return m.PairsOff + m.PairsLen }

// AppendIndexMeta appends the metadata group of m:
//
//	uvarint nameLen | name | uvarint analyzerLen | analyzer
//	stats:    uvarint docCount | docsWithField | termCount | sumDF | sumTTF | skippedTokens
//	classes:  uvarint inlineTerms | slimTerms | windowedTerms
//	sections: uvarint postingOff | postingLen | dictOff | dictLen
//	bytes:    uvarint docBytes | preludeBytes | prxBytes | inlineFrameBytes
//	norms:    u8 hasNorms (0 or 1) | when 1: uvarint normsOff | u32 normsCRC
//	policy:   zigzag varint minSavingPercent | uvarint budgetPercent | zstdLevel | maxDocs | maxPositions | maxBytes
//	outcome:  3 × uvarint windows | 3 × uvarint bytes (per codec) |
//	          uvarint eligible | sumSmallest | traded | tradedCount | finalShare | allowance
//	pairs:    uvarint pairsOff | pairsLen | pairCount | pairsPercent | pairsMinDF |
//	          pairsMinDFUsed | pairsAllowance | pairsEligible
//	blocks:   uvarint nBlocks | nBlocks × {uvarint len | first term} |
//	          nBlocks × {uvarint offset | storedLen | plainLen | entries | u8 flags | u32 crc}
//	skipDocs: u8 known (0 or 1) | when 1: uvarint n | n × uvarint gap
//
// Negative counts (a caller bug) are written as their uint64 bit patterns and
// fail DecodeIndexMeta.
func AppendIndexMeta(dst []byte, m *IndexMeta) []byte {
	u := binary.AppendUvarint
	dst = u(dst, uint64(len(m.Name)))
	dst = append(dst, m.Name...)
	dst = u(dst, uint64(len(m.Analyzer)))
	dst = append(dst, m.Analyzer...)
	for _, v := range []uint64{
		m.DocCount, m.DocsWithField, m.TermCount, m.SumDF, m.SumTTF, m.SkippedTokens,
		m.InlineTerms, m.SlimTerms, m.WindowedTerms,
		m.PostingOff, m.PostingLen, m.DictOff, m.DictLen,
		m.DocBytes, m.PreludeBytes, m.PrxBytes, m.InlineFrameBytes,
	} {
		dst = u(dst, v)
	}
	if m.HasNorms {
		dst = append(dst, 1)
		dst = u(dst, m.NormsOff)
		dst = binary.LittleEndian.AppendUint32(dst, m.NormsCRC)
	} else {
		dst = append(dst, 0)
	}
	minSaving, budgetPercent := m.Policy.Percents()
	dst = binary.AppendVarint(dst, int64(minSaving))
	dst = u(dst, uint64(budgetPercent))
	dst = u(dst, uint64(m.ZstdLevel))
	dst = u(dst, uint64(m.Limits.MaxDocs))
	dst = u(dst, uint64(m.Limits.MaxPositions))
	dst = u(dst, uint64(m.Limits.MaxBytes))
	o := &m.Outcome
	for _, v := range o.Windows {
		dst = u(dst, uint64(v))
	}
	for _, v := range o.Bytes {
		dst = u(dst, uint64(v))
	}
	b := &o.Budget
	for _, v := range []int64{b.Eligible, b.SumSmallest, b.Traded, b.TradedCount, int64(b.FinalShare), b.Allowance} {
		dst = u(dst, uint64(v))
	}
	for _, v := range []uint64{m.PairsOff, m.PairsLen, m.PairCount, uint64(m.PairsPercent), m.PairsMinDF,
		m.PairsMinDFUsed, m.PairsAllowance, m.PairsEligible} {
		dst = u(dst, v)
	}
	dst = u(dst, uint64(len(m.Blocks)))
	for _, t := range m.FirstTerms {
		dst = u(dst, uint64(len(t)))
		dst = append(dst, t...)
	}
	for i := range m.Blocks {
		bi := &m.Blocks[i]
		dst = u(dst, bi.Offset)
		dst = u(dst, uint64(bi.StoredLen))
		dst = u(dst, uint64(bi.PlainLen))
		dst = u(dst, uint64(bi.Entries))
		dst = append(dst, bi.Flags)
		dst = binary.LittleEndian.AppendUint32(dst, bi.CRC)
	}
	return appendSkipDocs(dst, m)
}

// minBlockMeta is the smallest encoding of one block's first term plus its
// directory entry (an empty term cannot be first in a non-first block, but
// the bound need not be tight).
const minBlockMeta = 1 + 4*1 + 1 + 1 + 4

// DecodeIndexMeta decodes a metadata group of a segment of the given format
// version (b is exactly the group; its CRC is checked by the caller against
// the directory). A group of format 8 or older has no skipped documents: they
// are known (none) only when the field skipped no token. The result does not alias b.
// Every count is bounded by the remaining bytes before allocating. It checks:
// class counts sum to TermCount; DocsWithField <= DocCount <= 2^32; SumDF >=
// TermCount and SumTTF >= SumDF; sections without overflow with DictOff ==
// PostingOff+PostingLen; PreludeBytes <= DocBytes; a valid policy and limits;
// non-negative outcome counts; blocks contiguous from 0 to DictLen, each with
// 1 <= PlainLen <= MaxBlockPlainLen, known flags, StoredLen == PlainLen when
// plain, entries summing to TermCount; first terms strictly ascending; the
// skipped documents as decodeSkipDocs checks them. Errors wrap
// snii.ErrCorrupt and name the index.
func DecodeIndexMeta(b []byte, version uint64) (IndexMeta, error) {
	r := reader{b: b}
	var m IndexMeta
	name := r.bytes(r.uvarint())
	an := r.bytes(r.uvarint())
	if !r.ok() || len(name) == 0 {
		return IndexMeta{}, errs.Corruptf("name truncated or empty")
	}
	m.Name, m.Analyzer = string(name), string(an)
	fail := func(format string, args ...any) (IndexMeta, error) {
		return IndexMeta{}, errs.Corruptf(format, args...)
	}
	for _, p := range []*uint64{
		&m.DocCount, &m.DocsWithField, &m.TermCount, &m.SumDF, &m.SumTTF, &m.SkippedTokens,
		&m.InlineTerms, &m.SlimTerms, &m.WindowedTerms,
		&m.PostingOff, &m.PostingLen, &m.DictOff, &m.DictLen,
		&m.DocBytes, &m.PreludeBytes, &m.PrxBytes, &m.InlineFrameBytes,
	} {
		*p = r.uvarintMax(math.MaxInt64)
	}
	if !r.ok() {
		return fail("stats truncated or out of range")
	}
	switch {
	case m.DocCount > math.MaxUint32+1 || m.DocsWithField > m.DocCount:
		return fail("%d docs with the field of %d", m.DocsWithField, m.DocCount)
	case m.InlineTerms > m.TermCount || m.SlimTerms > m.TermCount-m.InlineTerms ||
		m.WindowedTerms != m.TermCount-m.InlineTerms-m.SlimTerms:
		return fail("class counts %d+%d+%d != %d terms", m.InlineTerms, m.SlimTerms, m.WindowedTerms, m.TermCount)
	case m.SumDF < m.TermCount || m.SumTTF < m.SumDF:
		return fail("sumDF %d, sumTTF %d for %d terms", m.SumDF, m.SumTTF, m.TermCount)
	case m.PostingLen > math.MaxInt64-m.PostingOff || m.DictOff != m.PostingOff+m.PostingLen ||
		m.DictLen > math.MaxInt64-m.DictOff:
		return fail("sections posting [%d, +%d), dict [%d, +%d)", m.PostingOff, m.PostingLen, m.DictOff, m.DictLen)
	case m.PreludeBytes > m.DocBytes:
		return fail("prelude bytes %d > doc bytes %d", m.PreludeBytes, m.DocBytes)
	}
	switch r.u8() {
	case 0:
	case 1:
		m.HasNorms = true
		m.NormsOff = r.uvarint()
		m.NormsCRC = r.u32()
		if !r.ok() || m.NormsOff != m.DictOff+m.DictLen || m.DocCount > math.MaxInt64-m.NormsOff {
			return fail("norms at %d (want %d, right after the dict region)", m.NormsOff, m.DictOff+m.DictLen)
		}
	default:
		return fail("norms flag %d (want 0 or 1)", r.b[r.off-1])
	}
	if !r.ok() {
		return fail("norms truncated")
	}
	zigzagMinSaving := r.uvarint()
	minSaving := int64(zigzagMinSaving>>1) ^ -int64(zigzagMinSaving&1) // zigzag
	budgetPercent := r.uvarintMax(1000)
	if minSaving < -1 {
		return fail("min saving percent %d", minSaving)
	}
	m.Policy = budget.FromPercents(int(min(minSaving, 1000)), int(budgetPercent))
	m.ZstdLevel = int(r.uvarintMax(math.MaxInt32))
	m.Limits.MaxDocs = int(r.uvarintMax(math.MaxInt32))
	m.Limits.MaxPositions = int(r.uvarintMax(math.MaxInt32))
	m.Limits.MaxBytes = int(r.uvarintMax(math.MaxInt32))
	if !r.ok() {
		return fail("policy truncated or out of range")
	}
	if err := m.Policy.Validate(); err != nil {
		return fail("%s", errs.Text(err))
	}
	if err := m.Limits.Validate(); err != nil {
		return fail("%s", errs.Text(err))
	}
	o := &m.Outcome
	for i := range o.Windows {
		o.Windows[i] = int64(r.uvarintMax(math.MaxInt64))
	}
	for i := range o.Bytes {
		o.Bytes[i] = int64(r.uvarintMax(math.MaxInt64))
	}
	bo := &o.Budget
	bo.Policy = m.Policy
	for _, p := range []*int64{&bo.Eligible, &bo.SumSmallest, &bo.Traded, &bo.TradedCount} {
		*p = int64(r.uvarintMax(math.MaxInt64))
	}
	bo.FinalShare = int(r.uvarintMax(100))
	bo.Allowance = int64(r.uvarintMax(math.MaxInt64))
	if !r.ok() {
		return fail("outcome truncated or out of range")
	}
	for _, p := range []*uint64{&m.PairsOff, &m.PairsLen, &m.PairCount} {
		*p = r.uvarintMax(math.MaxInt64)
	}
	m.PairsPercent = int(r.uvarintMax(100))
	for _, p := range []*uint64{&m.PairsMinDF, &m.PairsMinDFUsed, &m.PairsAllowance, &m.PairsEligible} {
		*p = r.uvarintMax(math.MaxInt64)
	}
	if !r.ok() {
		return fail("pairs truncated or out of range")
	}
	switch {
	case m.PairsOff != m.NormsEnd() || m.PairsLen > math.MaxInt64-m.PairsOff:
		return fail("pair section [%d, +%d), dict region and norms end at %d", m.PairsOff, m.PairsLen, m.NormsEnd())
	case (m.PairCount == 0) != (m.PairsLen == 0) || m.PairCount > m.PairsLen/8 || m.PairCount > m.PairsEligible ||
		m.PairsLen > m.PairsAllowance+4 || (m.PairsPercent == 0 && m.PairCount != 0):
		return fail("%d pairs in %d bytes (%d eligible, allowance %d, %d%%)", m.PairCount, m.PairsLen, m.PairsEligible, m.PairsAllowance, m.PairsPercent)
	}
	nb := r.uvarint()
	if !r.ok() {
		return fail("outcome truncated or out of range")
	}
	if nb > uint64(r.remaining()/minBlockMeta) || (nb == 0) != (m.TermCount == 0) {
		return fail("%d blocks for %d terms in %d bytes", nb, m.TermCount, r.remaining())
	}
	// First terms: one allocation for all their bytes.
	start := r.off
	for i := uint64(0); i < nb; i++ {
		r.bytes(r.uvarint())
	}
	if !r.ok() {
		return fail("sampled term index truncated")
	}
	if nb > 0 {
		if err := m.decodeBlocks(b, &r, start, nb); err != nil {
			return IndexMeta{}, err
		}
	}
	if version >= SkipDocsVersion {
		if err := r.decodeSkipDocs(&m); err != nil {
			return IndexMeta{}, err
		}
	} else {
		m.SkipDocsKnown = m.SkippedTokens == 0
	}
	if r.remaining() != 0 {
		return fail("%d trailing bytes", r.remaining())
	}
	return m, nil
}

// decodeBlocks decodes the sampled term index (from start in b) and the
// block directory (at r) of nb > 0 blocks.
func (m *IndexMeta) decodeBlocks(b []byte, r *reader, start int, nb uint64) error {
	fail := func(format string, args ...any) error { return errs.Corruptf(format, args...) }
	arena := make([]byte, 0, r.off-start)
	m.FirstTerms = make([][]byte, nb)
	tr := reader{b: b[:r.off], off: start}
	for i := range m.FirstTerms {
		t := tr.bytes(tr.uvarint())
		arena = append(arena, t...)
		m.FirstTerms[i] = arena[len(arena)-len(t) : len(arena) : len(arena)]
		if i > 0 && bytes.Compare(m.FirstTerms[i-1], m.FirstTerms[i]) >= 0 {
			return fail("first term of block %d not ascending", i)
		}
	}
	m.Blocks = make([]BlockInfo, nb)
	var next, entries uint64
	for i := range m.Blocks {
		bi := BlockInfo{
			Offset:    r.uvarint(),
			StoredLen: uint32(r.uvarintMax(math.MaxUint32)),
			PlainLen:  uint32(r.uvarintMax(MaxBlockPlainLen)),
			Entries:   uint32(r.uvarintMax(math.MaxUint32)),
			Flags:     r.u8(),
			CRC:       r.u32(),
		}
		if !r.ok() {
			return fail("block directory entry %d truncated or out of range", i)
		}
		if bi.Offset != next || bi.StoredLen == 0 || uint64(bi.StoredLen) > m.DictLen-next ||
			bi.PlainLen == 0 || bi.Entries == 0 || bi.Flags&^BlockFlagZstd != 0 ||
			(bi.Flags == 0 && bi.StoredLen != bi.PlainLen) {
			return fail("dict block %d: offset %d (want %d), stored %d, plain %d, %d entries, flags %#x",
				i, bi.Offset, next, bi.StoredLen, bi.PlainLen, bi.Entries, bi.Flags)
		}
		next += uint64(bi.StoredLen)
		entries += uint64(bi.Entries)
		m.Blocks[i] = bi
	}
	if next != m.DictLen || entries != m.TermCount {
		return fail("blocks cover %d bytes and %d entries, want %d and %d", next, entries, m.DictLen, m.TermCount)
	}
	return nil
}
