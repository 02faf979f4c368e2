package capability_test

import (
	"context"
	"fmt"
	"log"

	"github.com/mobilemcp/mobilemcp/engine/capability"
)

// greet is a capability as a tool declares it: its arguments and outputs,
// hints that it changes nothing and stays on the device (a hint left out
// assumes the worst), and the handler that runs it.
var greet = capability.Capability{
	ID:          "greet",
	Description: "Greets someone by name.",
	Version:     "1.0",
	Input: []capability.Param{
		{Name: "name", Type: capability.String, Required: true, MaxLength: 40, Description: "Who to greet."},
	},
	Output: []capability.Param{
		{Name: "greeting", Type: capability.String, Description: "The greeting."},
	},
	Annotations: capability.Annotations{ReadOnly: true, Idempotent: true, Destructive: new(false), OpenWorld: new(false)},
	Handler: func(ctx context.Context, args capability.Args) (capability.Result, error) {
		text := "Hello, " + args["name"].(string)
		return capability.Result{
			Message: text,
			Output:  []capability.Value{{Name: "greeting", Value: text}},
		}, nil
	},
}

// Engine.Do runs one call through the pipeline and returns its reply: here
// a Mobile-MCP request as an agent sends it, then one whose argument the
// descriptor does not declare, which is refused naming the argument and
// the ones there are.
func ExampleEngine_Do() {
	reg, err := capability.NewRegistry(greet)
	if err != nil {
		log.Fatal(err)
	}
	engine := capability.NewEngine(reg, capability.Options{})

	reply := engine.Do(context.Background(), capability.NewCall([]byte(`{"mobile-mcp-request":{"version":"1.0","request":{"id":"r1","capability":{"id":"greet","args":{"name":"Ada"}}}}}`), capability.Caller{}, nil))
	fmt.Println(string(reply.JSON()))

	reply = engine.Do(context.Background(), capability.NewCall([]byte(`{"mobile-mcp-request":{"version":"1.0","request":{"id":"r2","capability":{"id":"greet","args":{"nmae":"Ada"}}}}}`), capability.Caller{}, nil))
	fmt.Println(reply.ErrorCode, "-", reply.Message)
	// Output:
	// {"mobile-mcp-response":{"version":"1.0","response":{"id":"r1","capability":{"id":"greet","output":[{"name":"greeting","type":"string","value":"Hello, Ada"}]},"status":"success","message":"Hello, Ada"}}}
	// invalid_arguments - greet: name is required (string: Who to greet.); unknown argument "nmae"; known arguments: name
}

// Engine.Run hands the reply to a function instead of returning it, on the
// calling goroutine when the handler is on time: the form for a transport
// whose thread is costly to leave, such as a Java thread calling in. A
// transport that decoded the request itself (here, as an MCP tools/call
// is) passes its arguments as JSON, and the engine reads them as it reads
// a Mobile-MCP request's.
func ExampleEngine_Run() {
	call := capability.NewToolCall("r3", "greet", []byte(`{"name":"Grace"}`), capability.Caller{ID: "mcp:desktop-agent", Vouched: true}, nil)
	reg, err := capability.NewRegistry(greet)
	if err != nil {
		log.Fatal(err)
	}
	capability.NewEngine(reg, capability.Options{}).Run(context.Background(), call, func(reply *capability.Reply) {
		fmt.Println(reply.Status, reply.Message)
	})
	// Output:
	// success Hello, Grace
}
