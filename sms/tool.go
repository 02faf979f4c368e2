package sms

// ToolName and ToolDescription are what the Android manifest advertises for
// the tool that serves this set: the meta-data entries mobile.mcp.tool.name
// and mobile.mcp.tool.description point at the string resources generated
// from them (res/values/strings.xml, by 'mobilemcp gen'). Assistants show the
// name to users and give the description to the model that picks a tool.
const (
	ToolName        = "mobilemcp SMS"
	ToolDescription = "Sends SMS messages from this phone and lists its active SIM subscriptions, so an assistant can text a phone number from the right SIM."
)
