package mcpserver

// The unexported names the external tests check.
var SharedToolName = sharedToolName

const MaxSharedCapabilities = maxSharedCapabilities
