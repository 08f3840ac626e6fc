package chooser

// WarmupWindows is the number of eligible windows during which the prior share applies.
const WarmupWindows = 64

// PriorShare is the share used during warm-up.
const PriorShare = 30

// Eval is the evaluation of one eligible window from its exact frame sizes.
type Eval struct {
	Fast     int  // size of the faster frame (min of PFOR and RAW)
	Zstd     int  // size of the zstd frame
	Smallest int  // min(Fast, Zstd), zstd only when strictly smaller
	Trade    int  // Fast - Zstd when zstd is the smallest, else 0
	Saving   int  // floor(100*Trade/Fast), 0..99
	ZstdWins bool // zstd is strictly smaller than Fast
}

// Evaluate computes the evaluation of an eligible window whose fast frame
// (min of PFOR and RAW) has size fast and whose zstd frame has size zstd.
// Both sizes must be positive.
func Evaluate(fast, zstd int) Eval {
	e := Eval{Fast: fast, Zstd: zstd, Smallest: fast}
	if zstd < fast {
		e.ZstdWins = true
		e.Smallest = zstd
		e.Trade = fast - zstd
		e.Saving = int(100 * int64(e.Trade) / int64(fast))
	}
	return e
}

// FastSize returns min(pfor, raw), PFOR on ties; raw alone when pforOK is false.
func FastSize(raw, pfor int, pforOK bool) (size int, isPFOR bool) {
	if pforOK && pfor <= raw {
		return pfor, true
	}
	return raw, false
}
