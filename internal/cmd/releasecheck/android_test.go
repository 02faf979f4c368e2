package main

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/mobilemcp/mobilemcp/internal/nativelib"
	"github.com/mobilemcp/mobilemcp/internal/testkit"
)

// TestAndroidGoodSetPasses: every AAR the Gradle build publishes and both APKs, as AGP builds them,
// pass every check, each AAR held to what its artifact carries.
func TestAndroidGoodSetPasses(t *testing.T) {
	fakeZipalign(t)
	artifacts := aarArtifacts(t)
	out, failed := gate(options{android: writeAndroid(t, artifacts, nil)})
	if failed {
		t.Fatalf("the good set fails:\n%s", out)
	}
	for _, want := range []string{
		"PASS  sdk-1.2.0.aar: engine ", "PASS  sdk-1.2.0.aar: consumer rules ", "PASS  sdk-1.2.0.aar: LICENSE ",
		"PASS  sdk-1.2.0.aar: api.jar ",
		"PASS  mobilemcp-app-1.2.0.apk: engine ", "PASS  mobilemcp-notes-1.2.0.apk: zipalign -c -P 16 ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no line %q in:\n%s", want, out)
		}
	}
	for _, a := range artifacts {
		for _, check := range []string{"layout", "LICENSE"} {
			if want := "PASS  " + a + "-1.2.0.aar: " + check + " "; !strings.Contains(out, want) {
				t.Errorf("no line %q in:\n%s", want, out)
			}
		}
	}
}

// TestAndroidNonEngineAARsPass: the AARs that carry no engine pass on their own (the gate once held
// every AAR to the sdk's engine and rules), and only the sdk is held to carry the engine.
func TestAndroidNonEngineAARsPass(t *testing.T) {
	fakeZipalign(t)
	var others []string
	for _, a := range aarArtifacts(t) {
		if a != EngineAAR {
			others = append(others, a)
		}
	}
	if len(others) < 4 {
		t.Fatalf("the Gradle build publishes %v as AARs: where are client, client-ktx, sdk-ktx and sdk-testing?", others)
	}
	dir := writeAndroid(t, others, map[string][]byte{"mobilemcp-app-1.2.0.apk": nil, "mobilemcp-notes-1.2.0.apk": nil})
	out, failed := gate(options{android: dir})
	if failed {
		t.Fatalf("the AARs without the engine fail:\n%s", out)
	}
	for _, a := range others {
		if want := "PASS  " + a + "-1.2.0.aar: no natives "; !strings.Contains(out, want) {
			t.Errorf("no line %q in:\n%s", want, out)
		}
	}

	dir = writeAndroid(t, []string{EngineAAR}, map[string][]byte{"sdk-1.2.0.aar": goodAAR("sdk").without("jni/").zip()})
	out, failed = gate(options{android: dir})
	if !failed || !strings.Contains(out, "FAIL  sdk-1.2.0.aar: engine ") {
		t.Errorf("an sdk AAR without the engine passes:\n%s", out)
	}
}

// TestAndroidBrokenFixtures: each broken artifact fails its check, with one line that names the
// artifact and the check, and every other check still passes.
func TestAndroidBrokenFixtures(t *testing.T) {
	fakeZipalign(t)
	classesWithLib := jar("META-INF/MANIFEST.MF", "Manifest-Version: 1.0\n", "lib/x86_64/libmobilemcp.so", "\x7fELF")
	apkWithout := func(abi string) []byte {
		var entries []testkit.Entry
		for _, e := range goodAPK() {
			if !strings.Contains(e.Name, "/"+abi+"/") {
				entries = append(entries, e)
			}
		}
		return testkit.Zip(entries, nativelib.PageAlign)
	}
	tests := []struct {
		name    string
		replace map[string][]byte
		check   string // the artifact and the check that fails
		message string // the start of its message
	}{
		{"an sdk AAR without the engine", map[string][]byte{"sdk-1.2.0.aar": goodAAR("sdk").without("jni/").zip()},
			"sdk-1.2.0.aar: engine", "no jni/arm64-v8a/libmobilemcp.so\nno jni/armeabi-v7a/libmobilemcp.so\nno jni/x86/libmobilemcp.so\nno jni/x86_64/libmobilemcp.so"},
		{"an sdk AAR without one ABI", map[string][]byte{"sdk-1.2.0.aar": goodAAR("sdk").without("jni/x86/").zip()},
			"sdk-1.2.0.aar: engine", "no jni/x86/libmobilemcp.so"},
		{"an sdk AAR with a 4 KB-aligned engine", map[string][]byte{"sdk-1.2.0.aar": goodAAR("sdk").set("jni/armeabi-v7a/libmobilemcp.so", testkit.ELF(0x1000)).zip()},
			"sdk-1.2.0.aar: engine", "jni/armeabi-v7a/libmobilemcp.so has a LOAD segment aligned to 0x1000, below the 16 KB"},
		{"an sdk AAR with a stray native beside the engine", map[string][]byte{"sdk-1.2.0.aar": goodAAR("sdk").set("jni/x86_64/libc++_shared.so", testkit.ELF(0x4000)).zip()},
			"sdk-1.2.0.aar: engine", "jni/x86_64/libc++_shared.so beside the engine: the sdk carries the engine alone"},
		{"an sdk AAR without consumer rules", map[string][]byte{"sdk-1.2.0.aar": goodAAR("sdk").without("proguard.txt").zip()},
			"sdk-1.2.0.aar: consumer rules", "no proguard.txt: an app that shrinks its code would strip the classes the engine calls by name"},
		{"an sdk AAR whose rules keep only the bridge", map[string][]byte{"sdk-1.2.0.aar": goodAAR("sdk").set("proguard.txt", []byte("-keep class io.github.mobilemcp.intentbridge.** { *; }\n")).zip()},
			`sdk-1.2.0.aar: consumer rules`, `proguard.txt has no "-keep class io.github.mobilemcp.engine.go.**"`},
		{"an sdk AAR without api.jar", map[string][]byte{"sdk-1.2.0.aar": goodAAR("sdk").without("api.jar").zip()},
			"sdk-1.2.0.aar: api.jar", "no api.jar at the AAR's root: a tool app would compile against the engine's classes in libs/ too"},
		{"an sdk AAR whose api.jar holds an intentbridge class", map[string][]byte{"sdk-1.2.0.aar": goodAAR("sdk").set("api.jar", apiJar("io/github/mobilemcp/intentbridge/Bridge.class", "\xca\xfe\xba\xbe")).zip()},
			"sdk-1.2.0.aar: api.jar", "api.jar holds 1 of the engine's classes, such as io/github/mobilemcp/intentbridge/Bridge.class: a tool app would compile against the engine"},
		{"an sdk AAR whose api.jar holds the engine's Seq", map[string][]byte{"sdk-1.2.0.aar": goodAAR("sdk").set("api.jar", apiJar("io/github/mobilemcp/engine/go/Seq.class", "\xca\xfe\xba\xbe")).zip()},
			"sdk-1.2.0.aar: api.jar", "api.jar holds 1 of the engine's classes, such as io/github/mobilemcp/engine/go/Seq.class: a tool app would compile against the engine"},
		{"an sdk AAR whose api.jar holds none of the sdk", map[string][]byte{"sdk-1.2.0.aar": goodAAR("sdk").set("api.jar", jar("META-INF/MANIFEST.MF", "Manifest-Version: 1.0\n")).zip()},
			"sdk-1.2.0.aar: api.jar", "api.jar holds no io/github/mobilemcp/sdk/ class: a tool app would compile against none of the sdk"},
		{"an sdk AAR whose api.jar is no jar", map[string][]byte{"sdk-1.2.0.aar": goodAAR("sdk").set("api.jar", []byte("not a jar")).zip()},
			"sdk-1.2.0.aar: api.jar", "api.jar is not a jar: zip: not a valid zip file"},
		{"a client AAR with the engine", map[string][]byte{"client-1.2.0.aar": goodAAR("client").set("jni/arm64-v8a/libmobilemcp.so", testkit.ELF(0x4000)).zip()},
			"client-1.2.0.aar: no natives", "holds jni/arm64-v8a/libmobilemcp.so: only the sdk AAR carries a native library, the engine"},
		{"an sdk-ktx AAR with a native in its classes.jar", map[string][]byte{"sdk-ktx-1.2.0.aar": goodAAR("sdk-ktx").set("classes.jar", classesWithLib).zip()},
			"sdk-ktx-1.2.0.aar: no natives", "holds classes.jar!/lib/x86_64/libmobilemcp.so: only the sdk AAR carries"},
		{"an sdk-testing AAR with a native jar in libs/", map[string][]byte{"sdk-testing-1.2.0.aar": goodAAR("sdk-testing").set("libs/engine.jar", jar("linux-x86_64/libmobilemcp.so", "\x7fELF")).zip()},
			"sdk-testing-1.2.0.aar: no natives", "holds libs/engine.jar!/linux-x86_64/libmobilemcp.so"},
		{"a client-ktx AAR whose LICENSE AGP stripped", map[string][]byte{"client-ktx-1.2.0.aar": goodAAR("client-ktx").without("LICENSE").set("classes.jar", jar("META-INF/LICENSE", string(apacheLicense))).zip()},
			"client-ktx-1.2.0.aar: LICENSE", "no LICENSE at the AAR's root: the root build file adds it to every bundle<Variant>Aar"},
		{"an AAR with another license", map[string][]byte{"client-1.2.0.aar": goodAAR("client").set("LICENSE", []byte("MIT License\n")).zip()},
			"client-1.2.0.aar: LICENSE", "LICENSE at the AAR's root is not the Apache License 2.0 of the repository"},
		{"an AAR without R.txt", map[string][]byte{"sdk-ktx-1.2.0.aar": goodAAR("sdk-ktx").without("R.txt").zip()},
			"sdk-ktx-1.2.0.aar: layout", "no R.txt at the AAR's root, which AGP's AAR format requires"},
		{"an AAR whose classes.jar is no jar", map[string][]byte{"client-1.2.0.aar": goodAAR("client").set("classes.jar", []byte("not a jar")).zip()},
			"client-1.2.0.aar: layout", "classes.jar is not a jar: zip: not a valid zip file"},
		{"an AAR that is not a zip", map[string][]byte{"client-1.2.0.aar": []byte("PK? no")},
			"client-1.2.0.aar: layout", "client-1.2.0.aar is not a zip archive: "},
		{"an AAR no module publishes", map[string][]byte{"sdk-extras-1.2.0.aar": goodAAR("sdk-extras").zip()},
			"sdk-extras-1.2.0.aar: artifact", "sdk-extras-1.2.0.aar is none of the AARs the Gradle build publishes at 1.2.0 (client-1.2.0.aar, "},
		{"an APK without one ABI's engine", map[string][]byte{"mobilemcp-app-1.2.0.apk": apkWithout("x86")},
			"mobilemcp-app-1.2.0.apk: engine", "the APK has no lib/x86/libmobilemcp.so: it was not built for this device's ABI x86"},
		{"an APK whose engine is stored at 4 KB", map[string][]byte{"mobilemcp-notes-1.2.0.apk": testkit.Zip(goodAPK(), 4096+1)},
			"mobilemcp-notes-1.2.0.apk: engine", "lib/arm64-v8a/libmobilemcp.so is stored uncompressed at offset"},
		{"an APK zipalign refuses", map[string][]byte{"mobilemcp-app-1.2.0-unaligned.apk": testkit.Zip(goodAPK(), nativelib.PageAlign)},
			"mobilemcp-app-1.2.0-unaligned.apk: zipalign -c -P 16", ""},
	}
	artifacts := aarArtifacts(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, failed := gate(options{android: writeAndroid(t, artifacts, tt.replace)})
			fails := failLines(out)
			if !failed || len(fails) == 0 {
				t.Fatalf("it passes:\n%s", out)
			}
			want := fmt.Sprintf("FAIL  %-44s %s", tt.check, tt.message)
			if !strings.Contains(out, want) {
				t.Errorf("no FAIL line %q in:\n%s", want, out)
			}
			// One check fails: the one named.
			if len(fails) != 1 || !strings.HasPrefix(fails[0], fmt.Sprintf("FAIL  %-44s ", tt.check)) {
				t.Errorf("FAIL lines %q, want one of %s", fails, tt.check)
			}
		})
	}
}

// TestAndroidNothingToCheck: a directory without any AAR or APK fails.
func TestAndroidNothingToCheck(t *testing.T) {
	dir := t.TempDir()
	out, failed := gate(options{android: dir})
	if want := "FAIL  android"; !failed || !strings.Contains(out, want) || !strings.Contains(out, "no AAR or APK in "+dir) {
		t.Errorf("an empty directory: %s", out)
	}
}

// TestEngineAARIsPublished: the artifact held to carry the engine is one the Gradle build publishes
// as an AAR.
func TestEngineAARIsPublished(t *testing.T) {
	if !slices.Contains(aarArtifacts(t), EngineAAR) {
		t.Errorf("the gate holds %s to carry the engine, and the Gradle build publishes no such AAR: %v", EngineAAR, aarArtifacts(t))
	}
}
