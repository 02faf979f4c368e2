// Package mcpwire holds what the MCP server and the command line's MCP
// clients and proxies share of the wire: the endpoint (Path, URL), the
// token proof a client asks for before it sends the token (ProofPath,
// Proof), MCP's stdio transport, which answers malformed lines itself
// instead of ending the session (LineTransport), and what each protocol
// version allows that the SDK settles otherwise (BatchVersion, PingResult).
//
//	session, err := server.Connect(ctx, &mcpwire.LineTransport{In: os.Stdin, Out: os.Stdout}, nil)
package mcpwire
