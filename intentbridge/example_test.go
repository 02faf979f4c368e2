package intentbridge_test

import (
	"encoding/json"
	"fmt"

	"github.com/mobilemcp/mobilemcp/engine/descriptor/xmlfile"
	"github.com/mobilemcp/mobilemcp/intentbridge"
)

// notesDescriptor is a tool's res/xml/mcp_capabilities.xml: one read-only
// capability, which any caller may run.
const notesDescriptor = `<?xml version="1.0" encoding="utf-8"?>
<mobile-mcp-capabilities xmlns:mcp="https://mobilemcp.github.io/ns" version="1.0">
  <capability id="count_notes" description="Counts the notes with a word in their title." version="1.0"
      mcp:title="Count notes" mcp:readOnly="true" mcp:destructive="false" mcp:idempotent="true" mcp:openWorld="false">
    <input>
      <param name="word" type="string" required="true" description="The word to look for."/>
    </input>
    <output>
      <param name="count" type="integer" description="How many notes have it."/>
    </output>
  </capability>
</mobile-mcp-capabilities>`

// countNotes stands in for a handler written in Java or Kotlin: it gets
// the arguments the engine checked, as JSON, and returns its result as
// JSON.
type countNotes struct{}

func (countNotes) Handle(argsJSON, requestID, callerPackage string, timeoutMillis int64) (string, error) {
	var args struct{ Word string }
	if err := json.Unmarshal([]byte(argsJSON), &args); err != nil {
		return "", err
	}
	return fmt.Sprintf(`{"message":"2 notes mention %s","output":{"count":2}}`, args.Word), nil
}

// printReply is the transport's side of a reply: a service fills the
// caller's PendingIntent or answers its Message; this one prints it.
type printReply struct{}

func (printReply) Send(specJSON, flatJSON, requestID, errorCode string) error {
	fmt.Println(specJSON)
	return nil
}

// OpenBridge opens the engine a tool app's service runs on; Start serves
// the app's own descriptor with its handlers, and Handle answers each
// request exactly once, through the ReplyTarget: a success, and a request
// for a capability the tool does not have.
func ExampleOpenBridge() {
	bridge, err := intentbridge.OpenBridge("") // an app passes Context.getFilesDir()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer bridge.Close()

	// The Tool SDK hands the engine the descriptor's compiled resource as a
	// JSON tree; xmlfile writes the same from the descriptor's text.
	tree, err := xmlfile.TreeJSON([]byte(notesDescriptor))
	if err != nil {
		fmt.Println(err)
		return
	}
	tool := intentbridge.NewTool("res/xml/mcp_capabilities.xml", string(tree))
	tool.SetHandler("count_notes", countNotes{})
	if err := bridge.Start(tool); err != nil {
		fmt.Println(err)
		return
	}

	bridge.Handle(`{"mobile-mcp-request":{"version":"1.0","request":{"id":"r1","capability":{"id":"count_notes","args":{"word":"milk"}}}}}`,
		"com.example.assistant", printReply{})
	bridge.Handle(`{"mobile-mcp-request":{"version":"1.0","request":{"id":"r2","capability":{"id":"delete_notes","args":{}}}}}`,
		"com.example.assistant", printReply{})
	// Output:
	// {"mobile-mcp-response":{"version":"1.0","response":{"id":"r1","capability":{"id":"count_notes","output":[{"name":"count","type":"integer","value":2}]},"status":"success","message":"2 notes mention milk"}}}
	// {"mobile-mcp-response":{"version":"1.0","response":{"id":"r2","capability":{"id":"delete_notes"},"status":"failure","message":"no capability \"delete_notes\"; this tool offers: count_notes","error_code":"unknown_capability"}}}
}
