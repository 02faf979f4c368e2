// Package javaplatformtest provides a stand-in for the SMS app's Java
// platform, for tests of the engine's Java-facing packages.
package javaplatformtest

import (
	"errors"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// Fake stands in for the Java Platform (javaplatform.Platform): it answers
// with fixed JSON and records what it was asked to send.
type Fake struct {
	Subs      string // SubscriptionsJSON's answer
	SubsErr   error  // SubscriptionsJSON's error, as a Java exception would be
	Send      string // SendSMS's answer
	SendErr   error  // SendSMS's error, as a Java exception would be
	Panicking bool   // SubscriptionsJSON panics, as Java code that throws through gomobile would
	// Block, when set, holds every SendSMS until it is closed, as a radio
	// that has not confirmed yet.
	Block chan struct{}
	// Blocked counts the sends Block holds.
	Blocked atomic.Int32

	mu    sync.Mutex
	sends []string
	waits []int64
}

// SubscriptionsJSON implements javaplatform.Platform.
func (f *Fake) SubscriptionsJSON() (string, error) {
	if f.Panicking {
		panic("java side exploded")
	}
	return f.Subs, f.SubsErr
}

// SendSMS implements javaplatform.Platform.
func (f *Fake) SendSMS(sub int, to, text string, timeoutMillis int64) (string, error) {
	if f.Block != nil {
		f.Blocked.Add(1)
		<-f.Block
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if timeoutMillis <= 0 {
		return "", errors.New("no time to wait")
	}
	f.sends = append(f.sends, strings.Join([]string{strconv.Itoa(sub), to, text}, "|"))
	f.waits = append(f.waits, timeoutMillis)
	return f.Send, f.SendErr
}

// Sends are the sends so far, each as "subscription|to|text".
func (f *Fake) Sends() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.sends...)
}

// Waits are the timeoutMillis of each send so far.
func (f *Fake) Waits() []int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]int64(nil), f.waits...)
}

// Subscriptions is the answer of a phone with the two default SIMs:
// subscription 14 in slot 0 and 17 in slot 1.
const Subscriptions = `[{"subscription_id":14,"sim_slot_index":0,"carrier_name":"Vodafone UK","display_name":"Vodafone UK"},{"subscription_id":17,"sim_slot_index":1,"carrier_name":"Yettel HU","display_name":"Yettel HU"}]`
