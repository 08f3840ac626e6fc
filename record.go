package snii

import "strconv"

// RecordFormat says how a segment's stored records hold their documents'
// field values (writer.Options.RecordFormat when writing, reader.StoreInfo
// when reading).
type RecordFormat uint8

// Record formats.
const (
	// RecordText: the record is the one value of the store's text field
	// (line input; writer.Options.TextField, reader.StoreInfo.TextField).
	RecordText RecordFormat = 1
	// RecordJSON: the record is a JSON object; field F's values are at dotted
	// path F (the CLI's jsonl extraction rules; library documents stored as
	// JSON too).
	RecordJSON RecordFormat = 2
	// RecordMixed: a record that is a JSON object is RecordJSON, any other is
	// RecordText.
	RecordMixed RecordFormat = 3
)

// String returns "text", "json" or "mixed" (or "format(N)").
func (f RecordFormat) String() string {
	switch f {
	case RecordText:
		return "text"
	case RecordJSON:
		return "json"
	case RecordMixed:
		return "mixed"
	}
	return "format(" + strconv.Itoa(int(f)) + ")"
}
