// Package testkit holds the helpers that the tests and benchmarks of several
// snii packages share: finding the shared corpora, reading their files line by
// line, the agent-log JSONL records, a generated Zipf log corpus, reading
// files and directories that must exist (ReadFile, ListDir) and the process
// CPU time (CPUTime: getrusage on unix, 0 elsewhere). It is internal, for
// this module's tests only, and is not part of the API.
//
// testkit imports only the standard library, golang.org/x/sys and its
// oracle (which imports nothing of snii), never writer, reader or
// writer/merge: their internal test files (package writer, …) may import it
// without an import cycle. Generated documents are the oracle's (oracle.Doc,
// the one document type of the test kits); segtest.Document turns one into a
// writer.Document.
//
// The shared corpora live next to the repository, not in it:
//
//	<module root>/go.mod
//	<module root>/../shared/corpora/
//	    agent-trajectories/mini-swe-agent-gemini-3-pro.part1.jsonl  AgentLogs: one JSON object a line, text in "content"
//	    loghub/2k/*_2k.log                                        Loghub2kFiles: 16 samples of 2,000 lines
//	    loghub/full/, elastic-examples/                           ServiceLogs: plain log lines (LICENSE*, README* left out)
//
// Tests that need a corpus call CorporaDir, CorpusPath, CorpusFiles or
// Loghub2kFiles, which skip the test with a message naming what is missing
// when the corpora are not checked out; FindCorpora reports the same as an
// error for code that falls back to generated data instead.
package testkit
