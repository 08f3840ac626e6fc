// Package capture reads and writes capture files: the .prx units of one or more
// fields (a unit is the part of a .prx window that gets its own codec; a
// window of up to 512 positions is one unit), as plain payloads in the order the
// writer emitted them, so that codec policies can be replayed on them (`snii
// replay`; its engine is internal, and the package example shows a replay
// with prx.DecodePlain and a prx.Encoder). Records and counts below say
// "window" for a unit.
//
// A capture is written while building a segment (`snii build --capture`) or read
// back from a segment (`snii capture`). By default it keeps the eligible units
// only (those that get a zstd frame: a RAW positions payload of 512 bytes or more,
// not a singleton; see prx.Eligible); a capture made with All also keeps the
// fast-path units.
//
// Integers are little-endian, varints are unsigned LEB128, zigzag varints are Go's
// binary.PutVarint, CRCs are CRC32C (Castagnoli).
//
//	+---------------------------+ 0
//	| header (16 bytes)         |  "SNCP" | u16 version (1) | u16 min reader version (1)
//	|                           |  | u32 flags (bit0: all windows) | u32 crc32c(bytes 0..11)
//	+---------------------------+ 16
//	| record 0                  |  u32 bodyLen | body (bodyLen bytes) | u32 crc32c(body)
//	| record 1                  |
//	| ...                       |
//	| end record                |  the last record; nothing may follow it
//	+---------------------------+ EOF
//
// A body starts with its kind byte:
//
//	1 index    uvarint nameLen | name | u8 known (bit0: settings below are meaningful)
//	           | varint minSavingPercent | uvarint budgetPercent | varint zstdLevel
//	           | uvarint maxDocs | uvarint maxPositions | uvarint maxBytes
//	2 window   uvarint index | u8 flags (bit0: eligible) | uvarint docCount | plain payload
//	3 outcome  uvarint index | 3 × uvarint windows per codec | 3 × uvarint bytes per codec
//	           | uvarint eligible | sumSmallest | traded | tradedCount | finalShare | allowance
//	4 end      uvarint records before this one | uvarint windows
//
// Index records declare the fields in order; their ordinal (0, 1, ...) is
// what window and outcome records refer to, and a field must be declared before
// it is referred to. The plain payload of a window is the rest of its body; it
// starts with the same doc count (uvarint), which the reader checks. Codecs are
// numbered as in a .prx frame: 0 RAW, 1 ZSTD, 2 PFOR. An outcome record, when
// present, holds what the encoder of that field recorded for the whole field
// (every window, not only the captured ones), so a replay can check itself
// against it.
//
// Reading is bounded: a body length above ReaderOptions.MaxRecord is rejected
// before anything is allocated, the buffer grows only as bytes actually arrive,
// and every error names the record number and its byte offset and wraps
// snii.ErrCorrupt (snii.ErrVersion for a newer format). A file without its end record
// is reported as truncated.
package capture
