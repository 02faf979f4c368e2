//go:build mobilemcp_hostengine

package intentbridge

import "testing"

// The host engine, which a tool's tests run through sdk-testing, refuses
// a descriptor with a pattern that is not a regular expression, with
// mobilemcp lint's message.
func TestTheHostEngineRefusesABadPattern(t *testing.T) {
	if err := startPattern(t); err == nil || err.Error() != patternRefusal {
		t.Errorf("Start:\n got %v\nwant %s", err, patternRefusal)
	}
}
