package prx

// maxUint32 is the largest position (and doc id) a window holds.
const maxUint32 = 1<<32 - 1

// zigzag maps a signed delta to an unsigned value (0, -1, 1, -2, ... → 0, 1, 2, 3, ...).
func zigzag(d int64) uint32 { return uint32(uint64(d<<1) ^ uint64(d>>63)) }

// unzigzag inverts zigzag.
func unzigzag(v uint32) int64 { return int64(v>>1) ^ -int64(v&1) }
