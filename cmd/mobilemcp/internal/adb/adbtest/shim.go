package adbtest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
)

// ShimEnv names the variable that makes a test binary started as "adb" a
// shim of a Fake that a test serves (Serve): for tests of programs that run
// the adb binary as a separate process. As with the real adb, whose server
// keeps the forwards, the state lives in the one Fake.
const ShimEnv = "MOBILEMCP_TEST_FAKE_ADB"

// shimAnswer is what one invocation printed, and its exit code.
type shimAnswer struct {
	Stdout string `json:"stdout"`
	Stderr string `json:"stderr"`
	Code   int    `json:"code"`
}

// Serve serves f to shims at the URL it returns, until the test server
// closes.
func Serve(f *Fake) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var args []string
		if err := json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&args); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		out, err := f.Output(r.Context(), args...)
		answer := shimAnswer{Stdout: string(out)}
		if err != nil {
			answer.Stderr, answer.Code = err.Error()+"\n", 1
		}
		json.NewEncoder(w).Encode(answer)
	}))
}

// RunShim is the main of a test binary started as "adb" with ShimEnv set
// to a Serve URL: it sends its arguments there, prints what the Fake
// answered and exits with its code.
func RunShim(url string) {
	body, _ := json.Marshal(os.Args[1:])
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, url, strings.NewReader(string(body)))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		fmt.Fprintln(os.Stderr, "adb: error: the fake adb server is gone:", err)
		os.Exit(1)
	}
	defer resp.Body.Close()
	var answer shimAnswer
	if err := json.NewDecoder(resp.Body).Decode(&answer); err != nil {
		fmt.Fprintln(os.Stderr, "adb: error: the fake adb server answered nonsense:", err)
		os.Exit(1)
	}
	os.Stdout.WriteString(answer.Stdout)
	os.Stderr.WriteString(answer.Stderr)
	os.Exit(answer.Code)
}
