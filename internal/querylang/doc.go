// Package querylang parses the query language of package query into a tree
// of nodes (Parse): words and phrases (*Text), patterns (*Pattern,
// *PatternPhrase) and the boolean operators (*And, *Or, *Not). Package query
// compiles the tree against a segment's analyzers; the CLI renders it back
// (Node.String). The language itself is described in package query.
package querylang
