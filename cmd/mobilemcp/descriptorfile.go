package main

import (
	"flag"
	"fmt"

	"github.com/mobilemcp/mobilemcp/engine/capability"
	"github.com/mobilemcp/mobilemcp/engine/descriptor"
	"github.com/mobilemcp/mobilemcp/engine/descriptor/xmlfile"
	"github.com/mobilemcp/mobilemcp/internal/text"
)

// readDescriptor lints and parses the descriptor at path, which flagName
// gives (or "" for an argument), for the command fs names. Findings go to stderr; errors stop the command, with exit
// status code (a usage error for a file that does not exist).
func readDescriptor(e *env, fs *flag.FlagSet, flagName, path string) (file *descriptor.File, code int, ok bool) {
	if code, ok := checkExists(e, fs, flagName, path); !ok {
		return nil, code, false
	}
	data, err := xmlfile.ReadFile(path)
	if err != nil {
		fmt.Fprintf(e.stderr, "mobilemcp %s: %v\n", fs.Name(), err)
		return nil, exitFailure, false
	}
	findings := xmlfile.Lint(path, data, nil)
	for _, f := range findings {
		fmt.Fprintln(e.stderr, f)
	}
	if errs, _ := count(findings); errs > 0 {
		fmt.Fprintf(e.stderr, "mobilemcp %s: %s has %s; fix the descriptor first\n", fs.Name(), path, text.Plural(errs, "error"))
		return nil, exitFailure, false
	}
	file, err = xmlfile.Parse(data)
	if err != nil {
		fmt.Fprintf(e.stderr, "mobilemcp %s: %s: %v\n", fs.Name(), path, err)
		return nil, exitFailure, false
	}
	return file, exitOK, true
}

// descriptorRegistry is the registry a descriptor declares, without
// handlers: enough to validate requests against it.
func descriptorRegistry(file *descriptor.File) (*capability.Registry, error) {
	caps := file.Capabilities()
	values := make([]capability.Capability, len(caps))
	for i, c := range caps {
		values[i] = *c
	}
	return capability.NewRegistry(values...)
}
