// Command phrasebench measures snii's reader on the agent-log corpus: phrase
// count latency of a segment built with the budget against the same documents
// built with policy 0 (smallest frames), in paired ABBA cycles; term and count
// latency; allocations per query; open time against index size. Every phrase
// query is checked against the brute-force oracle on both segments first.
//
//	go run ./internal/tools/phrasebench -out docs/bench
//
// It writes <out>/reader-phrase-agent.csv (raw samples), reader-phrase-agent.json
// (summary) and reader-phrase-agent.txt (the tables it prints).
package main
