// Package query parses snii's query language and compiles it into a
// reader.Query. The snii command line uses it; a program embedding snii can
// hand its users the same syntax:
//
//	q, err := query.Compile(`"connection reset"~2 host:web-01 -debug`, seg, query.Options{DefaultField: "text"})
//	...
//	docs, err := seg.Docs(ctx, q, nil)
//
// # Syntax
//
//	error                  a term
//	"connection refused"   a phrase: the terms adjacent and in order
//	"connection refused"~2 a sloppy phrase: within 2 position moves (reader.SloppyPhrase)
//	"timed out after*"     a phrase whose last term is a prefix
//	conn*                  a prefix
//	conection~1            a fuzzy term: the terms within 1 edit (reader.Fuzzy); ~ alone is ~2
//	*Exception  foo*bar    a wildcard: '*' any run of characters, '?' one (reader.Wildcard)
//	f?o
//	/conn(ection)?/        a term matching a regular expression (RE2, whole term; reader.Regexp)
//	"/conn.*/ refused"     a phrase with patterns at any position (reader.PatternPhrase)
//	host:web-01            text of another field than the default one
//	host:(a OR "b c")      every text inside that names no field is of that field
//	a b    a AND b         both (AND binds tighter than OR)
//	a OR b                 either
//	a -b   a NOT b         a but not b (also a AND NOT b)
//	(a OR b) c             grouping
//	\* \? \/ \" \( \: \- \~ \\ a literal character
//
// # Grammar
//
//	query   = or EOF
//	or      = and { "OR" and }
//	and     = unary { [ "AND" ] unary }
//	unary   = ( "NOT" | "-" ) unary | [ field ":" ] "(" or ")" | [ field ":" ] ( phrase | word )
//	phrase  = '"' { char | '\' any | regexp } [ "*" ] '"' [ "~" digits ]
//	word    = { char | '\' any | "*" | "?" } [ "~" [ "0" | "1" | "2" ] ] | regexp
//	regexp  = "/" { char | '\' any } "/"
//	field   = ( letter | "_" ) { letter | digit | "_" | "." | "-" }
//
// A word ends at white space, a quote or a parenthesis. OR, AND and NOT are
// operators only when written in capitals and standing alone; lower-case "or"
// is an ordinary term, and a quoted or escaped one (`"OR"`, `\OR`) searches for
// the word. A '-' negates only at the start of a word and must be followed by
// what it negates ("a-b" is one word, "a - b" an error). A "name:" prefix of a
// word (the first unescaped ':' after a valid field name) picks the field of
// that one word or phrase, or, right before '(', of every word and phrase in
// the parentheses that names none ("f:(a OR g:b)" is "f:a OR g:b": the tree
// holds the fields, so it renders that way); other colons are literal
// ("10.0.0.1:8080"), and `\:` keeps a colon literal after a field-like name.
// A word ending in a single '*' (and no other '*' or '?') is a prefix, as is
// the last word of a phrase ending in '*' right before its closing quote;
// "~N" (0 ≤ N ≤ 1048576) goes only right after a phrase's closing quote, once,
// followed by a space, ')' or the end; a phrase prefix takes no slop. After a
// word, "~N" (N = 0, 1 or 2; "~" alone is 2) makes it a fuzzy term,
// as in Lucene: the terms within N edits (insertions, deletions, substitutions
// and transpositions of adjacent characters) of the word's one term, the first
// Options.MaxExpansions of them in byte order, like a prefix. A '~' anywhere
// else is an error ("(a b)~2": a group takes no slop; "a~1~2", "a~0.8", "a~3",
// "f*o~1": a wildcard takes none), never read as something else. A backslash
// escapes the next character, inside or outside quotes.
//
// # Patterns
//
// A bare word holding '?' or a '*' anywhere else is a wildcard:
// '*' is any run of characters (also at the start: "*Exception"), '?' one
// character, `\*`, `\?` and `\` the characters themselves. A word starting
// with '/' whose next unescaped '/' ends the word is a regular expression in
// Go's RE2 syntax (`\/` is a slash; it must parse, or Compile reports its
// column); otherwise the '/' is literal ("/var/log" is a word). Inside quotes,
// a word written /re/ or holding a '*' that is not the phrase's last
// character is a pattern position (and '?' is a wildcard in such a word only:
// "what?" stays a word): the phrase is a pattern phrase, exact (no slop),
// whose trailing '*', if any, makes its last word a wildcard.
//
// Patterns match whole terms and skip the analyzer. When the field's
// analyzer lowercases (it turns "Snii" into "snii"), Compile lowercases the
// pattern's literal characters, so that "*Exception" finds
// "nullpointerexception"; character classes ("[A-Z]") and escapes keep their
// meaning, and an analyzer that keeps case gets the pattern as written. A
// pattern expands to at most Options.MaxExpansions terms, like a prefix.
//
// Negation excludes: every side of an OR, the whole query and what a NOT
// negates must match something by themselves ("a OR -b", "-b" and "-(-b)"
// are errors). In an AND, the negated children are excluded from what the
// others match (reader.AndNot of the And of the others and the Or of the
// negated).
//
// # Compiling
//
// The parser does not analyze text: Compile runs the field's analyzer over
// each text (Analyzer; *reader.Segment is one). A text whose analysis yields
// several tokens is a phrase of them (bare or quoted alike); with a trailing
// '*' the last token is a prefix (a prefix query for a single token, a phrase
// prefix otherwise); with a slop, a sloppy phrase. A text of one token is a
// term whatever its slop. A fuzzy text must analyze to one token: a fuzzy
// query, or a term with 0 edits. Parentheses nest at most 100 deep.
//
// # Errors
//
// Errors are *Error values carrying a 1-based column counted in characters
// (runes): syntax errors (Error.Syntax), e.g. `at column 7: expected closing
// quote for the phrase opened at column 3`, and errors about a text (no
// searchable terms, an unknown field) at the text's column.
package query
