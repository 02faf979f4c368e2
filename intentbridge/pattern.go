//go:build !mobilemcp_hostengine

package intentbridge

// checkPattern checks that a descriptor's mcp:pattern values are regular
// expressions; in the engine apps ship it is nil, and they are not
// checked. The engine never enforces a pattern (it is a hint to MCP
// clients), and checking one takes Go's regexp package, a quarter of the
// engine's size. The host engines, which a tool's tests run through
// sdk-testing, are built with the tag mobilemcp_hostengine and check them
// (pattern_hostengine.go), so a tool whose pattern mobilemcp lint refuses
// fails its tests with lint's message; so do mobilemcp lint itself and
// the SMS app's gateway.
var checkPattern func(string) error
