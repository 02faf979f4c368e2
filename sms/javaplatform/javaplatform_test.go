package javaplatform

import (
	"testing"
	"time"
)

func TestJavaWaitKeepsAMarginBeforeTheDeadline(t *testing.T) {
	tests := []struct {
		left, want time.Duration
	}{
		{60 * time.Second, 58 * time.Second},  // the 2 s margin
		{8 * time.Second, 6 * time.Second},    // where both margins meet
		{time.Second, 750 * time.Millisecond}, // a quarter of what is left
		{1500 * time.Millisecond, 1125 * time.Millisecond},
		{0, 0},
	}
	for _, tt := range tests {
		if got := javaWait(tt.left); got != tt.want {
			t.Errorf("javaWait(%s) = %s, want %s", tt.left, got, tt.want)
		}
	}
}
