package capability_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mobilemcp/mobilemcp/engine/capability"
)

// testCapabilities exercise every engine path without any real platform.
func testCapabilities(release <-chan struct{}) []capability.Capability {
	return []capability.Capability{
		{
			ID: "echo", Description: "Echoes its arguments.", Version: "1.0",
			Input: []capability.Param{
				{Name: "text", Type: capability.String, Required: true, MaxLength: 5, Description: "a short text"},
				{Name: "count", Type: capability.Integer, Description: "a whole number"},
				{Name: "ratio", Type: capability.Number, Description: "a number"},
				{Name: "loud", Type: capability.Boolean, Description: "a flag"},
				{Name: "meta", Type: capability.Object, Description: "an object"},
				{Name: "tags", Type: capability.Array, Description: "a list"},
			},
			Output: []capability.Param{{Name: "args", Type: capability.Object, Description: "the arguments"}},
			Handler: func(ctx context.Context, args capability.Args) (capability.Result, error) {
				return capability.Result{
					Message: "echo " + capability.RequestID(ctx),
					Output:  []capability.Value{{Name: "args", Type: capability.Object, Value: map[string]any(args)}},
				}, nil
			},
		},
		{
			ID: "noargs", Description: "Takes nothing.", Version: "1.0",
			Handler: func(context.Context, capability.Args) (capability.Result, error) {
				return capability.Result{Message: "done"}, nil
			},
		},
		{
			ID: "panics", Description: "Panics.", Version: "1.0",
			Handler: func(context.Context, capability.Args) (capability.Result, error) {
				panic("tripped over itself")
			},
		},
		{
			ID: "hangs", Description: "Ignores its deadline.", Version: "1.0", Timeout: 20 * time.Millisecond,
			Handler: func(context.Context, capability.Args) (capability.Result, error) {
				<-release
				return capability.Result{Message: "too late"}, nil
			},
		},
		{
			ID: "refuses", Description: "Fails with a plain error.", Version: "1.0",
			Handler: func(context.Context, capability.Args) (capability.Result, error) {
				return capability.Result{}, errors.New("the widget is unplugged")
			},
		},
		{
			ID: "forbidden", Description: "Fails with a coded error.", Version: "1.0",
			Handler: func(context.Context, capability.Args) (capability.Result, error) {
				return capability.Result{}, fmt.Errorf("wrapped: %w", capability.Errorf(capability.CodePermissionDenied, "no permission"))
			},
		},
		{
			ID: "unencodable", Description: "Returns an output JSON cannot hold.", Version: "1.0",
			Output: []capability.Param{{Name: "c", Type: capability.Object, Description: "c"}},
			Handler: func(context.Context, capability.Args) (capability.Result, error) {
				return capability.Result{Message: "ok", Output: []capability.Value{{Name: "c", Type: capability.Object, Value: make(chan int)}}}, nil
			},
		},
	}
}

func newTestEngine(t *testing.T) *capability.Engine {
	t.Helper()
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	reg, err := capability.NewRegistry(testCapabilities(release)...)
	if err != nil {
		t.Fatal(err)
	}
	return capability.NewEngine(reg, capability.Options{MaxRequestBytes: 400})
}

// spec wraps a request body in the specification's envelope.
func spec(body string) string {
	return `{"mobile-mcp-request":{"version":"1.0","request":` + body + `}}`
}

// specReply wraps a response body in the specification's envelope.
func specReply(body string) string {
	return `{"mobile-mcp-response":{"version":"1.0","response":` + body + `}}`
}

func TestHandleRepliesExactly(t *testing.T) {
	eng := newTestEngine(t)
	tests := []struct {
		name    string
		request string
		want    string
	}{
		// Accepted layouts.
		{"spec args object", spec(`{"id":"r1","capability":{"id":"echo","args":{"text":"hi"}}}`),
			specReply(`{"id":"r1","capability":{"id":"echo","output":[{"name":"args","type":"object","value":{"text":"hi"}}]},"status":"success","message":"echo r1"}`)},
		{"spec prose input list", spec(`{"id":"r2","capability":{"id":"echo","input":[{"name":"text","type":"string","value":"hi"},{"name":"count","type":"integer","value":3}]}}`),
			specReply(`{"id":"r2","capability":{"id":"echo","output":[{"name":"args","type":"object","value":{"count":3,"text":"hi"}}]},"status":"success","message":"echo r2"}`)},
		{"unwrapped spec body", `{"version":"1.0","request":{"id":"r3","capability":{"id":"noargs"}}}`,
			specReply(`{"id":"r3","capability":{"id":"noargs"},"status":"success","message":"done"}`)},
		{"prototype input object gets a flat reply", `{"id":"p1","capability":{"id":"echo","input":{"text":"hi"}}}`,
			`{"id":"p1","capability":{"id":"echo","output":[{"name":"args","type":"object","value":{"text":"hi"}}]},"status":"success","message":"echo p1"}`},
		{"prototype input as a JSON string", `{"id":"p2","capability":{"id":"echo","input":"{\"text\":\"hi\",\"loud\":\"true\"}"}}`,
			`{"id":"p2","capability":{"id":"echo","output":[{"name":"args","type":"object","value":{"loud":true,"text":"hi"}}]},"status":"success","message":"echo p2"}`},
		{"prototype args as a JSON string", `{"id":"p3","capability":{"id":"noargs","args":""}}`,
			`{"id":"p3","capability":{"id":"noargs"},"status":"success","message":"done"}`},

		// Coercion of canonical strings, and every type.
		{"canonical strings are coerced", spec(`{"id":"c1","capability":{"id":"echo","args":{"text":"a","count":"14","ratio":"2.5","loud":"false","meta":"{\"k\":1}","tags":"[1]"}}}`),
			specReply(`{"id":"c1","capability":{"id":"echo","output":[{"name":"args","type":"object","value":{"count":14,"loud":false,"meta":{"k":1},"ratio":2.5,"tags":[1],"text":"a"}}]},"status":"success","message":"echo c1"}`)},
		{"exact float is an integer", spec(`{"id":"c2","capability":{"id":"echo","args":{"text":"a","count":14.0}}}`),
			specReply(`{"id":"c2","capability":{"id":"echo","output":[{"name":"args","type":"object","value":{"count":14,"text":"a"}}]},"status":"success","message":"echo c2"}`)},
		{"null optional is absent", spec(`{"id":"c3","capability":{"id":"echo","args":{"text":"a","count":null}}}`),
			specReply(`{"id":"c3","capability":{"id":"echo","output":[{"name":"args","type":"object","value":{"text":"a"}}]},"status":"success","message":"echo c3"}`)},
		{"max length counts characters not bytes", spec(`{"id":"c4","capability":{"id":"echo","args":{"text":"ééééé"}}}`),
			specReply(`{"id":"c4","capability":{"id":"echo","output":[{"name":"args","type":"object","value":{"text":"ééééé"}}]},"status":"success","message":"echo c4"}`)},

		// invalid_request.
		{"broken JSON", `{"mobile-mcp-request":`,
			specReply(`{"id":null,"status":"failure","message":"request is not valid JSON: unexpected end of JSON input (at byte 22)","error_code":"invalid_request"}`)},
		{"not an object", `[1,2]`,
			specReply(`{"id":null,"status":"failure","message":"request must be an object, got an array","error_code":"invalid_request"}`)},
		{"empty object", `{}`,
			specReply(`{"id":null,"status":"failure","message":"not a Mobile-MCP request: expected {\"mobile-mcp-request\":{\"version\":\"1.0\",\"request\":{\"id\":...,\"capability\":{...}}}}","error_code":"invalid_request"}`)},
		{"invalid UTF-8", "{\"id\":\"\xff\"}",
			`{"id":null,"status":"failure","message":"id is not valid UTF-8: it holds the byte 0xff","error_code":"invalid_request"}`},
		{"missing id", spec(`{"capability":{"id":"echo"}}`),
			specReply(`{"id":null,"status":"failure","message":"mobile-mcp-request.request.id is missing","error_code":"invalid_request"}`)},
		{"numeric id", spec(`{"id":7,"capability":{"id":"echo"}}`),
			specReply(`{"id":null,"status":"failure","message":"mobile-mcp-request.request.id must be a string, got number 7","error_code":"invalid_request"}`)},
		{"missing capability", spec(`{"id":"e1"}`),
			specReply(`{"id":"e1","status":"failure","message":"mobile-mcp-request.request.capability is missing","error_code":"invalid_request"}`)},
		{"capability is a string", `{"id":"e2","capability":"echo"}`,
			`{"id":"e2","status":"failure","message":"capability must be an object, got string \"echo\"","error_code":"invalid_request"}`},
		{"args and input both", spec(`{"id":"e3","capability":{"id":"echo","args":{},"input":{}}}`),
			specReply(`{"id":"e3","capability":{"id":"echo"},"status":"failure","message":"mobile-mcp-request.request.capability has both args and input; send the arguments in one of them","error_code":"invalid_request"}`)},
		{"args is a number", spec(`{"id":"e4","capability":{"id":"echo","args":5}}`),
			specReply(`{"id":"e4","capability":{"id":"echo"},"status":"failure","message":"mobile-mcp-request.request.capability.args must be an object of arguments, got number 5","error_code":"invalid_request"}`)},
		{"mixed layouts", `{"mobile-mcp-request":{"version":"1.0"},"id":"x","capability":{"id":"echo"}}`,
			specReply(`{"id":null,"status":"failure","message":"request mixes layouts: send either {\"mobile-mcp-request\":{\"version\":\"1.0\",\"request\":{...}}} or the prototype's {\"id\":...,\"capability\":{...}}, not both","error_code":"invalid_request"}`)},
		{"input list entry without value", spec(`{"id":"e5","capability":{"id":"echo","input":[{"name":"text"}]}}`),
			specReply(`{"id":"e5","capability":{"id":"echo"},"status":"failure","message":"mobile-mcp-request.request.capability.input[0].value is missing for argument \"text\"","error_code":"invalid_request"}`)},
		{"input list repeats a name", spec(`{"id":"e6","capability":{"id":"echo","input":[{"name":"text","value":"a"},{"name":"text","value":"b"}]}}`),
			specReply(`{"id":"e6","capability":{"id":"echo"},"status":"failure","message":"mobile-mcp-request.request.capability.input: argument \"text\" is given twice","error_code":"invalid_request"}`)},

		// unsupported_version.
		{"wrong version", `{"mobile-mcp-request":{"version":"2.0","request":{"id":"v1","capability":{"id":"echo"}}}}`,
			specReply(`{"id":"v1","status":"failure","message":"version \"2.0\" is not supported; send \"1.0\"","error_code":"unsupported_version"}`)},
		{"missing version", `{"mobile-mcp-request":{"request":{"id":"v2","capability":{"id":"echo"}}}}`,
			specReply(`{"id":"v2","status":"failure","message":"mobile-mcp-request.version is missing","error_code":"invalid_request"}`)},

		// unknown_capability.
		{"unknown capability", spec(`{"id":"u1","capability":{"id":"fly"}}`),
			specReply(`{"id":"u1","capability":{"id":"fly"},"status":"failure","message":"no capability \"fly\"; this tool offers: echo, noargs, panics, hangs, refuses, forbidden, unencodable","error_code":"unknown_capability"}`)},

		// invalid_arguments.
		{"missing required", spec(`{"id":"a1","capability":{"id":"echo","args":{}}}`),
			specReply(`{"id":"a1","capability":{"id":"echo"},"status":"failure","message":"echo: text is required (string: a short text)","error_code":"invalid_arguments"}`)},
		{"unknown argument lists the known ones", spec(`{"id":"a2","capability":{"id":"echo","args":{"text":"a","cuont":1}}}`),
			specReply(`{"id":"a2","capability":{"id":"echo"},"status":"failure","message":"echo: unknown argument \"cuont\"; known arguments: text, count, ratio, loud, meta, tags","error_code":"invalid_arguments"}`)},
		{"argument to a capability without inputs", spec(`{"id":"a3","capability":{"id":"noargs","args":{"x":1}}}`),
			specReply(`{"id":"a3","capability":{"id":"noargs"},"status":"failure","message":"noargs: unknown argument \"x\"; noargs takes no arguments","error_code":"invalid_arguments"}`)},
		{"every problem at once", spec(`{"id":"a4","capability":{"id":"echo","args":{"count":"14x","ratio":"NaN","loud":"yes","meta":[],"tags":{}}}}`),
			specReply(`{"id":"a4","capability":{"id":"echo"},"status":"failure","message":"echo: text is required (string: a short text); count must be an integer, got string \"14x\"; ratio must be a number, got string \"NaN\"; loud must be a boolean, got string \"yes\"; meta must be an object, got an array; tags must be an array, got an object","error_code":"invalid_arguments"}`)},
		{"string for a number-typed text", spec(`{"id":"a5","capability":{"id":"echo","args":{"text":5}}}`),
			specReply(`{"id":"a5","capability":{"id":"echo"},"status":"failure","message":"echo: text must be a string, got number 5","error_code":"invalid_arguments"}`)},
		{"too long", spec(`{"id":"a6","capability":{"id":"echo","args":{"text":"toolong"}}}`),
			specReply(`{"id":"a6","capability":{"id":"echo"},"status":"failure","message":"echo: text is 7 characters long; the limit is 5","error_code":"invalid_arguments"}`)},
		{"integer out of range", spec(`{"id":"a7","capability":{"id":"echo","args":{"text":"a","count":99999999999999999999}}}`),
			specReply(`{"id":"a7","capability":{"id":"echo"},"status":"failure","message":"echo: count must be a whole number no larger than 9223372036854775807, got 99999999999999999999","error_code":"invalid_arguments"}`)},
		{"exponent string for an integer", spec(`{"id":"a9","capability":{"id":"echo","args":{"text":"a","count":"1e2"}}}`),
			specReply(`{"id":"a9","capability":{"id":"echo"},"status":"failure","message":"echo: count must be a whole number written in digits, such as 100, got \"1e2\"","error_code":"invalid_arguments"}`)},
		{"fraction for an integer", spec(`{"id":"a8","capability":{"id":"echo","args":{"text":"a","count":1.5}}}`),
			specReply(`{"id":"a8","capability":{"id":"echo"},"status":"failure","message":"echo: count must be a whole number, got 1.5","error_code":"invalid_arguments"}`)},

		// Handler outcomes.
		{"panic is a failure", spec(`{"id":"h1","capability":{"id":"panics"}}`),
			specReply(`{"id":"h1","capability":{"id":"panics"},"status":"failure","message":"panics failed with an internal error: tripped over itself","error_code":"internal_error"}`)},
		{"overrun is a timeout", spec(`{"id":"h2","capability":{"id":"hangs"}}`),
			specReply(`{"id":"h2","capability":{"id":"hangs"},"status":"failure","message":"hangs did not finish within 20ms; it may still complete, so check before retrying with a new request id","error_code":"timeout"}`)},
		{"plain error is a platform error", spec(`{"id":"h3","capability":{"id":"refuses"}}`),
			specReply(`{"id":"h3","capability":{"id":"refuses"},"status":"failure","message":"the widget is unplugged","error_code":"platform_error"}`)},
		{"wrapped coded error keeps its code", spec(`{"id":"h4","capability":{"id":"forbidden"}}`),
			specReply(`{"id":"h4","capability":{"id":"forbidden"},"status":"failure","message":"no permission","error_code":"permission_denied"}`)},
		{"unencodable output is an internal error", spec(`{"id":"h5","capability":{"id":"unencodable"}}`),
			specReply(`{"id":"h5","capability":{"id":"unencodable"},"status":"failure","message":"unencodable returned the output \"c\" as a value that cannot be encoded as JSON: json: unsupported type: chan int","error_code":"internal_error"}`)},

		// too_large.
		{"request over the limit", spec(`{"id":"big","capability":{"id":"echo","args":{"text":"` + strings.Repeat("x", 400) + `"}}}`),
			specReply(`{"id":null,"status":"failure","message":"request is 509 bytes; the limit is 400","error_code":"too_large"}`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := string(eng.Do(context.Background(), capability.NewCall([]byte(tt.request), capability.Caller{}, nil)).JSON())
			if got != tt.want {
				t.Errorf("reply\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestEveryFailureCodeIsExercised(t *testing.T) {
	// The engine-level codes above; consent_required and rate_limited come
	// from the app's caller checks, outside the engine.
	reachable := map[capability.Code]bool{}
	eng := newTestEngine(t)
	for _, req := range []string{
		`x`, spec(`{"id":"1","capability":{"id":"fly"}}`),
		`{"mobile-mcp-request":{"version":"9","request":{"id":"1","capability":{"id":"echo"}}}}`,
		spec(`{"id":"1","capability":{"id":"echo","args":{}}}`), spec(`{"id":"1","capability":{"id":"panics"}}`),
		spec(`{"id":"1","capability":{"id":"hangs"}}`), spec(`{"id":"1","capability":{"id":"refuses"}}`),
		spec(`{"id":"1","capability":{"id":"forbidden"}}`), strings.Repeat(" ", 401),
	} {
		reachable[eng.Do(context.Background(), capability.NewCall([]byte(req), capability.Caller{}, nil)).ErrorCode] = true
	}
	for _, code := range capability.Codes() {
		if code == capability.CodeConsentRequired || code == capability.CodeRateLimited {
			continue
		}
		if !reachable[code] {
			t.Errorf("no request produced %s", code)
		}
	}
}

func TestPanicsAndOverrunsDoNotStopServing(t *testing.T) {
	eng := newTestEngine(t)
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			bad := []string{"panics", "hangs"}[i%2]
			if r := eng.Do(context.Background(), capability.NewCall([]byte(spec(`{"id":"b","capability":{"id":"`+bad+`"}}`)), capability.Caller{}, nil)); !r.Failed() {
				t.Errorf("%s succeeded", bad)
			}
		}()
	}
	wg.Wait()
	got := eng.Do(context.Background(), capability.NewCall([]byte(spec(`{"id":"after","capability":{"id":"noargs"}}`)), capability.Caller{}, nil))
	if want := specReply(`{"id":"after","capability":{"id":"noargs"},"status":"success","message":"done"}`); string(got.JSON()) != want {
		t.Errorf("after the failures, got %s, want %s", got.JSON(), want)
	}
}

func TestCancelledCallerGetsATimeout(t *testing.T) {
	eng := newTestEngine(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	got := eng.Do(ctx, capability.NewCall([]byte(spec(`{"id":"c","capability":{"id":"hangs"}}`)), capability.Caller{}, nil))
	want := specReply(`{"id":"c","capability":{"id":"hangs"},"status":"failure","message":"hangs was cancelled before it finished: context canceled","error_code":"timeout"}`)
	if string(got.JSON()) != want {
		t.Errorf("got %s\nwant %s", got.JSON(), want)
	}
}

func TestFlatAndSpecEncodingsOfOneReply(t *testing.T) {
	eng := newTestEngine(t)
	r := eng.Do(context.Background(), capability.NewCall([]byte(`{"id":"p","capability":{"id":"noargs","input":{}}}`), capability.Caller{}, nil))
	if got, want := string(r.FlatJSON()), `{"id":"p","capability":{"id":"noargs"},"status":"success","message":"done"}`; got != want {
		t.Errorf("flat: got %s, want %s", got, want)
	}
	if got, want := string(r.SpecJSON()), specReply(`{"id":"p","capability":{"id":"noargs"},"status":"success","message":"done"}`); got != want {
		t.Errorf("spec: got %s, want %s", got, want)
	}
}

func TestEncodeRequestRoundTrips(t *testing.T) {
	data, err := capability.EncodeRequest(capability.Request{ID: "id-1", CapabilityID: "echo"})
	if err != nil {
		t.Fatal(err)
	}
	if want := spec(`{"id":"id-1","capability":{"id":"echo","args":{}}}`); string(data) != want {
		t.Errorf("got %s, want %s", data, want)
	}
	req, cerr := capability.DecodeRequest(data)
	if cerr != nil || req.ID != "id-1" || req.CapabilityID != "echo" || req.Shape != capability.ShapeSpec {
		t.Errorf("decoded %+v, %v", req, cerr)
	}
}

func TestDecodeReplyRoundTrips(t *testing.T) {
	eng := newTestEngine(t)
	for _, req := range []string{
		spec(`{"id":"r1","capability":{"id":"echo","args":{"text":"hi","count":2}}}`),
		`{"id":"p1","capability":{"id":"noargs"}}`,
		spec(`{"id":"f1","capability":{"id":"fly"}}`),
		`garbage`,
	} {
		r := eng.Do(context.Background(), capability.NewCall([]byte(req), capability.Caller{}, nil))
		back, err := capability.DecodeReply(r.JSON())
		if err != nil {
			t.Fatalf("%s: %v", r.JSON(), err)
		}
		if string(back.JSON()) != string(r.JSON()) {
			t.Errorf("round trip\n got %s\nwant %s", back.JSON(), r.JSON())
		}
	}
	for _, bad := range []string{`{`, `{"status":"maybe"}`, `[]`} {
		if _, err := capability.DecodeReply([]byte(bad)); err == nil {
			t.Errorf("DecodeReply(%s) succeeded", bad)
		}
	}
}

func TestRequestSizeLimit(t *testing.T) {
	eng := newTestEngine(t) // MaxRequestBytes: 400
	base := spec(`{"id":"size","capability":{"id":"noargs"}}`)
	atLimit := base + strings.Repeat(" ", 400-len(base)) // JSON allows trailing space
	if r := eng.Do(context.Background(), capability.NewCall([]byte(atLimit), capability.Caller{}, nil)); r.Failed() {
		t.Errorf("a request of exactly 400 bytes failed: %s", r.JSON())
	}
	got := eng.Do(context.Background(), capability.NewCall([]byte(atLimit+" "), capability.Caller{}, nil))
	if want := specReply(`{"id":null,"status":"failure","message":"request is 401 bytes; the limit is 400","error_code":"too_large"}`); string(got.JSON()) != want {
		t.Errorf("one byte past:\n got %s\nwant %s", got.JSON(), want)
	}
}

func TestRequestIDLengthLimit(t *testing.T) {
	reg, _ := capability.NewRegistry(testCapabilities(nil)...)
	eng := capability.NewEngine(reg, capability.Options{})
	id := strings.Repeat("a", capability.MaxIDLength)
	if r := eng.Do(context.Background(), capability.NewCall([]byte(spec(`{"id":"`+id+`","capability":{"id":"noargs"}}`)), capability.Caller{}, nil)); r.Failed() || r.ID != id {
		t.Errorf("a %d-byte id failed: %s", len(id), r.JSON())
	}
	got := eng.Do(context.Background(), capability.NewCall([]byte(spec(`{"id":"`+id+`a","capability":{"id":"noargs"}}`)), capability.Caller{}, nil))
	if want := specReply(`{"id":null,"status":"failure","message":"mobile-mcp-request.request.id is 257 bytes long; the limit is 256","error_code":"invalid_request"}`); string(got.JSON()) != want {
		t.Errorf("one byte past:\n got %s\nwant %s", got.JSON(), want)
	}
}
