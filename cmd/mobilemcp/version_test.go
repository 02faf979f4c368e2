package main

import "testing"

func TestVersion(t *testing.T) {
	c := newCLI(t)
	// A test binary records no version and no commit; the release build
	// sets both (ci/pipeline_test.sh runs one).
	if code, out, errOut := c.run("", "version"); code != exitOK || out != "mobilemcp devel (build unknown)\n" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if code, _, errOut := c.run("", "version", "extra"); code != exitUsage || errOut == "" {
		t.Errorf("an argument: exit %d, stderr %q; want a usage error", code, errOut)
	}
}
