// Package testkit holds what the module's tests share, and nothing else
// imports: the catalog of bad requests every transport is tested against
// (LoadBadInputs), the pieces of the long concurrency tests (RunLoad, Heap,
// CheckHeapReturned), helpers for tests that talk to an MCP server over
// HTTP (PostMCP, Buffer), and inputs for the native library checks (ELF,
// APK, Zip, Dylib).
//
//	cases, err := testkit.LoadBadInputs()
package testkit
