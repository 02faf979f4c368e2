package mcpserver_test

import (
	"context"
	"fmt"
	"net/http/httptest"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mobilemcp/mobilemcp/engine/capability"
	"github.com/mobilemcp/mobilemcp/mcpserver"
)

// New serves an engine's capabilities as MCP tools. Here its handler runs
// under httptest, and the official Go SDK's client lists the tools and
// calls one over Streamable HTTP, as a desktop agent would.
func ExampleNew() {
	greet := capability.Capability{
		ID: "greet", Description: "Greets someone by name.", Version: "1.0",
		Input:       []capability.Param{{Name: "name", Type: capability.String, Required: true, Description: "Who to greet."}},
		Output:      []capability.Param{{Name: "greeting", Type: capability.String, Description: "The greeting."}},
		Annotations: capability.Annotations{ReadOnly: true},
		Handler: func(ctx context.Context, args capability.Args) (capability.Result, error) {
			text := "Hello, " + args["name"].(string)
			return capability.Result{Message: text, Output: []capability.Value{{Name: "greeting", Value: text}}}, nil
		},
	}
	reg, err := capability.NewRegistry(greet)
	if err != nil {
		fmt.Println(err)
		return
	}
	srv, err := mcpserver.New(capability.NewEngine(reg, capability.Options{}), mcpserver.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	ts := httptest.NewServer(srv.Handler()) // loopback, so no token is needed
	defer ts.Close()

	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "example-agent", Version: "1.0.0"}, nil)
	session, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: ts.URL + mcpserver.Path}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer session.Close()

	tools, err := session.ListTools(ctx, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, tool := range tools.Tools {
		fmt.Println("tool:", tool.Name, "-", tool.Description)
	}
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "greet", Arguments: map[string]any{"name": "Ada"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("text:", res.Content[0].(*mcp.TextContent).Text)
	fmt.Println("structured:", res.StructuredContent)

	res, _ = session.CallTool(ctx, &mcp.CallToolParams{Name: "greet", Arguments: map[string]any{}})
	fmt.Println("isError:", res.IsError, "-", res.Content[0].(*mcp.TextContent).Text)
	// Output:
	// tool: greet - Greets someone by name.
	// text: Hello, Ada
	// structured: map[greeting:Hello, Ada]
	// isError: true - invalid_arguments: greet: name is required (string: Who to greet.)
}
