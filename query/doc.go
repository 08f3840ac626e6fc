// Package querylang parses the query language of the snii command line.
//
// Grammar (AND binds tighter than OR; AND may be written or left implicit):
//
//	query   = or EOF
//	or      = and { "OR" and }
//	and     = unary { [ "AND" ] unary }
//	unary   = "(" or ")" | phrase | word
//	phrase  = '"' { char | '\' any } [ "*" ] '"'   a phrase; a '*' right before the closing quote makes it a phrase prefix
//	word    = { char | '\' any } [ "*" ]           a term; a trailing '*' makes it a prefix
//
// A word ends at white space, a quote or a parenthesis. OR, AND and NOT are
// operators only when written in capitals and standing alone; lower-case "or"
// is an ordinary term, and a quoted "OR" searches for the word. NOT is reserved
// (the engine has no negation) and reported as an error. A backslash escapes the
// next character, inside or outside quotes, so `\*` and `\"` are literal.
//
// The parser does not analyze text: a Text node keeps the raw text, and the
// caller runs the field's analyzer over it. A Text whose analysis yields several
// tokens is a phrase of them (bare or quoted alike); with Prefix set, the last
// token is a prefix (a prefix query for a single token, a phrase prefix otherwise).
//
// Errors are *SyntaxError values carrying a 1-based column counted in characters
// (runes), e.g. `at column 7: expected closing quote for the phrase opened at column 3`.
package query
