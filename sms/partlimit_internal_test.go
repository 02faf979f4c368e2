package sms

import (
	"testing"
	"time"
)

// fakeWindow is a partWindow on a clock the test moves.
func fakeWindow(limit int) (*partWindow, *time.Time) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	w := newPartWindow(limit)
	w.now = func() time.Time { return now }
	return w, &now
}

func TestPartWindowSlidesLikeSmsUsageMonitor(t *testing.T) {
	w, now := fakeWindow(30)
	for i := range 10 {
		if err := w.take(3); err != nil {
			t.Fatalf("send %d of 3 parts: %v", i+1, err)
		}
		*now = now.Add(time.Second)
	}
	// 30 parts in the last 10 s: the 31st waits until the first leaves the
	// window, 60 s after it went (now is 10 s later).
	err := w.take(1)
	if err == nil {
		t.Fatal("a 31st part in the same minute was let through")
	}
	if want := "this phone sends at most 30 SMS parts a minute (beyond that Android stops and asks the user to confirm); " +
		"30 parts went in the last minute and this SMS needs 1; nothing was sent: retry in 50 seconds"; err.Message != want {
		t.Errorf("message\n got %s\nwant %s", err.Message, want)
	}
	// A token bucket would let a part through every 2 s; the window does not.
	*now = now.Add(2 * time.Second)
	if w.take(1) == nil {
		t.Error("a part went 2 s later, still within a minute of 30 others")
	}
	// Two parts need the first send (3 parts) gone, 60 s after it went.
	*now = now.Add(47 * time.Second) // 59 s after the first send
	if err := w.take(2); err == nil || err.Code != "rate_limited" {
		t.Fatalf("59 s after the first send: %v", err)
	}
	*now = now.Add(time.Second) // 60 s after the first send: its 3 parts leave
	if err := w.take(3); err != nil {
		t.Fatalf("60 s after the first send: %v", err)
	}
	if err := w.take(1); err == nil {
		t.Fatal("the window forgot a send")
	}
}

func TestPartWindowSettlesToThePartsActuallySent(t *testing.T) {
	w, _ := fakeWindow(5)
	if err := w.take(3); err != nil {
		t.Fatal(err)
	}
	w.settle(3, 0) // the platform sent nothing
	if err := w.take(5); err != nil {
		t.Fatalf("a failed send still counts: %v", err)
	}
	w.settle(5, 2) // the phone split the text into 2 parts, not 5
	if err := w.take(3); err != nil {
		t.Fatalf("the parts not sent still count: %v", err)
	}
	if err := w.take(1); err == nil {
		t.Fatal("5 parts sent, and a 6th let through")
	}
	w.settle(0, 2) // more parts than planned count too, even over the limit
	if got := len(w.times); got != 7 {
		t.Errorf("%d parts counted, want 7", got)
	}
}

func TestPartWindowRefusesAnSMSLongerThanTheLimit(t *testing.T) {
	w, _ := fakeWindow(2)
	err := w.take(3)
	if err == nil || err.Message != "this SMS needs 3 parts, more than the 2 this phone may send in a minute; send a shorter text" {
		t.Fatalf("got %v", err)
	}
	if len(w.times) != 0 {
		t.Error("a refused SMS was counted")
	}
}
