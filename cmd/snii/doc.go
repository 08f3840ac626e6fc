// Command snii builds, inspects, queries, merges and verifies snii segments.
//
//	snii build   -o OUT.snii [--format lines|jsonl] [--field PATH]... INPUT...
//	snii inspect SEGMENT [--top N] [--field F]... [--json]
//	snii query   SEGMENT [--field F] [--count] [--limit N] [--max-expansions N] [--profile] [--json] QUERY...
//	snii grep    SEGMENT [-i] [-v] [-c] [-o] [-C N] [--color WHEN] [--profile] REGEX
//	snii merge   -o OUT.snii SEGMENT SEGMENT... [--deleted SEGMENT=IDS.txt]...
//	snii verify  SEGMENT...
//	snii capture SEGMENT -o WINDOWS.cap
//	snii replay  WINDOWS.cap
//	snii completion bash|zsh|fish|powershell
//
// A SEGMENT of query, inspect and verify may be s3://bucket/key (query: also a
// prefix s3://bucket/dir/ or a glob s3://bucket/dir/*.snii, and locally a
// quoted glob 'logs/*.snii' or a directory, searched as one index with global
// doc ids and ranked by --top with the statistics of all the segments), and
// build -o may be s3://bucket/key (built in a temp directory, then uploaded).
// --endpoint and --region set the store; the credentials come from
// AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN. A remote
// request that makes no progress for 10 s is retried; query --timeout
// (default 5m, 0: none) bounds the whole query. snii clean s3://bucket/prefix
// aborts the incomplete multipart uploads (older than --older-than, default
// 24h) that killed builds left.
//
// build and merge take the codec-policy flags --prx-zstd-min-saving (-1 the
// per-field budget, the default; 0 always the smallest frame; 1..100 a fixed
// share), --budget-percent (default 8), --zstd-level (0..4), --memory and
// --temp-dir.
//
// # Inputs
//
// A "lines" input makes one document of every line, with one field, "text". A
// "jsonl" input makes one document of every JSON object; each --field is a dotted
// JSON path that becomes a field of that name: strings as they are, numbers
// as written, booleans as true/false, arrays as several values, null, objects and
// missing paths as no value. The format comes from the extension (.jsonl, .ndjson,
// .json: jsonl) unless --format says. Gzip input is detected by its magic bytes.
// "-" reads stdin. An invalid line fails the build with "FILE:LINE: reason" unless
// --skip-bad-lines, which skips it and counts it in the summary.
//
// # Query language
//
//	error                 a term
//	"connection refused"  a phrase (exact, ordered, adjacent)
//	"conn refused"~2      a sloppy phrase (at most 2 position moves)
//	"timed out after*"    a phrase prefix (the last word is a prefix)
//	conn*                 a prefix
//	conection~1           a fuzzy term: the terms within 1 edit (~ alone: 2)
//	*Exception, f?o       a wildcard over whole terms ('*' any run, '?' one character)
//	/conn(ection)?/       a term matching a regular expression (RE2)
//	"/conn.*/ refused"    a phrase with patterns at any position
//	host:web-01           a word (or phrase) of another field
//	host:(a OR b*)        the words and phrases inside of that field
//	a b, a AND b          both; AND binds tighter than OR
//	a OR b                either
//	a -b, a NOT b         a but not b
//	( ... )               grouping
//	\x                    the character x literally
//
// Text goes through the field's analyzer; text that analyzes to several terms is
// a phrase of them. Syntax errors name the column: "at column 7: expected closing
// quote for the phrase opened at column 3". See package query (the module's
// public query language).
//
// # Output
//
// Results go to stdout, progress and errors to stderr. Errors read
// "snii: <message>" and name the file, line, index, term or window involved. A
// progress bar is drawn only when stderr is a terminal and --quiet is not given.
// With --json, build, inspect, query and merge print one JSON document whose field
// names are stable (fields may be added, never renamed or removed); the shapes are
// the structs buildReport, inspectReport (with fieldReport), queryReport (with
// profileReport) and mergeReport in this package.
//
// # Exit codes
//
//	0  success (a query without matches included)
//	1  failure: I/O error, missing or unreadable input, invalid input line, corrupt
//	   segment, failed verification
//	2  usage: unknown command or flag, missing argument, bad flag value, query
//	   syntax error, unknown field, a merge the sources cannot give
//	128+N  stopped by signal N (130 SIGINT, 129 SIGHUP, 143 SIGTERM)
package main
