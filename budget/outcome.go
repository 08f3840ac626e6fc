package budget

// Outcome is what a policy did over the eligible windows of one field
// (a segment records it; see Outcome in internal/codec/prx and the reader's
// field metadata).
type Outcome struct {
	Policy      Policy
	Eligible    int64 // eligible windows seen
	SumSmallest int64 // sum of their smallest frames
	Traded      int64 // bytes stored beyond the smallest frames (fast frames kept)
	TradedCount int64 // eligible windows stored fast although zstd was smaller
	FinalShare  int   // the budget's share after the last window (the fixed share, or 0)
	Allowance   int64 // the budget's allowance after the last window (0 for other policies)
}
