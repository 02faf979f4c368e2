package simphone_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mobilemcp/mobilemcp/sms/simphone"
)

// null and {} are valid JSON, but no send: they are named as bad lines,
// never listed as a send to nobody at the year 1.
func TestAnOutboxLineIsARecordOnlyWithATimeAndARecipient(t *testing.T) {
	path := filepath.Join(t.TempDir(), simphone.OutboxFile)
	os.WriteFile(path, []byte("null\n{}\n"+`{"time":"2026-11-21T10:04:19Z","to":"+33785880347"}`+"\n"), 0o600)
	records, err := simphone.ReadOutbox(path)
	var bad *simphone.BadLinesError
	if len(records) != 1 || records[0].To != "+33785880347" || !errors.As(err, &bad) ||
		!slices.Equal(bad.Lines, []string{`line 1: not a record: "time" or "to" is missing`, `line 2: not a record: "time" or "to" is missing`}) {
		t.Errorf("records %+v, error %v", records, err)
	}
}

// FuzzReadOutbox: whatever the outbox holds, ReadOutbox does not panic, and
// accounts for every line: each is a record with a time and a recipient, a
// blank line, or a bad line named by its number, in order; a last line
// without a newline is named as torn.
func FuzzReadOutbox(f *testing.F) {
	for _, seed := range []string{
		`{"time":"2026-11-21T10:04:19Z","subscription_id":14,"to":"+33785880347","text":"Hi","encoding":"gsm7","parts":["Hi"],"results":["sent"]}` + "\n",
		"null\n{}\n\n", `{"time":"not a time"}` + "\n", `{"time":"2026-11-21T10:04:19Z","to":"+3378`, "[]\n \n\"x\"\n",
	} {
		f.Add([]byte(seed))
	}
	path := filepath.Join(f.TempDir(), simphone.OutboxFile) // one per worker process
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		records, err := simphone.ReadOutbox(path)
		var bad *simphone.BadLinesError
		if err != nil && !errors.As(err, &bad) {
			t.Fatalf("%q: %v", data, err)
		}
		for _, r := range records {
			if r.Time.IsZero() || r.To == "" {
				t.Fatalf("%q: listed %+v", data, r)
			}
		}
		lines, blank := bytes.Split(data, []byte("\n")), 0
		if len(lines[len(lines)-1]) == 0 {
			lines = lines[:len(lines)-1] // what follows the last newline
		}
		for i, l := range lines {
			if len(bytes.TrimSpace(l)) == 0 && (i < len(lines)-1 || bytes.HasSuffix(data, []byte("\n"))) {
				blank++
			}
		}
		named := 0
		if bad != nil {
			named = len(bad.Lines)
		}
		if len(records)+blank+named != len(lines) {
			t.Fatalf("%q: %d lines, %d records, %d blank, %d named: %v", data, len(lines), len(records), blank, named, err)
		}
	})
}
