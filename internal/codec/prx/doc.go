// Package prx encodes and decodes one .prx window (format version 2): the positions
// of one term in one window of documents (the same documents, in the same order, as
// the term's doc postings window). It cuts a window into units, builds the exact RAW,
// PFOR and ZSTD frames of each unit, chooses one per unit with the field's budget
// (package budget), and decodes windows fully or selectively (only the units, and in
// them only the 128-value blocks, that hold the documents a query still needs).
//
// docs/FORMAT.md ("## .prx windows") is the normative description, with annotated
// examples of the golden frames in testdata/prx; this is a summary. All varints are
// unsigned LEB128 ("uvarint"), canonical (shortest form) and at most 5 bytes (values
// fit in uint32); fixed-size integers are little-endian; checksums are CRC32C
// (Castagnoli); zigzag(d) = (d << 1) ^ (d >> 63).
//
// # Windows and units
//
// A window has at least one document; every document has at least one position,
// non-decreasing, at most MaxPosition (2^31 - 1). Its documents are cut into units
// greedily: a unit takes the next document while its positions stay within
// UnitValues (512; 1024 in segment formats 5 and 6, which read the same), or
// while it is empty (UnitBounds). Each unit has its own codec
// and CRC.
//
// The positions of a unit form one value stream cut into blocks of bitpack.BlockLen (128)
// values: per document its first value, then the deltas to the previous position.
// The first value is the absolute first position for the unit's first document and
// for a document whose values start in another block than the previous document's;
// otherwise it is zigzag(first - the first position of the first document starting
// in the same block). So any block decodes on its own, any document's first
// position is two value reads away, and a document's block is found from the prefix sums of the tf column
// (the unit's documents' tf-1).
//
// # Packed block
//
//	short token:
//	+--------------------------------+----------------------+--------------------------+
//	| u8 token: width w (bits 0..5), | ceil(c*w/8) bytes:   | nx × (u8 index,          |
//	| exceptions nx (bits 6..7, <=3) | low w bits of each   | uvarint value >> w)      |
//	|                                | value, LSB first     |                          |
//	+--------------------------------+----------------------+--------------------------+
//	long token (segment format 7):
//	+--------------------------------+------------------+--------------+---------------+
//	| u8 token: 33 + w (bits 0..5,   | u8 nx (0..32,    | the fields   | the nx        |
//	| w <= 30), bits 6..7 zero       | MaxExceptions)   | as above     | exceptions    |
//	+--------------------------------+------------------+--------------+---------------+
//
// c is 128 or, for the last block of a column, the values left. The encoder picks,
// over every width 0..32 leaving at most 3 exceptions (short token) and every width
// 0..30 leaving 4 to 32 (long token, a byte more), the smallest block; on a tie the
// fewer exceptions, then the smaller width. Readers accept any valid block.
//
// # Unit frame
//
//	+---------+--------------+-----------+-------------+---------------------+---------+------------+
//	| u8 codec| uvarint docs | tf column | uvarint len | uvarint comp_len    | payload | u32 crc32c |
//	|         |              |           |             | (ZSTD only)         |         | (absent    |
//	|         |              |           |             |                     |         |  inline)   |
//	+---------+--------------+-----------+-------------+---------------------+---------+------------+
//
//	codec 0 RAW : tf column as uvarints; len = U; payload = the RAW positions payload:
//	              the byte lengths of every block but the last (uvarints), then all
//	              values as uvarints
//	codec 1 ZSTD: tf column packed; len = U; payload = comp_len bytes, one zstd frame
//	              (no checksum, content size declared) of the RAW positions payload,
//	              naming no dictionary or one of the shared literal tables 1..24
//	codec 2 PFOR: tf column packed; len = P; payload = the packed blocks of the stream
//
// U, the RAW positions payload length, is the unit's plain length. Exact sizes:
//
//	raw  = 1 + vlen(docs) + tfRaw    + vlen(U) + U + 4
//	pfor = 1 + vlen(docs) + tfPacked + vlen(P) + P + 4
//	zstd = 1 + vlen(docs) + tfPacked + vlen(U) + vlen(C) + C + 4
//
// # Multi-unit window
//
//	+------+---------------+----------------------------------------+------------+-------------+
//	| u8 3 | uvarint units | per unit: uvarint docs, uvarint length | u32 crc32c | unit frames |
//	|      | (>= 2)        |                                        | (header)   | (CRC form)  |
//	+------+---------------+----------------------------------------+------------+-------------+
//
// A window of one unit is its unit frame; it alone has an inline form (without the
// CRC, inside a dictionary entry whose block CRC covers it).
//
// # Choice
//
// Encoder.Encode chooses per unit: a singleton unit (one document, one position) is
// RAW; a unit whose plain length is under ZstdMinPlain (512) takes the smaller of
// PFOR and RAW (PFOR on a tie); any other unit is eligible: its frames are measured
// and the field's chooser.Chooser decides between zstd and fast = min(PFOR, RAW).
//
// # Shared literal tables
//
// Since segment format 6 a ZSTD frame may code its literals with one of 24
// fixed Huffman tables (internal/codec/zstdopt.Tables, zstd dictionaries 1..24)
// instead of a table of its own: the encoder passes every zstd frame through a
// zstdopt.Sharer, which codes its literals in four Huffman streams from 256
// bytes and with a shared table when that frame is at most 32 bytes longer
// than EncodeAll's (both constants buy decode time), and a
// Source inflates such a frame through zstdopt.Unshare (its literals decoded
// with the table, stored raw) without reading a table. The frame's size (and
// so the budget's choice) is the size of the frame stored.
//
// # Decoding
//
// A Source checks every header against its Limits before allocating (a ZSTD unit's
// declared length also against what its positions and its zstd blocks can hold), every
// CRC before decoding, and every count against the bytes left. Decode reads the whole
// window; DecodeSelected reads only the units holding a selected document and, in
// them, decodes only the blocks holding its values (a RAW block is reached through
// the block directory, a PFOR block by summing the sizes of the blocks before it; a
// ZSTD unit is inflated whole). Units reports the units read and Stats counts them.
// A Cursor walks a window document by document and inflates a ZSTD unit only
// when a position of it is read (Stats.Inflated), so a reader that needs only
// term frequencies parses a ZSTD unit's tf column without inflating it.
//
// On amd64 with AVX2 (detected at start through golang.org/x/sys/cpu) three kernels in
// assembly take the inner loops; elsewhere the same functions run in Go, and the
// tests compare the two on every width and length (TestUnpackVec, TestRunningSums,
// TestDecodeShort and their fuzz targets):
//
//   - the packed fields of up to 24 bits, eight at a time: the w bytes of a group go
//     to two 128-bit lanes, a byte shuffle puts each field's four bytes in its 32-bit
//     element, a shift per element and a mask cut it out (internal/codec/bitpack);
//   - bitpack.RunningSums, the prefix sums of gaps plus one (a unit's position offsets from
//     its tf column, a doc id block from its gaps), eight at a time in registers,
//     with the exact 64-bit total returned for the range checks (internal/codec/bitpack);
//   - the one- and two-byte uvarints of RAW and inflated ZSTD blocks, eight bytes a
//     step through a table indexed by their high bits (varintvec.go); a longer or a
//     non-canonical value goes to the scalar decoder, as it always did.
//
// With the vector unpacker a Cursor unpacks a PFOR block at its first read
// (unpackAfter 1); with the generated one it extracts single values from the packed
// bits until eight have been read.
//
// prx no longer uses intcomp (format 1's PFOR columns): its per-column headers of 8
// to 12 bytes and more outweigh the packed bits of short columns, and its deltas run
// across a whole column, so a 128-value block cannot be decoded alone; a packed block
// with a width token is addressable by arithmetic over the tokens before it.
package prx
