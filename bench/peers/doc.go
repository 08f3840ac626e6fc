// Package peers runs snii side by side with bleve and Lucene on one corpus
// and checks every answer against a brute-force oracle (see bench/README.md).
//
// The documents reach every builder, Go and Java alike, through one
// exchange file written by WriteDocsFile:
//
//	+----------------+-----------------+----------------+-----------------+---
//	| u32 BE len(d0) | d0 (raw bytes)  | u32 BE len(d1) | d1 (raw bytes)  | ...
//	+----------------+-----------------+----------------+-----------------+---
//
// Doc ids are the order in the file, from 0, in every engine.
//
// Lucene runs in a JVM (bench/lucene/LuceneBench.java) driven by a line
// protocol on its stdin/stdout:
//
//	-> warmup <ms>          <- ok <rounds> <checksum>
//	-> run <query> <reps>   <- <count> <wall ns> <thread cpu ns>
//	-> ids <query>          <- <n> <id> <id> ...
//	-> quit
package peers
