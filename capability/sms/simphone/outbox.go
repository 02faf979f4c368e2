package simphone

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/mobilemcp/mobilemcp/capability/sms"
)

// OutboxFile is the outbox's file name inside the data directory.
const OutboxFile = "outbox.jsonl"

// Record is one simulated send, as one line of the outbox.
type Record struct {
	Time           time.Time    `json:"time"`
	RequestID      string       `json:"request_id,omitempty"`
	SubscriptionID int          `json:"subscription_id"`
	SimSlotIndex   int          `json:"sim_slot_index"`
	CarrierName    string       `json:"carrier_name"`
	To             string       `json:"to"`
	Text           string       `json:"text"`
	Encoding       sms.Encoding `json:"encoding"`
	Parts          []string     `json:"parts"`
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

// Outbox is an append-only JSON Lines file of simulated sends. The file is
// private to the user (0600): it holds message texts.
type Outbox struct {
	Path string
	mu   sync.Mutex
}

// Append writes r as one line. A single write on an O_APPEND file keeps lines
// whole even when several processes share the outbox.
func (o *Outbox) Append(r Record) error {
	line, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("encoding outbox record: %w", err)
	}
	line = append(line, '\n')
	o.mu.Lock()
	defer o.mu.Unlock()
	if err := os.MkdirAll(filepath.Dir(o.Path), 0o700); err != nil {
		return fmt.Errorf("creating the outbox directory: %w", err)
	}
	f, err := os.OpenFile(o.Path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("opening the outbox: %w", err)
	}
	if _, err := f.Write(line); err != nil {
		f.Close()
		return fmt.Errorf("writing the outbox %s: %w", o.Path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("writing the outbox %s: %w", o.Path, err)
	}
	return nil
}

// ReadOutbox returns the records in path, oldest first. A missing file is an
// empty outbox.
func ReadOutbox(path string) ([]Record, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var records []Record
	scanner := bufio.NewScanner(f)
	scanner.Buffer(make([]byte, 64<<10), 16<<20)
	for line := 1; scanner.Scan(); line++ {
		if len(scanner.Bytes()) == 0 {
			continue
		}
		var r Record
		if err := json.Unmarshal(scanner.Bytes(), &r); err != nil {
			return records, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		records = append(records, r)
	}
	return records, scanner.Err()
}
