package adb_test

import (
	"context"
	"errors"
	"testing"

	"github.com/mobilemcp/mobilemcp/cmd/mobilemcp/internal/adb"
	"github.com/mobilemcp/mobilemcp/cmd/mobilemcp/internal/adb/adbtest"
)

func TestInstall(t *testing.T) {
	ctx := context.Background()
	ok := &adb.Device{Runner: &adbtest.Fake{Outputs: map[string]string{"install -r app.apk": "Performing Streamed Install\nSuccess\n"}}}
	if err := ok.Install(ctx, "app.apk"); err != nil {
		t.Errorf("a successful install failed: %v", err)
	}
	// Old adb versions print the failure and exit 0.
	refused := &adb.Device{Runner: &adbtest.Fake{Outputs: map[string]string{"install -r app.apk": "Performing Streamed Install\nFailure [INSTALL_FAILED_UPDATE_INCOMPATIBLE: signatures do not match]\n"}}}
	want := "installing app.apk: Failure [INSTALL_FAILED_UPDATE_INCOMPATIBLE: signatures do not match]"
	if err := refused.Install(ctx, "app.apk"); err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
	missing := &adb.Device{Runner: &adbtest.Fake{Errors: map[string]error{"install": errors.New("adb install -r app.apk: exit status 1: adb: failed to stat app.apk: No such file or directory")}}}
	if err := missing.Install(ctx, "app.apk"); err == nil {
		t.Error("installing a missing APK succeeded")
	}
}

func TestPackagePath(t *testing.T) {
	ctx := context.Background()
	d := &adb.Device{Serial: "R58M", Runner: &adbtest.Fake{Outputs: map[string]string{
		"-s R58M shell pm path 'io.github.mobilemcp.app'": "package:/data/app/~~a/io.github.mobilemcp.app-b/base.apk\npackage:/data/app/~~a/io.github.mobilemcp.app-b/split_config.arm64_v8a.apk\n",
	}}}
	if path, err := d.PackagePath(ctx, "io.github.mobilemcp.app"); err != nil || path != "/data/app/~~a/io.github.mobilemcp.app-b/base.apk" {
		t.Errorf("path %q, error %v", path, err)
	}
	none := &adb.Device{Runner: &adbtest.Fake{}}
	want := `io.github.mobilemcp.app is not installed on the device (pm path printed "")`
	if _, err := none.PackagePath(ctx, "io.github.mobilemcp.app"); err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
}
