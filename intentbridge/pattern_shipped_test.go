//go:build !mobilemcp_hostengine

package intentbridge

import "testing"

// The engine apps ship reads no pattern: a descriptor whose only error is
// a pattern that is not a regular expression starts. The host engine,
// which the tool's tests run, refuses it (pattern_hostengine_test.go), as
// mobilemcp lint does.
func TestTheShippedEngineLeavesPatternsToTheHostEngine(t *testing.T) {
	if err := startPattern(t); err != nil {
		t.Errorf("Start: %v", err)
	}
}
