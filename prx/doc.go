// Package prx encodes and decodes one .prx window: the positions of one term in one
// window of documents (the same documents, in the same order, as the term's doc
// postings window). It builds the exact RAW, PFOR and ZSTD frames of a window, chooses
// one with the index's budget (package budget), and decodes frames fully or
// selectively (only the documents a query still needs).
//
// All varints are unsigned LEB128 ("uvarint"), canonical (shortest form) and at
// most 5 bytes (values fit in uint32); fixed-size integers are little-endian; the
// checksum is CRC32C (Castagnoli). docs/FORMAT.md ("## .prx windows") is the
// normative description; this is a summary.
//
// # Plain payload
//
// The plain payload is the canonical, uncompressed form of a window:
//
//	+------------------+----------------------------------------------------------+
//	| uvarint doc_count| doc_count times:                                         |
//	|                  |   uvarint pos_count | pos_count uvarints:                |
//	|                  |     first position (absolute), then deltas (may be 0)    |
//	+------------------+----------------------------------------------------------+
//
// Positions are uint32 and non-decreasing within a document; a document may have no
// positions. Example: docs {3, 3, 7} and {} and {300}:
//
//	03 | 03 03 00 04 | 00 | 01 ac 02
//
// # Frame
//
//	+---------+-------------+------------------------+---------+--------------------+
//	| u8 codec| uvarint len | uvarint comp_len       | payload | u32 crc32c         |
//	|         |             | (ZSTD only)            |         | (codec..payload)   |
//	+---------+-------------+------------------------+---------+--------------------+
//
//	codec 0 RAW : len = payload length; payload = the plain payload
//	codec 1 ZSTD: len = plain length; payload = comp_len bytes, one zstd frame of the
//	              plain payload (no zstd checksum) that must inflate to exactly len bytes
//	codec 2 PFOR: len = payload length; payload below
//
// The inline form, used for a frame stored inside a dictionary entry, is the same
// without the trailing CRC (the dictionary block's CRC covers it). Exact frame sizes,
// with U the plain length, P the PFOR payload length and C the zstd length:
//
//	raw  = 1 + vlen(U) + U + 4
//	pfor = 1 + vlen(P) + P + 4
//	zstd = 1 + vlen(U) + vlen(C) + C + 4
//
// # PFOR payload
//
//	+-------------------+-------------------------+----------------+----------------+
//	| uvarint doc_count | uvarint total_positions | offsets column | running column |
//	+-------------------+-------------------------+----------------+----------------+
//
// The offsets column holds the doc_count cumulative position counts (Offsets[1..n]
// of the CSR window, so intcomp's delta coding stores the per-document counts); the
// running column holds total_positions running positions: each document's positions
// offset by the running position of the last position before it (0 for the first),
// so the stream never decreases. A window whose running positions overflow uint32
// has no PFOR frame. A column of v values is what intcomp.CompressUint32 (ronanh/intcomp
// v1.1.1) returns for them minus its final word, as little-endian words:
//
//	v >= 128: bit-packed group | u32 count (v - v%128) | u32 words (incl. these 3) | u32 first value |
//	          per 128 values: u32 bit widths (4 × {1 bit zigzag, 7 bits width}) | packed deltas
//	v%128 > 0: variable-byte block | u32 count (v%128) | u32 words (incl. these 2) |
//	          delta bytes (base 128, low group first), 4 per word most significant first,
//	          the last word padded with 0x80
//
// No length prefix is needed: the counts and the block headers delimit the columns,
// and the decoder checks every header before intcomp sees the words.
//
// # Choice
//
// Encoder.Encode: a singleton window (one document, one position) is RAW; a plain
// payload under 512 bytes takes the smaller of PFOR and RAW (PFOR on a tie); any other
// window is eligible: its RAW, PFOR and zstd frames are built and the index's
// budget.Chooser decides between zstd and fast = min(PFOR, RAW).
//
// # Decoding
//
// A Source checks the header against its Limits before allocating, the CRC before
// decoding, and every count against the bytes left; it decodes fully (Decode) or only
// selected documents (DecodeSelected), reusing its buffers and one zstd decoder.
package prx
