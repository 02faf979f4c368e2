package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/mobilemcp/mobilemcp/engine/capability"
	"github.com/mobilemcp/mobilemcp/internal/text"
	"github.com/mobilemcp/mobilemcp/sms/simphone"
)

func init() {
	register(command{name: "outbox", summary: "list the simulated phone's sends", run: runOutbox})
	register(command{name: "capabilities", summary: "list the built-in capabilities", run: runCapabilities})
}

func runOutbox(e *env, args []string) int {
	fs := newFlags(e, "outbox", "[flags]",
		`Lists every send of the simulated phone, oldest first: when, from which
SIM, to whom, the outcome and the text. The outbox is the JSON Lines file
outbox.jsonl in the data directory.`)
	var phone phoneFlags
	phone.registerDataDir(fs)
	asJSON := fs.Bool("json", false, "print the records as JSON Lines")
	if code, done := parseNoArgs(e, fs, args); done {
		return code
	}
	path, err := phone.outboxPath(e)
	if err != nil {
		return usageError(e, fs, "%v", err)
	}
	records, err := simphone.ReadOutbox(path)
	var bad *simphone.BadLinesError
	switch {
	case errors.As(err, &bad):
		// Every record is listed; the lines that are not records are
		// named, so that one torn line does not hide the rest.
		for _, line := range bad.Lines {
			fmt.Fprintf(e.stderr, "mobilemcp outbox: %s: skipped %s\n", path, line)
		}
	case err != nil:
		fmt.Fprintf(e.stderr, "mobilemcp outbox: %v\n", err)
		return exitFailure
	}
	if *asJSON {
		for _, r := range records {
			line, _ := json.Marshal(r)
			fmt.Fprintf(e.stdout, "%s\n", line)
		}
		return exitOK
	}
	if len(records) == 0 {
		fmt.Fprintf(e.stdout, "The outbox %s is empty.\n", path)
		return exitOK
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TIME\tFROM\tTO\tPARTS\tRESULT\tTEXT")
	for _, r := range records {
		result := "sent"
		if !r.Sent() {
			result = strings.Join(r.Results, "; ")
		}
		fmt.Fprintf(tw, "%s\t%d (slot %d, %s)\t%s\t%d %s\t%s\t%q\n",
			r.Time.Local().Format("2006-01-02 15:04:05"), r.SubscriptionID, r.SimSlotIndex, r.CarrierName,
			r.To, len(r.Parts), r.Encoding, result, r.Text)
	}
	tw.Flush()
	fmt.Fprintf(e.stdout, "%s in %s\n", text.Plural(len(records), "send"), path)
	return exitOK
}

func runCapabilities(e *env, args []string) int {
	fs := newFlags(e, "capabilities", "[flags]",
		`Lists the built-in capabilities with their parameters and behaviour hints.`)
	asJSON := fs.Bool("json", false, "print the list as JSON")
	if code, done := parseNoArgs(e, fs, args); done {
		return code
	}
	reg := builtinRegistry()
	if *asJSON {
		data, _ := json.MarshalIndent(reg.All(), "", "  ")
		fmt.Fprintf(e.stdout, "%s\n", data)
		return exitOK
	}
	for i, c := range reg.All() {
		if i > 0 {
			fmt.Fprintln(e.stdout)
		}
		fmt.Fprintf(e.stdout, "%s (version %s)%s\n  %s\n", c.ID, c.Version, hints(c.Annotations), c.Description)
		printParams(e, "input", c.Input, true)
		printParams(e, "output", c.Output, false)
	}
	return exitOK
}

func hints(a capability.Annotations) string {
	var h []string
	for _, hint := range []struct {
		on   bool
		name string
	}{{a.ReadOnly, "read-only"}, {a.IsDestructive(), "destructive"}, {a.Idempotent, "idempotent"}, {a.IsOpenWorld(), "open-world"}} {
		if hint.on {
			h = append(h, hint.name)
		}
	}
	if len(h) == 0 {
		return ""
	}
	return " [" + strings.Join(h, ", ") + "]"
}

func printParams(e *env, kind string, params []capability.Param, showRequired bool) {
	if len(params) == 0 {
		fmt.Fprintf(e.stdout, "  %s: none\n", kind)
		return
	}
	fmt.Fprintf(e.stdout, "  %s:\n", kind)
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	for _, p := range params {
		req := ""
		if showRequired {
			req = "optional"
			if p.Required {
				req = "required"
			}
		}
		fmt.Fprintf(tw, "    %s\t%s\t%s\t%s\n", p.Name, p.Type, req, p.Description)
	}
	tw.Flush()
}
