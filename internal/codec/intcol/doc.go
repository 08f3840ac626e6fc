// Package intcol checks and unpacks one column of integers in the form
// intcomp.CompressUint32 (github.com/ronanh/intcomp v1.1.1) writes it, for the two
// formats that store such columns: PFOR .prx payloads (package internal/codec/prx) and intcomp
// doc windows (package internal/codec/format).
//
// intcomp's decoders are written for trusted input: they index and reslice by the
// headers they read, and a zero block length makes one loop forever. Check
// validates every header, bit width and length first, so Unpack only ever hands
// well-formed blocks to intcomp. A column of n values is
//
//	[bit-packed group: n - n%128 values]  u32 count | u32 wordLen | u32 first |
//	                                      count/128 × (u32 four 7-bit widths, packed words)
//	[variable-byte block: n%128 values]   u32 count | u32 wordLen | bytes, most
//	                                      significant first in each word, 0x80-padded
//
// (CompressUint32 then appends the last block's wordLen as a trailer; callers that
// keep it check it with the last-block index Check returns.)
package intcol
