package smsapp

import (
	"flag"
	"testing"

	"github.com/mobilemcp/mobilemcp/internal/boundjava"
)

var update = flag.Bool("update", false, "rewrite testdata/bound-java.txt from gobind's Java")

// What gobind makes of this package, bound beside intentbridge as the SMS
// app's engine is, is the Java the app compiles against
// (io.github.mobilemcp.smsapp): it changes only on purpose, with its
// listing.
func TestBoundJava(t *testing.T) {
	boundjava.Pin(t, "testdata/bound-java.txt", *update, "go test ./smsapp -run TestBoundJava -update",
		"io.github.mobilemcp.smsapp", "./intentbridge", "./smsapp")
}
