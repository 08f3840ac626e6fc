package prx

// The packed block (see docs/FORMAT.md, "Packed blocks") is also the code of
// the doc-id blocks of a segment's blocked doc windows (package
// internal/format); these wrappers export it without its position context.

// AppendPacked appends the packed block of vals (1..BlockLen values) with its
// canonical parameters and returns the extended slice.
func AppendPacked(dst []byte, vals []uint32) []byte {
	w, nx, _ := packParams(vals)
	return appendPackBlock(dst, vals, w, nx)
}

// PackedLen returns the length of the packed block AppendPacked writes for vals.
func PackedLen(vals []uint32) int {
	_, _, size := packParams(vals)
	return size
}

// UnpackPacked decodes the packed block of len(out) values at src[p:] into out
// and returns the offset after it; ok is false for a malformed block (width
// over 32, truncated, bad exceptions, a value over 2^32-1).
func UnpackPacked(src []byte, p int, out []uint32) (next int, ok bool) {
	return unpackBlock(src, p, out)
}

// SkipPacked returns the offset after the packed block of c values at src[p:]
// without decoding its fields; ok is false when its token or exceptions are
// malformed or it runs past src.
func SkipPacked(src []byte, p, c int) (next int, ok bool) {
	return skipBlock(src, p, c)
}
