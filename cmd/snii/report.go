package main

import (
	"encoding/base64"
	"encoding/json"
	"unicode/utf8"

	"github.com/snii-go/snii/internal/codec/format"
	"github.com/snii-go/snii/internal/codec/prx"
)

// The --json shapes of build and inspect. Field names are stable: add fields,
// never rename or remove them. Sizes are bytes.

// fieldReport describes one field of a segment.
type fieldReport struct {
	Name          string `json:"name"`
	Analyzer      string `json:"analyzer"`
	Docs          uint64 `json:"docs"`            // documents in the segment
	DocsWithField uint64 `json:"docs_with_field"` // documents with a token in this field
	Terms         uint64 `json:"terms"`
	SumDF         uint64 `json:"sum_df"`
	Positions     uint64 `json:"positions"`      // sum of term frequencies
	SkippedTokens uint64 `json:"skipped_tokens"` // tokens over the analyzer's max_token_bytes, not indexed
	// SkippedDocs is the documents that skipped such a token (absent when
	// the segment does not record them: format 8 or older, or a merge of one)
	SkippedDocs *int         `json:"skipped_docs,omitempty"`
	Classes     classReport  `json:"classes"`
	Bytes       bytesReport  `json:"bytes"`
	Prx         prxReport    `json:"prx"`
	Policy      policyReport `json:"policy"`
	Outcome     outcome      `json:"outcome"`
	Pairs       pairsReport  `json:"pairs"`
	Dictionary  dictReport   `json:"dictionary"`
	TopTerms    []termDF     `json:"top_terms,omitempty"`
}

// classReport counts terms per storage class.
type classReport struct {
	Inline   uint64 `json:"inline"`   // postings and prx frame inside the dict entry
	Slim     uint64 `json:"slim"`     // one window in the posting region
	Windowed uint64 `json:"windowed"` // windows with a prelude
}

// bytesReport is where the bytes of a field go.
type bytesReport struct {
	Total         uint64 `json:"total"`          // posting region + dictionary + pair section
	Dictionary    uint64 `json:"dictionary"`     // dict blocks as stored (inline terms included)
	PostingRegion uint64 `json:"posting_region"` // prx frames + doc postings of slim and windowed terms
	DocPostings   uint64 `json:"doc_postings"`   // doc windows and preludes, inline ones included
	Prelude       uint64 `json:"prelude"`        // preludes of windowed terms
	PrxFrames     uint64 `json:"prx_frames"`     // prx frames in the posting region
	InlineFrames  uint64 `json:"inline_frames"`  // prx frames stored inline in dict entries
	Pairs         uint64 `json:"pairs"`          // the pair section
}

// pairsReport is the phrase-pair index: docs-only lists of adjacent term pairs.
type pairsReport struct {
	BudgetPercent int     `json:"budget_percent"` // of the .prx bytes; 0: no pairs
	MinDF         uint64  `json:"min_df"`         // the minimum pair df applied
	Eligible      uint64  `json:"eligible"`       // pairs with df >= min_df and a positive gain
	Kept          uint64  `json:"kept"`
	Bytes         uint64  `json:"bytes"`        // the pair section
	Allowance     uint64  `json:"allowance"`    // the budget in bytes
	UsedPercent   float64 `json:"used_percent"` // 100 × bytes / allowance
}

// prxReport is the .prx windows per codec.
type prxReport struct {
	Windows         codecCounts `json:"windows"`
	Bytes           codecCounts `json:"bytes"`
	BitsPerPosition float64     `json:"bits_per_position"` // 8 × (prx frames + inline frames) / positions
}

// codecCounts is one number per frame codec.
type codecCounts struct {
	Raw  int64 `json:"raw"`
	PFOR int64 `json:"pfor"`
	Zstd int64 `json:"zstd"`
}

// policyReport is the codec policy the field was built with.
type policyReport struct {
	Name             string `json:"name"`               // "budget:8", "0" (smallest) or a share "30"
	MinSavingPercent int    `json:"min_saving_percent"` // -1 budget, 0 smallest, 1..100 share
	BudgetPercent    int    `json:"budget_percent"`
	ZstdLevel        int    `json:"zstd_level"`
	MaxWindowDocs    int    `json:"max_window_docs"`
	MaxWindowPos     int    `json:"max_window_positions"`
	MaxWindowBytes   int    `json:"max_window_bytes"`
}

// outcome is what the policy did over the eligible windows (plain payload of
// 512 bytes or more, not a singleton).
type outcome struct {
	EligibleWindows int64   `json:"eligible_windows"`
	SumSmallest     int64   `json:"sum_smallest"`   // bytes of their smallest frames
	TradedBytes     int64   `json:"traded_bytes"`   // bytes stored beyond the smallest frames
	TradedWindows   int64   `json:"traded_windows"` // windows stored fast although zstd was smaller
	Allowance       int64   `json:"allowance"`      // the budget's allowance (budget policy only)
	FinalShare      int     `json:"final_share"`    // the share in force at the end (budget or fixed share)
	TradedPercent   float64 `json:"traded_percent"` // 100 × traded / sum_smallest
}

// dictReport describes the dictionary blocks.
type dictReport struct {
	Blocks           int `json:"blocks"`
	CompressedBlocks int `json:"compressed_blocks"` // stored with zstd
}

// termDF is a term and its document frequency.
type termDF struct {
	Term string `json:"term"`
	DF   uint64 `json:"df"`
}

// MarshalJSON writes {"term", "df"}, plus "term_base64" (the exact bytes,
// standard base64) when the term is not valid UTF-8: JSON strings cannot hold
// such bytes, and "term" then shows them as U+FFFD, so distinct terms could
// print alike.
func (t termDF) MarshalJSON() ([]byte, error) {
	type plain struct {
		Term       string `json:"term"`
		DF         uint64 `json:"df"`
		TermBase64 string `json:"term_base64,omitempty"`
	}
	p := plain{Term: t.Term, DF: t.DF}
	if !utf8.ValidString(t.Term) {
		p.TermBase64 = base64.StdEncoding.EncodeToString([]byte(t.Term))
	}
	return json.Marshal(p)
}

func counts(a [prx.NumCodecs]int64) codecCounts {
	return codecCounts{Raw: a[prx.CodecRaw], PFOR: a[prx.CodecPFOR], Zstd: a[prx.CodecZstd]}
}

// newFieldReport summarizes the metadata of one field.
func newFieldReport(m *format.IndexMeta) fieldReport {
	minSaving, budgetPercent := m.Policy.Percents()
	r := fieldReport{
		Name: m.Name, Analyzer: m.Analyzer,
		Docs: m.DocCount, DocsWithField: m.DocsWithField, Terms: m.TermCount, SumDF: m.SumDF, Positions: m.SumTTF,
		SkippedTokens: m.SkippedTokens,
		Classes:       classReport{Inline: m.InlineTerms, Slim: m.SlimTerms, Windowed: m.WindowedTerms},
		Bytes: bytesReport{
			Total: m.PostingLen + m.DictLen + m.PairsLen, Dictionary: m.DictLen, PostingRegion: m.PostingLen, Pairs: m.PairsLen,
			DocPostings: m.DocBytes, Prelude: m.PreludeBytes, PrxFrames: m.PrxBytes, InlineFrames: m.InlineFrameBytes,
		},
		Prx: prxReport{Windows: counts(m.Outcome.Windows), Bytes: counts(m.Outcome.Bytes)},
		Policy: policyReport{
			Name: m.Policy.String(), MinSavingPercent: minSaving, BudgetPercent: budgetPercent,
			ZstdLevel: m.ZstdLevel, MaxWindowDocs: m.Limits.MaxDocs, MaxWindowPos: m.Limits.MaxPositions, MaxWindowBytes: m.Limits.MaxBytes,
		},
		Dictionary: dictReport{Blocks: len(m.Blocks)},
	}
	if m.SkipDocsKnown {
		n := len(m.SkipDocs)
		r.SkippedDocs = &n
	}
	r.Pairs = pairsReport{BudgetPercent: m.PairsPercent, MinDF: m.PairsMinDFUsed, Eligible: m.PairsEligible,
		Kept: m.PairCount, Bytes: m.PairsLen, Allowance: m.PairsAllowance}
	if m.PairsAllowance > 0 {
		r.Pairs.UsedPercent = round2(100 * float64(m.PairsLen) / float64(m.PairsAllowance))
	}
	b := m.Outcome.Budget
	r.Outcome = outcome{EligibleWindows: b.Eligible, SumSmallest: b.SumSmallest, TradedBytes: b.Traded,
		TradedWindows: b.TradedCount, Allowance: b.Allowance, FinalShare: b.FinalShare}
	if b.SumSmallest > 0 {
		r.Outcome.TradedPercent = round2(100 * float64(b.Traded) / float64(b.SumSmallest))
	}
	if m.SumTTF > 0 {
		r.Prx.BitsPerPosition = round2(8 * float64(m.PrxBytes+m.InlineFrameBytes) / float64(m.SumTTF))
	}
	for _, bl := range m.Blocks {
		if bl.Flags&format.BlockFlagZstd != 0 {
			r.Dictionary.CompressedBlocks++
		}
	}
	return r
}

// round2 rounds to two decimals, so JSON output stays short and stable.
func round2(f float64) float64 {
	if f < 0 {
		return -round2(-f)
	}
	return float64(int64(f*100+0.5)) / 100
}
