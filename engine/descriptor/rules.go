package descriptor

// Rule is one lint check. Its ID is stable, so scripts and CI jobs may
// rely on it. docs/reference/lint-rules.md shows each rule with a failing
// example.
type Rule struct {
	// ID is the rule's stable name, such as "duplicate-id".
	ID string
	// Severity is how much a finding of the rule counts.
	Severity Severity
	// Summary says in one line what the rule refuses.
	Summary string
}

// The descriptor rules. The errors are the MUSTs of the Mobile-MCP spec §1.2 and what
// makes a descriptor unusable; the warnings are what works but misleads.
// Those of the XML text and of AndroidManifest.xml are package xmlfile's.
var (
	ruleNotDescriptor    = Rule{"not-descriptor", Error, "the file is neither a capability descriptor nor an AndroidManifest.xml"}
	ruleRootElement      = Rule{"root-element", Error, "the root element is not <mobile-mcp-capabilities>"}
	ruleRootVersion      = Rule{"root-version", Error, `the root version attribute is missing or not "1.0"`}
	ruleMissingAttribute = Rule{"missing-attribute", Error, "a capability or param lacks an attribute the spec requires, or has it empty"}
	ruleBooleanValue     = Rule{"boolean-value", Error, `a boolean attribute is not "true" or "false"`}
	ruleUnknownType      = Rule{"unknown-type", Error, "a param type is not a descriptor type"}
	ruleDuplicateID      = Rule{"duplicate-id", Error, "two capabilities share an id"}
	ruleDuplicateParam   = Rule{"duplicate-param", Error, "two params of one <input> or <output> share a name"}
	ruleDuplicateElement = Rule{"duplicate-element", Error, "a capability has a second <input> or <output>"}
	ruleExtensionValue   = Rule{"extension-value", Error, "an mcp:timeout, mcp:maxLength or mcp:pattern value the engine cannot use"}
	ruleMissingReadOnly  = Rule{"missing-read-only", Warning, "a capability does not say with mcp:readOnly whether it only reads, so it is taken to change state"}
	ruleTypeSynonym      = Rule{"type-synonym", Warning, "a param type is a synonym such as int or bool"}
	ruleUnknownElement   = Rule{"unknown-element", Warning, "an element the format does not define"}
	ruleUnknownAttribute = Rule{"unknown-attribute", Warning, "an attribute the format does not define"}
	ruleEmptyDescription = Rule{"empty-description", Warning, "a description is empty"}
	ruleToolName         = Rule{"invalid-tool-name", Warning, "a capability id is not a valid MCP tool name"}
	ruleModelToolName    = Rule{"model-tool-name", Warning, "a capability id is a valid MCP tool name that models' function calling refuses"}
	ruleVersionFormat    = Rule{"version-format", Warning, "a capability version is not a version number such as 1.0"}
	ruleNoCapabilities   = Rule{"no-capabilities", Warning, "the descriptor declares no capability"}
)

// Rules returns the rules of a descriptor's content, which Read checks,
// in the order docs/reference/lint-rules.md shows them; package xmlfile
// adds those of XML text and of AndroidManifest.xml. The slice is new on
// every call.
func Rules() []Rule {
	return []Rule{
		ruleNotDescriptor, ruleRootElement, ruleRootVersion,
		ruleMissingAttribute, ruleBooleanValue, ruleUnknownType, ruleDuplicateID,
		ruleDuplicateParam, ruleDuplicateElement, ruleExtensionValue, ruleMissingReadOnly, ruleTypeSynonym, ruleUnknownElement,
		ruleUnknownAttribute, ruleEmptyDescription, ruleToolName, ruleModelToolName, ruleVersionFormat, ruleNoCapabilities,
	}
}
