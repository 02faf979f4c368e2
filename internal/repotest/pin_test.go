package repotest

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/ from gobind's Java")

// The bound packages, each with the packages gobind must bind beside it
// for its signatures (smsapp's name intentbridge's types), as the engines
// are built (scripts/engine-glue.sh).
var bound = []struct {
	golden, javaPackage string
	pkgs                []string
}{
	{"testdata/intentbridge.txt", "io.github.mobilemcp.intentbridge", []string{"./intentbridge"}},
	{"testdata/smsapp.txt", "io.github.mobilemcp.smsapp", []string{"./intentbridge", "./smsapp"}},
}

// What gobind makes of intentbridge is the Java every tool app's sdk
// compiles against, and of smsapp what the SMS app does: each changes only
// on purpose, with its listing. It runs gobind, so a -short run skips it.
func TestBoundJava(t *testing.T) {
	if testing.Short() {
		t.Skip("runs gobind")
	}
	gomod, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		t.Fatalf("go env GOMOD: %v", err)
	}
	root := filepath.Dir(strings.TrimSpace(string(gomod)))
	for _, b := range bound {
		t.Run(b.javaPackage, func(t *testing.T) {
			java, err := Generate(root, b.pkgs...)
			if err != nil {
				t.Fatal(err)
			}
			defer os.RemoveAll(filepath.Dir(java))
			got, err := List(java, b.javaPackage)
			if err != nil {
				t.Fatal(err)
			}
			if *update {
				if err := os.WriteFile(b.golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(b.golden)
			if err != nil {
				t.Fatal(err)
			}
			if d := Diff(string(want), got); d != "" {
				t.Errorf("the Java that gobind makes of %s, which the Android modules compile against, differs from %s (- the file, + gobind's):\n%s"+
					"if the change is meant, run go test ./internal/repotest -run TestBoundJava -update and commit %s",
					b.pkgs[len(b.pkgs)-1], b.golden, d, b.golden)
			}
		})
	}
}
