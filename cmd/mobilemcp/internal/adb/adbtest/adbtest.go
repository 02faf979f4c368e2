// Package adbtest provides a scripted stand-in for the adb binary, so code
// that drives a phone can be tested without one.
package adbtest

import (
	"context"
	"errors"
	"io"
	"strings"
	"sync"
)

// Fake answers adb invocations from a script and records them. It
// implements adb.Runner.
type Fake struct {
	// Outputs maps the start of an invocation's joined arguments to its
	// stdout; the longest matching prefix wins.
	Outputs map[string]string
	// Errors maps the start of an invocation to the error it fails with; an
	// error wins over an output.
	Errors map[string]error
	// Logcat is what a streamed invocation prints before it waits, like
	// logcat, for the caller to stop it.
	Logcat string
	// Respond, when set, plays the app: once an invocation runs "am ...", the
	// stream also prints Respond's answer to that command line.
	Respond func(amCommand string) string
	// Provider, when set, plays the Tool SDK's shell-only provider: an
	// invocation that runs "content call ..." prints what it returns. Unset,
	// such an invocation prints what Android's content command prints for an
	// authority no app declares.
	Provider func(contentCommand string) string

	// Forward, when set, plays the device end of adb forward (see
	// forward.go): it returns the address where the device's port answers
	// now, or "" when nothing listens there.
	Forward func(devicePort int) string

	mu       sync.Mutex
	calls    []string
	am       chan string
	unplug   bool
	forwards map[int]*relay // by local port
}

// Output implements adb.Runner.
func (f *Fake) Output(_ context.Context, args ...string) ([]byte, error) {
	joined := f.record(args)
	if f.unplugged() {
		return nil, errors.New("adb " + joined + ": exit status 1: adb: error: no devices/emulators found")
	}
	if _, err := longestMatch(f.Errors, joined); err != nil {
		return nil, err
	}
	if out, err, ok := f.forward(args); ok {
		return []byte(out), err
	}
	if i := strings.Index(joined, "shell content call "); i >= 0 {
		command := joined[i+len("shell "):]
		if f.Provider != nil {
			return []byte(f.Provider(command)), nil
		}
		authority := strings.Fields(strings.TrimPrefix(command, "content call --uri 'content://"))[0]
		authority = strings.TrimSuffix(authority, "'")
		return []byte("Error while accessing provider:" + authority + "\njava.lang.IllegalStateException: Could not find provider: " + authority + "\n"), nil
	}
	_, out := longestMatch(f.Outputs, joined)
	return []byte(out), nil
}

// Stream implements adb.Runner.
func (f *Fake) Stream(ctx context.Context, args ...string) (io.ReadCloser, error) {
	f.record(args)
	r, w := io.Pipe()
	am := f.amCommands()
	go func() {
		w.Write([]byte(f.Logcat))
		select {
		case cmd := <-am:
			if f.Respond != nil {
				w.Write([]byte(f.Respond(cmd) + "\n"))
			}
			<-ctx.Done()
		case <-ctx.Done():
		}
		w.Close()
	}()
	return r, nil
}

// amCommands returns the channel on which "am ..." command lines arrive.
func (f *Fake) amCommands() chan string {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.am == nil {
		f.am = make(chan string, 16)
	}
	return f.am
}

// Calls returns the invocations so far, each as its joined arguments.
func (f *Fake) Calls() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.calls...)
}

func (f *Fake) record(args []string) string {
	joined := strings.Join(args, " ")
	if i := strings.Index(joined, "shell am "); i >= 0 {
		select {
		case f.amCommands() <- joined[i+len("shell "):]:
		default:
		}
	}
	f.mu.Lock()
	f.calls = append(f.calls, joined)
	f.mu.Unlock()
	return joined
}

func longestMatch[V any](m map[string]V, joined string) (string, V) {
	best, found := "", false
	var value V
	for prefix, v := range m {
		if strings.HasPrefix(joined, prefix) && (!found || len(prefix) > len(best)) {
			best, value, found = prefix, v, true
		}
	}
	return best, value
}
