// LoadBadInputs returns the catalog of malformed and hostile requests that
// every transport is tested against: broken JSON, wrong types at every
// level, huge strings, deep nesting, null ids, duplicate keys, invalid UTF-8,
// numbers out of range, unknown fields, mixed layouts and hostile values.
//
// Each case names the error_code the engine must answer with. None of them
// may reach the platform: nothing is ever sent for a bad request.

package testkit

import (
	"bufio"
	"bytes"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"fmt"
)

//go:embed catalog.jsonl
var catalog []byte

// BadInput is one bad request.
type BadInput struct {
	Name string
	// Request is the raw request, which may be invalid UTF-8.
	Request []byte
	// ErrorCode is the error_code of the reply the engine must give.
	ErrorCode string
}

// LoadBadInputs returns the catalog, in file order.
func LoadBadInputs() ([]BadInput, error) {
	var cases []BadInput
	lines := bufio.NewScanner(bytes.NewReader(catalog))
	lines.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; lines.Scan(); n++ {
		var entry struct {
			Name          string  `json:"name"`
			Request       *string `json:"request"`
			RequestBase64 string  `json:"request_base64"`
			ErrorCode     string  `json:"error_code"`
		}
		if err := json.Unmarshal(lines.Bytes(), &entry); err != nil {
			return nil, fmt.Errorf("catalog.jsonl:%d: %w", n, err)
		}
		c := BadInput{Name: entry.Name, ErrorCode: entry.ErrorCode}
		switch {
		case entry.Request != nil:
			c.Request = []byte(*entry.Request)
		case entry.RequestBase64 != "":
			raw, err := base64.StdEncoding.DecodeString(entry.RequestBase64)
			if err != nil {
				return nil, fmt.Errorf("catalog.jsonl:%d: %w", n, err)
			}
			c.Request = raw
		default:
			return nil, fmt.Errorf("catalog.jsonl:%d: %s has no request", n, entry.Name)
		}
		cases = append(cases, c)
	}
	return cases, lines.Err()
}
