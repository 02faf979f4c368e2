package intentbridge

import (
	"flag"
	"testing"

	"github.com/mobilemcp/mobilemcp/internal/boundjava"
)

var update = flag.Bool("update", false, "rewrite testdata/bound-java.txt from gobind's Java")

// What gobind makes of this package is the Java every tool app's sdk
// compiles against (io.github.mobilemcp.intentbridge): it changes only on
// purpose, with its listing.
func TestBoundJava(t *testing.T) {
	boundjava.Pin(t, "testdata/bound-java.txt", *update, "go test ./intentbridge -run TestBoundJava -update",
		"io.github.mobilemcp.intentbridge", "./intentbridge")
}
