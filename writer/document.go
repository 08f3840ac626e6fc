package writer

// Field is one field of a document. A field may hold several values; they
// are analyzed in order, and each value after the first starts
// analysis.ValueGap (100) positions after the end of the previous one, so a
// phrase never matches across two values.
type Field struct {
	Name   string
	Values []string
}

// Document is what Writer.Add indexes. A document may leave out any field;
// a field name that appears twice is the same as one field holding the
// values of both, in order.
type Document struct {
	Fields []Field
	// Record is the bytes the segment stores for the document, returned
	// byte for byte by reader.Segment.Record. nil stores its fields as a
	// JSON object, {"name":"value"} or {"name":["v1","v2"]}, names in
	// first-seen order; an empty non-nil Record stores an empty record.
	// Ignored with Options.NoStore.
	Record []byte
}

// Doc builds a Document from name/value pairs, one value each:
//
//	writer.Doc("text", "connection reset by peer", "host", "db-1")
//
// A name given twice adds a second value to that field (see Field). With an
// odd number of arguments the last name gets an empty value.
func Doc(kv ...string) Document {
	var d Document
	for i := 0; i < len(kv); i += 2 {
		v := ""
		if i+1 < len(kv) {
			v = kv[i+1]
		}
		d.Fields = append(d.Fields, Field{Name: kv[i], Values: []string{v}})
	}
	return d
}
