package reader

// HighlightsLayout is Segment.highlights for a record laid out as JSON (json),
// as text of textField (text), or either (both).
func HighlightsLayout(s *Segment, q Query, rec []byte, json, text bool, textField string) ([]Span, error) {
	return s.highlights(q, rec, recordLayout{json: json, text: text, textField: textField})
}
