package intentbridge

import "time"

// NewBridgeWithTimeout is NewBridge with one deadline, timeoutMillis, for
// every capability instead of each capability's own (60 s for send_sms,
// which includes the wait for the parts' sent results). The Java platform
// learns its share of the deadline through SendSMS's timeoutMillis, so a
// short deadline also shortens its wait for sent results. A timeoutMillis of
// zero or less keeps the defaults, which is what the app uses.
//
// A short deadline is for tests, which need the "sent result never
// arrives" path to end in about a second. It is a constructor argument
// rather than a setting, so that nothing can change the deadline of a
// bridge in use.
func NewBridgeWithTimeout(p Platform, dataDir string, timeoutMillis int64) (*Bridge, error) {
	return openBridge(p, config{dataDir: dataDir, timeout: time.Duration(timeoutMillis) * time.Millisecond})
}
