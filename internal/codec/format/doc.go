// Package format holds the codecs of what a whole snii segment shares: the file
// layout (header, directory, tail), the per-field metadata group, term
// dictionary blocks, doc-postings windows and their preludes, the norms, the
// pair section and the store of records. It does no I/O: the writer and the
// reader own files, zstd encoders and decoders, and pass them in. The analyzers
// that turn text into terms are in package analysis.
//
// All integers are little-endian, varints are unsigned LEB128, every checksum
// is CRC32C (Castagnoli). The normative description is docs/FORMAT.md.
//
// # File
//
//	+------------------------------+ 0
//	| header (16)                  |  "SNII" | u16 version | u16 min reader | u32 flags | u32 crc
//	+------------------------------+
//	| field 0: posting region      |  per term in byte order: prx frames, doc-postings span
//	| field 0: dict region         |  dict blocks back to back
//	| field 0: norms               |  docCount bytes, one norm code each (when stored)
//	| field 0: pair section        |  docs-only lists of adjacent term pairs (PairTable; may be empty)
//	| field 0: metadata group      |  IndexMeta (CRC in the directory)
//	| field 1: ...                 |  fields sorted by name
//	+------------------------------+
//	| store blocks                 |  records in zstd (or plain) blocks (format 8, optional)
//	| store header                 |  StoreMeta: record format, counts, block index
//	+------------------------------+
//	| directory                    |  version | doc count | n × {name, metaOff, metaLen, metaCRC} |
//	|                              |  storeOff | storeLen | storeCRC (format 8)
//	+------------------------------+
//	| tail (32)                    |  u64 dirOff | u64 dirLen | u32 dirCRC | u16 version |
//	+------------------------------+  u16 min reader | "SNIT" | u32 crc
//
// # Store (format 8)
//
//	block:  plain, or one zstd frame of plain (flags 1)
//	plain:  n × uvarint recordLen | n records
//	header: u8 format | uvarint len(textField) | textField | uvarint records | uvarint rawBytes |
//	        uvarint blocksOff | uvarint nBlocks |
//	        nBlocks × {uvarint docs | uvarint storedLen | uvarint plainLen | u8 flags | u32 crc32c}
//
// Records are kept byte for byte in doc id order; a block ends before the
// record that would take it past StoreBlockTarget (16 KiB), and is stored
// as zstd when that is strictly smaller. The header's CRC is in the
// directory, each block's in the header.
//
// # Pair section
//
//	entries: n × {uvarint len(a) | a | uvarint len(b) | b | uvarint df | uvarint co |
//	              uvarint docLen | doc window (base 0, no CRC) | u32 crc32c(entry)}
//	table:   n × u32 entry offset (from the section start) | u32 crc32c(table)
//
// Entries ascend by (a, b); n is the metadata's PairCount. co 0: the window
// lists the pair's df docs; co >= df (format 5): co docs hold both terms and
// the window lists the co - df of them without the pair (none: docLen 0).
//
// # Doc window
//
//	u8 enc | body | [u32 crc32c(enc..body), not in the inline form]
//	gaps:   g0 = doc0-base, gi = doc_i-doc_{i-1}-1 (base = previous window's lastDoc+1, or 0)
//	enc 0:  n uvarint gaps
//	enc 1:  uvarint m | m × u32 words = intcomp.CompressUint32(doc_i - base)
//
// The smaller encoding wins, uvarint on ties; windows under 128 docs are
// always uvarint (intcomp cannot be smaller there).
//
// Format 4: every window of more than 128 docs of a windowed term is blocked
// (enc 2, AppendBlocked / ParseBlocked), and no other window:
//
//	enc 2 | directory | nb packed blocks          nb = ceil(n/128), n from the prelude
//	directory, block b = 0..nb-1:
//	    b < nb-1: uvarint lastDoc_b - base_b - 127   (base_0 = window base, base_b = lastDoc_{b-1}+1)
//	    u8 m-1 | m × {uvarint tf_j - tf_{j-1} - 1 | u8 norm_j}   (impacts, m <= 4)
//	block b: the packed block (prx's code: a token of width and exception count, bit fields, exceptions)
//	    of its gaps g0 = doc0 - base_b, gi = doc_i - doc_{i-1} - 1
//
// A block is found from the directory (its last doc) and entered alone: its
// offset is the end of the directory plus the sizes of the blocks before it,
// each known from its token and exceptions. A reader locates the blocks as it
// reaches them (a window read for a few documents skips over the blocks
// before theirs and never walks the ones after), and reads the impacts only
// when it scores; Verify walks and checks everything.
//
// # Prelude (windowed terms)
//
//	uvarint nWindows | uvarint entriesLen |
//	ceil(nWindows/64) × {u32 lastDoc | u32 entryOff | u64 docOff | u64 prxOff} |
//	nWindows × {uvarint Δlast | uvarint docs | uvarint docLen | uvarint prxLen |
//	            uvarint maxTF-1 | u8 minNorm} | u32 crc
//
// # Dict block
//
//	uvarint nEntries | uvarint nAnchors | nAnchors × u32 anchorOff | entries
//	entry: uvarint shared | uvarint suffixLen | suffix | uvarint df | uvarint ttf | u8 class |
//	       inline: uvarint docLen | docs | uvarint frameLen | frame
//	       slim, windowed: uvarint offset | uvarint prxLen | uvarint docLen
//
// Every AnchorEvery-th entry is an anchor (shared = 0). The stored block is the
// zstd compression of the plain block when strictly smaller.
//
// # Concurrency
//
// Every value of this package is either immutable after construction (Block,
// Prelude, Directory, IndexMeta) or documented as single-goroutine
// (BlockBuilder, DocWindowEncoder).
//
// # Errors
//
// Every decoder checks bounds before reading and before allocating, never
// panics, and returns errors wrapping snii.ErrCorrupt (or snii.ErrVersion).
// A decoder of one section does not name it (the reader places its errors in
// a *snii.SegmentError naming the section, the index and the term, and a
// message names each place once); one that reads several names the part.
package format
