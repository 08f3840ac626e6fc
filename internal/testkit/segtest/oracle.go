package segtest

import (
	"testing"

	"github.com/snii-go/snii/internal/testkit/oracle"
	"github.com/snii-go/snii/reader"
	"github.com/snii-go/snii/writer"
)

// Query converts an oracle query into a reader query.
func Query(q oracle.Query) reader.Query {
	switch q := q.(type) {
	case oracle.Term:
		return reader.Term(q.Field, q.Term)
	case oracle.Phrase:
		return reader.Phrase(q.Field, q.Terms...)
	case oracle.SloppyPhrase:
		return reader.SloppyPhrase(q.Field, q.Slop, q.Terms...)
	case oracle.AndNot:
		return reader.AndNot(Query(q.Include), Query(q.Exclude))
	case oracle.PhrasePrefix:
		return reader.PhrasePrefix(q.Field, q.MaxExpansions, q.Terms...)
	case oracle.Prefix:
		return reader.Prefix(q.Field, q.Prefix, q.MaxExpansions)
	case oracle.Fuzzy:
		return reader.Fuzzy(q.Field, q.Term, q.MaxEdits, q.MaxExpansions)
	case oracle.Regexp:
		return reader.Regexp(q.Field, q.Expr, q.MaxExpansions)
	case oracle.Wildcard:
		return reader.Wildcard(q.Field, q.Pattern, q.MaxExpansions)
	case oracle.PatternPhrase:
		slots := make([]reader.Slot, len(q.Slots))
		for i, s := range q.Slots {
			slots[i] = reader.Slot{Kind: reader.SlotTerm, Text: s.Text}
			if s.Regexp {
				slots[i].Kind = reader.SlotRegexp
			} else if s.Wildcard {
				slots[i].Kind = reader.SlotWildcard
			}
		}
		return reader.PatternPhrase(q.Field, slots, q.MaxExpansions)
	case oracle.And:
		qs := make([]reader.Query, len(q))
		for i, c := range q {
			qs[i] = Query(c)
		}
		return reader.And(qs...)
	case oracle.Or:
		qs := make([]reader.Query, len(q))
		for i, c := range q {
			qs[i] = Query(c)
		}
		return reader.Or(qs...)
	}
	panic("unknown oracle query")
}

// Document converts an oracle document into a writer document.
func Document(d oracle.Doc) writer.Document {
	var wd writer.Document
	if len(d) > 0 {
		wd.Fields = make([]writer.Field, len(d))
		for i, f := range d {
			wd.Fields[i] = writer.Field(f)
		}
	}
	return wd
}

// BuildOracle writes the oracle documents into a new segment at path (see Build).
func BuildOracle(tb testing.TB, path string, o writer.Options, docs []oracle.Doc) writer.Stats {
	tb.Helper()
	wds := make([]writer.Document, len(docs))
	for i, d := range docs {
		wds[i] = Document(d)
	}
	return Build(tb, path, o, wds)
}
