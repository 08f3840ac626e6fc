package prx

import (
	"slices"

	"github.com/snii-go/snii/internal/codec/bitpack"
)

// UnitValues is the most positions a unit holds, unless a single document has more
// (it is then a unit of its own). A window's documents are cut into units greedily:
// a unit takes the next document while its positions stay within UnitValues, or
// while it is empty.
const UnitValues = 512

// MaxPosition is the largest position a window may hold (2^31 - 1): the first
// positions of the documents of a block are stored as signed deltas.
const MaxPosition = 1<<31 - 1

// codecMulti is the first byte of a window of several units.
const codecMulti = 3

// cutUnits returns the unit boundaries of a window whose documents have the
// cumulative position counts offs (len docs+1): unit u holds the documents
// cuts[u]..cuts[u+1]-1. cuts is reused.
func cutUnits(offs []uint32, cuts []int) []int {
	cuts = append(cuts[:0], 0)
	n := len(offs) - 1
	start := 0
	for i := 0; i < n; i++ {
		if i > start && offs[i+1]-offs[start] > UnitValues {
			cuts = append(cuts, i)
			start = i
		}
	}
	return append(cuts, n)
}

// UnitBounds returns the unit boundaries of the valid window w, as the encoder
// cuts them: unit u holds the documents bounds[u]..bounds[u+1]-1.
func UnitBounds(w *Window) []int {
	if w.Docs() == 0 {
		return []int{0, 0}
	}
	return cutUnits(w.Offsets, nil)
}

// unitStream builds the value stream of the documents lo..hi-1 of w into vals: per
// document its first position, then the deltas to the previous position. The first
// position of a document is stored as is when it is the first document whose values
// start in its 128-value block, and otherwise as the zigzag delta to the first
// position of that block's first document (so any document's first position is two
// value reads away). tfs receives tf-1 of each document.
func unitStream(w *Window, lo, hi int, vals, tfs []uint32) ([]uint32, []uint32) {
	vals, tfs = vals[:0], tfs[:0]
	prevFirst := uint32(0)
	prevBlock := -1
	for i := lo; i < hi; i++ {
		pos := w.Positions[w.Offsets[i]:w.Offsets[i+1]]
		tfs = append(tfs, uint32(len(pos)-1))
		b := len(vals) / bitpack.BlockLen
		if b != prevBlock {
			vals = append(vals, pos[0])
			prevFirst, prevBlock = pos[0], b
		} else {
			vals = append(vals, zigzag(int64(pos[0])-int64(prevFirst)))
		}
		prev := pos[0]
		for _, p := range pos[1:] {
			vals = append(vals, p-prev)
			prev = p
		}
	}
	return vals, tfs
}

// rawColumnSize returns the bytes of vals as uvarints.
func rawColumnSize(vals []uint32) int {
	n := 0
	for _, v := range vals {
		n += bitpack.UvarintLen32(v)
	}
	return n
}

// appendRawPositions appends the RAW positions payload of vals: when there is more
// than one block, the byte length of every block but the last (uvarints), then
// the values as uvarints.
func appendRawPositions(dst []byte, vals []uint32) []byte {
	nb := (len(vals) + bitpack.BlockLen - 1) / bitpack.BlockLen
	for b := 0; b < nb-1; b++ {
		dst = bitpack.AppendUvarint(dst, uint32(rawColumnSize(vals[b*bitpack.BlockLen:(b+1)*bitpack.BlockLen])))
	}
	for _, v := range vals {
		if v < 0x80 {
			dst = append(dst, byte(v))
		} else {
			dst = bitpack.AppendUvarint(dst, v)
		}
	}
	return dst
}

// rawPositionsSize returns the length of the RAW positions payload of vals.
func rawPositionsSize(vals []uint32) int {
	nb := (len(vals) + bitpack.BlockLen - 1) / bitpack.BlockLen
	n := 0
	for b := 0; b < nb; b++ {
		s := rawColumnSize(vals[b*bitpack.BlockLen : min((b+1)*bitpack.BlockLen, len(vals))])
		n += s
		if b < nb-1 {
			n += bitpack.UvarintLen32(uint32(s))
		}
	}
	return n
}

// appendPackedColumn appends vals as packed blocks of bitpack.BlockLen values (the last
// may be shorter). par, when it holds a blockParams per block (packedColumnSize's),
// gives each block's parameters; otherwise they are chosen here.
func appendPackedColumn(dst []byte, vals []uint32, par []blockParams) []byte {
	if len(par) != (len(vals)+bitpack.BlockLen-1)/bitpack.BlockLen {
		par = nil
	}
	for b := 0; b < len(vals); b += bitpack.BlockLen {
		blk := vals[b:min(b+bitpack.BlockLen, len(vals))]
		var w uint
		var nx int
		if par != nil {
			w, nx = par[b/bitpack.BlockLen].params()
		} else {
			w, nx, _ = bitpack.Params(blk)
		}
		dst = bitpack.AppendBlock(dst, blk, w, nx)
	}
	return dst
}

// packedColumnSize returns the length of appendPackedColumn(nil, vals), and the
// parameters of its blocks in par (reused).
func packedColumnSize(vals []uint32, par []blockParams) (int, []blockParams) {
	n := 0
	par = par[:0]
	for b := 0; b < len(vals); b += bitpack.BlockLen {
		w, nx, s := bitpack.Params(vals[b:min(b+bitpack.BlockLen, len(vals))])
		par = append(par, blockParams{w: uint8(w), nx: uint8(nx)})
		n += s
	}
	return n, par
}

// blockParams is a packed block's width and exception count (bitpack.Params).
type blockParams struct{ w, nx uint8 }

func (p blockParams) params() (uint, int) { return uint(p.w), int(p.nx) }

// unitPlan is what the encoder measured of one unit before choosing its codec.
type unitPlan struct {
	lo, hi    int // documents of the window
	positions int
	vals, tfs []uint32
	tfRaw     int // tf column as uvarints (RAW units)
	tfPacked  int // tf column packed (PFOR and ZSTD units)
	rawLen    int // RAW positions payload (the unit's plain length U)
	pforLen   int // PFOR positions payload
	// the blocks' parameters of the packed tf and position columns, as
	// measured (packedColumnSize), for the unit's encoding
	tfPar, valPar []blockParams
}

// rawUnitSize and friends are the exact unit frame sizes (CRC form):
//
//	raw  = 1 + vlen(docs) + tfRaw    + vlen(U) + U + 4
//	pfor = 1 + vlen(docs) + tfPacked + vlen(P) + P + 4
//	zstd = 1 + vlen(docs) + tfPacked + vlen(U) + vlen(C) + C + 4
func (u *unitPlan) rawSize() int {
	return 1 + bitpack.UvarintLen32(uint32(u.hi-u.lo)) + u.tfRaw + bitpack.UvarintLen32(uint32(u.rawLen)) + u.rawLen + CRCSize
}

func (u *unitPlan) pforSize() int {
	return 1 + bitpack.UvarintLen32(uint32(u.hi-u.lo)) + u.tfPacked + bitpack.UvarintLen32(uint32(u.pforLen)) + u.pforLen + CRCSize
}

func (u *unitPlan) zstdSize(c int) int {
	return 1 + bitpack.UvarintLen32(uint32(u.hi-u.lo)) + u.tfPacked + bitpack.UvarintLen32(uint32(u.rawLen)) + bitpack.UvarintLen32(uint32(c)) + c + CRCSize
}

// appendUnitHead appends the codec byte, the doc count and the tf column of a unit.
func appendUnitHead(dst []byte, c Codec, u *unitPlan) []byte {
	dst = append(dst, byte(c))
	dst = bitpack.AppendUvarint(dst, uint32(u.hi-u.lo))
	if c == CodecRaw {
		for _, t := range u.tfs {
			dst = bitpack.AppendUvarint(dst, t)
		}
		return dst
	}
	return appendPackedColumn(dst, u.tfs, u.tfPar)
}

// growBytes returns b with room for n more bytes.
func growBytes(b []byte, n int) []byte { return slices.Grow(b, n) }
