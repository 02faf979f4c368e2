package simphone

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/mobilemcp/mobilemcp/internal/osfile"
	"github.com/mobilemcp/mobilemcp/internal/rawjson"
	"github.com/mobilemcp/mobilemcp/internal/text"
	"github.com/mobilemcp/mobilemcp/sms"
)

// OutboxFile is the outbox's file name inside the data directory.
const OutboxFile = "outbox.jsonl"

// Record is one simulated send, as one line of the outbox.
type Record struct {
	// Time is when the phone sent it.
	Time time.Time `json:"time"`
	// RequestID is the id of the request that sent it, when it had one.
	RequestID string `json:"request_id,omitempty"`
	// SubscriptionID, SimSlotIndex and CarrierName name the SIM it was
	// sent from.
	SubscriptionID int    `json:"subscription_id"`
	SimSlotIndex   int    `json:"sim_slot_index"`
	CarrierName    string `json:"carrier_name"`
	// To is the recipient, in E.164.
	To string `json:"to"`
	// Text is the whole message.
	Text string `json:"text"`
	// Encoding and Parts are its segmentation: the parts it was sent in.
	Encoding sms.Encoding `json:"encoding"`
	Parts    []string     `json:"parts"`
	// Results holds each part's sent result: "sent", or what went wrong.
	Results []string `json:"results"`
}

// Sent reports whether every part was sent.
func (r Record) Sent() bool {
	for _, res := range r.Results {
		if res != sms.PartSent.String() {
			return false
		}
	}
	return len(r.Results) > 0
}

// MaxRecordBytes bounds one line of the outbox: a record of a 160-character
// text is well under 2 KB. A longer line is not a record ReadOutbox reads.
const MaxRecordBytes = 1 << 20

// Outbox is an append-only JSON Lines file of simulated sends, which any
// number of processes may share (internal/rawjson): each record is one
// write under the file's lock. The file is private to the user (0600): it
// holds message texts.
type Outbox struct {
	// Path is the outbox file, OutboxFile in a data directory.
	Path string
	// mu lines up this process's writers before the file lock, which
	// would otherwise hold an OS thread for each one waiting.
	mu sync.Mutex
}

// Append writes r as one line.
func (o *Outbox) Append(r Record) error {
	line, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("encoding outbox record: %w", err)
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if err := os.MkdirAll(filepath.Dir(o.Path), 0o700); err != nil {
		return fmt.Errorf("creating the outbox directory: %w", err)
	}
	f, err := rawjson.OpenLines(o.Path)
	if err != nil {
		return fmt.Errorf("opening the outbox: %w", err)
	}
	defer f.Close()
	if err := f.Lock(); err != nil {
		return fmt.Errorf("locking the outbox %s: %w", o.Path, err)
	}
	defer f.Unlock()
	_, err = f.Append(line)
	return err
}

// BadLinesError lists the lines of an outbox that are not records. ReadOutbox
// returns it together with every record it could read.
type BadLinesError struct {
	// Path is the outbox file read.
	Path  string
	Lines []string // such as "line 7: not a record: invalid character 'x' ..."
}

func (e *BadLinesError) Error() string {
	return fmt.Sprintf("%s: %s skipped: %s", e.Path, text.Plural(len(e.Lines), "line"), strings.Join(e.Lines, "; "))
}

// ReadOutbox returns the records in path, oldest first. A missing file is an
// empty outbox. Lines that are not records (a line torn by a process that
// died while writing it, or one edited by hand) do not hide the others:
// they come back with every record as a *BadLinesError naming them.
func ReadOutbox(path string) ([]Record, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if err := osfile.LockShared(f); err != nil { // no line is half written while it is read
		return nil, fmt.Errorf("locking the outbox %s: %w", path, err)
	}
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	var records []Record
	var bad []string
	lines := 0
	end, err := rawjson.ReadLines(f, 0, info.Size(), MaxRecordBytes, func(l rawjson.Line) {
		lines = l.Number
		switch {
		case l.Text == nil:
			bad = append(bad, fmt.Sprintf("line %d: %d bytes, longer than a record can be", l.Number, l.Size))
		case len(bytes.TrimSpace(l.Text)) == 0:
		default:
			r, err := parseRecord(l.Text)
			if err != nil {
				bad = append(bad, fmt.Sprintf("line %d: not a record: %v", l.Number, err))
				return
			}
			records = append(records, r)
		}
	})
	if err != nil {
		return records, err
	}
	if end < info.Size() {
		bad = append(bad, fmt.Sprintf("line %d: torn, as a process that ended while writing it leaves a line; the next send cuts it off", lines+1))
	}
	if len(bad) > 0 {
		return records, &BadLinesError{Path: path, Lines: bad}
	}
	return records, nil
}

// parseRecord reads one line of the outbox. A record is an object with the
// time of the send and its recipient: null or {} is valid JSON, but no send.
func parseRecord(line []byte) (Record, error) {
	var r Record
	if err := json.Unmarshal(line, &r); err != nil {
		return Record{}, err
	}
	if r.Time.IsZero() || r.To == "" {
		return Record{}, errors.New(`"time" or "to" is missing`)
	}
	return r, nil
}
