package mcptool

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
)

// Properties are the properties of a schema in declaration order. They
// are written as a JSON object whose keys keep that order, so a tool list
// reads like the descriptor and its output is the same on every run; a Go
// map would sort the keys.
type Properties []Property

// MarshalJSON writes the properties as one JSON object keyed by name.
// Nil properties are written as {}. The empty schema, which a
// jsonschema.Schema writes as true, is written as {} where it is an
// array's items: JSON Schema reads both as any value, but models' function
// calling takes only an object for a schema.
func (ps Properties) MarshalJSON() ([]byte, error) {
	buf := []byte{'{'}
	for i, p := range ps {
		if i > 0 {
			buf = append(buf, ',')
		}
		var err error
		if buf, err = appendJSON(buf, p.Name); err != nil {
			return nil, err
		}
		buf = append(buf, ':')
		start := len(buf)
		if buf, err = appendJSON(buf, p.Schema); err != nil {
			return nil, err
		}
		// A quote inside a JSON string is escaped, so this text can only
		// be a key and its value.
		buf = append(buf[:start], bytes.ReplaceAll(buf[start:], []byte(`"items":true`), []byte(`"items":{}`))...)
	}
	return append(buf, '}'), nil
}

// UnmarshalJSON reads a JSON object of property schemas, keeping the
// order of its keys.
func (ps *Properties) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok == nil {
		*ps = nil
		return nil
	}
	if tok != json.Delim('{') {
		return fmt.Errorf("properties: want a JSON object, got %v", tok)
	}
	list := Properties{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		p := Property{Name: tok.(string), Schema: &jsonschema.Schema{}} // an object key is always a string
		if err := dec.Decode(p.Schema); err != nil {
			return fmt.Errorf("property %q: %w", p.Name, err)
		}
		list = append(list, p)
	}
	*ps = list
	return nil
}

// appendJSON appends the JSON of v without HTML escaping, which would turn
// < and > into \u003c and \u003e for no reader's benefit. (A
// jsonschema.Schema escapes its own strings; the names here are not.)
func appendJSON(buf []byte, v any) ([]byte, error) {
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return append(buf, bytes.TrimSuffix(out.Bytes(), []byte("\n"))...), nil
}
