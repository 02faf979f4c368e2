//go:build mobilemcp_hostengine

package intentbridge

import "github.com/mobilemcp/mobilemcp/engine/descriptor/xmlfile"

// checkPattern checks that a descriptor's mcp:pattern values are regular
// expressions, as mobilemcp lint does: this is the host engine, which a
// tool's tests run (see pattern.go).
var checkPattern = xmlfile.CheckPattern
