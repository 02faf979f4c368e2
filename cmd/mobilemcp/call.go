package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/google/uuid"

	"github.com/mobilemcp/mobilemcp/engine/capability"
	"github.com/mobilemcp/mobilemcp/internal/osfile"
)

func init() {
	register(command{name: "call", summary: "run a capability on the simulated phone and print the reply", run: runCall})
	register(command{name: "request", summary: "print the Mobile-MCP request JSON for a capability call", run: runRequest})
}

const argSyntax = `
Arguments are key=value (the value is sent as a JSON string, as adb --es
sends it; the engine converts "14" or "true" to the declared type) or
key:=JSON (the value is sent as raw JSON, such as subscription_id:=14).`

func runCall(e *env, args []string) int {
	fs := newFlags(e, "call", "[flags] CAPABILITY [key=value | key:=json]...\n       mobilemcp call [flags] --raw FILE|-",
		`Builds a Mobile-MCP request with a fresh id, runs it through the engine on
the simulated phone and prints the reply. Simulated sends are appended to
the outbox in the data directory; see 'mobilemcp outbox'.
`+argSyntax+`

With --raw, the request JSON is read from FILE (or stdin for -) and run as
it is, in any accepted layout.

Exit status: 0 on a success reply, 1 on a failure reply or when the
request cannot be read, 2 on a usage error (such as a FILE that does not
exist).`)
	var phone phoneFlags
	phone.register(fs)
	raw := fs.String("raw", "", "run the request JSON in `file` (- for stdin) as it is")
	compact := fs.Bool("compact", false, "print the reply on one line")
	positional, code, done := parseFlags(e, fs, args)
	if done {
		return code
	}

	var request []byte
	if *raw != "" {
		if len(positional) > 0 {
			return usageError(e, fs, "--raw takes the whole request; drop the extra arguments %q", positional)
		}
		if *raw != "-" {
			if code, ok := checkExists(e, fs, "--raw", *raw); !ok {
				return code
			}
		}
		var err error
		if request, err = readInput(e, *raw); err != nil {
			fmt.Fprintf(e.stderr, "mobilemcp call: %v\n", err)
			return exitFailure
		}
	} else {
		var err error
		if request, _, err = buildRequest(positional); err != nil {
			return usageError(e, fs, "%v", err)
		}
	}

	if code, ok := phone.checkSIMConfig(e, fs); !ok {
		return code
	}
	eng, store, err := phone.engine(e, warnings(e))
	if err != nil {
		fmt.Fprintf(e.stderr, "mobilemcp call: %v\n", err)
		return exitFailure
	}
	defer store.Close()
	reply := eng.Do(context.Background(), capability.NewCall(request, capability.Caller{ID: "cli", Vouched: true}, nil))
	if reply.Replayed {
		fmt.Fprintf(e.stderr, "mobilemcp call: request %s was answered before; this is the stored reply, and nothing ran again\n", reply.ID)
	}
	printJSON(e.stdout, reply.JSON(), *compact)
	if reply.Failed() {
		return exitFailure
	}
	return exitOK
}

func runRequest(e *env, args []string) int {
	fs := newFlags(e, "request", "[flags] CAPABILITY [key=value | key:=json]...",
		`Prints the Mobile-MCP request JSON for a call, with a fresh id, without
running it. Use it to build requests for adb or other agents.

The arguments are checked first, as the tool will check them: against the
descriptor given with --descriptor (any descriptor, such as your app's
res/xml/mcp_capabilities.xml), or else against the built-in capabilities
('mobilemcp capabilities'). An unknown capability or arguments that do not
fit print the failure reply the tool would send instead.
`+argSyntax+`

Exit status: 0 with the request, 1 with a failure reply (or a descriptor
with errors), 2 on a usage error.`)
	compact := fs.Bool("compact", false, "print the request on one line")
	descriptorPath := fs.String("descriptor", "", "check the arguments against the capability descriptor in `file`")
	positional, code, done := parseFlags(e, fs, args)
	if done {
		return code
	}
	request, _, err := buildRequest(positional)
	if err != nil {
		return usageError(e, fs, "%v", err)
	}
	reg := builtinRegistry()
	if *descriptorPath != "" {
		file, code, ok := readDescriptor(e, fs, "--descriptor", *descriptorPath)
		if !ok {
			return code
		}
		if reg, err = descriptorRegistry(file); err != nil {
			fmt.Fprintf(e.stderr, "mobilemcp request: %s: %v\n", *descriptorPath, err)
			return exitFailure
		}
	}
	req, _ := capability.DecodeRequest(request) // buildRequest made it
	if refused := capability.NewEngine(reg, capability.Options{}).Validate(req); refused != nil {
		printJSON(e.stdout, refused.JSON(), *compact)
		return exitFailure
	}
	printJSON(e.stdout, request, *compact)
	return exitOK
}

// buildRequest turns CAPABILITY key=value... into a spec request with a new
// UUID as its id, and returns the request and the id.
func buildRequest(positional []string) ([]byte, string, error) {
	if len(positional) == 0 {
		return nil, "", fmt.Errorf("name the capability to call, such as send_sms")
	}
	args, err := parseArgs(positional[1:])
	if err != nil {
		return nil, "", err
	}
	id := uuid.NewString()
	request, err := capability.EncodeRequest(capability.Request{ID: id, CapabilityID: positional[0], Args: args})
	return request, id, err
}

// parseArgs reads key=value (a JSON string) and key:=json (raw JSON).
func parseArgs(pairs []string) (map[string]json.RawMessage, error) {
	args := make(map[string]json.RawMessage, len(pairs))
	for _, pair := range pairs {
		eq := strings.IndexByte(pair, '=')
		if eq <= 0 {
			return nil, fmt.Errorf("argument %q is not key=value or key:=json", pair)
		}
		key, value := pair[:eq], pair[eq+1:]
		var raw json.RawMessage
		if strings.HasSuffix(key, ":") {
			key = strings.TrimSuffix(key, ":")
			if !json.Valid([]byte(value)) {
				return nil, fmt.Errorf("argument %s:=%s: the value is not valid JSON", key, value)
			}
			raw = json.RawMessage(value)
		} else {
			raw, _ = json.Marshal(value)
		}
		if key == "" {
			return nil, fmt.Errorf("argument %q has an empty name", pair)
		}
		if _, dup := args[key]; dup {
			return nil, fmt.Errorf("argument %s is given twice", key)
		}
		args[key] = raw
	}
	return args, nil
}

// readInput reads the request in file name, or stdin for "-". It reads no
// more than the engine accepts, and only a regular file.
func readInput(e *env, name string) ([]byte, error) {
	var data []byte
	var err error
	if name == "-" {
		name = "the request on stdin"
		data, err = osfile.ReadAll(e.stdin, capability.DefaultMaxRequestBytes, name)
	} else {
		data, err = osfile.ReadFile(name, capability.DefaultMaxRequestBytes)
		name = "the request in " + name
	}
	if osfile.IsTooLarge(err) {
		err = fmt.Errorf("%s is larger than %d bytes, the most the engine accepts", name, capability.DefaultMaxRequestBytes)
	}
	return data, err
}

// printJSON prints valid JSON indented (or compact), and anything else as is.
func printJSON(w io.Writer, data []byte, compact bool) {
	var buf bytes.Buffer
	if !compact && json.Indent(&buf, data, "", "  ") == nil {
		data = buf.Bytes()
	}
	w.Write(data)
	fmt.Fprintln(w)
}
