// Package rawjson works on JSON as bytes, where reflection would cost too
// much or hide too much: it appends the JSON of replies to a buffer
// (AppendString, AppendValue), walks JSON text without unmarshalling it
// (ForEachMember, ForEachElement, Unquote, Duplicate), and appends to and
// reads the JSON Lines files that several processes share (LinesFile,
// ReadLines).
//
//	buf = append(buf, `{"message":`...)
//	buf = rawjson.AppendString(buf, message)
package rawjson
