package mcpserver

// The unexported names the external tests check.
var (
	SharedToolName  = sharedToolName
	SharedRequestID = sharedRequestID
)

const MaxSharedCapabilities = maxSharedCapabilities
