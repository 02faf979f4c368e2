package main

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mobilemcp/mobilemcp/internal/nativelib"
)

// aarEntries are the entries AGP's AAR format requires at the root of every AAR
// (http://tools.android.com/tech-docs/new-build-system/aar-format) that every library here has;
// res/ is required too, but a library without resources has none to hold.
var aarEntries = []string{"AndroidManifest.xml", "classes.jar", "R.txt"}

// engineLib is the engine's library in each ABI's directory: jni/<abi>/ in an AAR, lib/<abi>/ in
// an APK.
const engineLib = "libmobilemcp.so"

// consumerRules are what the sdk's proguard.txt must keep: gobind's classes, which JNI reaches by
// name, so that an app that shrinks its code keeps them.
var consumerRules = []string{"-keep class io.github.mobilemcp.engine.go.**", "-keep class io.github.mobilemcp.intentbridge.**"}

// sdkClasses is where the sdk's own classes live; engineClasses where gobind's do, the engine's
// Java, which the sdk AAR carries in libs/ for run time only.
const sdkClasses = "io/github/mobilemcp/sdk/"

var engineClasses = []string{"io/github/mobilemcp/engine/go/", "io/github/mobilemcp/intentbridge/"}

// android checks the AGP-built AARs and APKs in dir, each against what its artifact must carry.
func (c *checker) android(dir, version string, pubs map[string]publication) {
	aars, _ := filepath.Glob(filepath.Join(dir, "*.aar"))
	apks, _ := filepath.Glob(filepath.Join(dir, "*.apk"))
	if len(aars)+len(apks) == 0 {
		c.report("android", "", fmt.Errorf("no AAR or APK in %s", dir))
		return
	}
	byFile := map[string]publication{}
	var published []string
	for _, a := range sortedArtifacts(pubs) {
		if pubs[a].Packaging == "aar" {
			byFile[a+"-"+version+".aar"] = pubs[a]
			published = append(published, a+"-"+version+".aar")
		}
	}
	for _, aar := range aars {
		name := filepath.Base(aar)
		pub, ok := byFile[name]
		if !ok {
			c.report(name+": artifact", "", fmt.Errorf("%s is none of the AARs the Gradle build publishes at %s (%s)", name, version, strings.Join(published, ", ")))
			continue
		}
		r, err := zip.OpenReader(aar)
		if err != nil {
			c.report(name+": layout", "", fmt.Errorf("%s is not a zip archive: %v", name, err))
			continue
		}
		files := map[string]*zip.File{}
		for _, f := range r.File {
			files[f.Name] = f
		}
		c.report(name+": layout", strings.Join(aarEntries, ", ")+", as AGP writes an AAR", checkAARLayout(files))
		c.report(name+": LICENSE", "LICENSE at the AAR's root", checkAARLicense(files))
		if pub.Artifact == EngineAAR {
			c.report(name+": engine", "jni/<abi>/"+engineLib+" for "+strings.Join(nativelib.ABIs, ", ")+", LOAD segments at 16 KB, nothing else in jni/",
				checkAAREngine(files))
			c.report(name+": consumer rules", "proguard.txt keeps the engine's classes", checkConsumerRules(files))
			c.report(name+": api.jar", "api.jar at the root holds the sdk's classes and none of the engine's, so that the engine stays off a tool app's compile classpath",
				checkAPIJar(files))
		} else {
			c.report(name+": no natives", "no engine and no other native library, in the AAR or its jars", checkAARNoNatives(files))
		}
		r.Close()
	}
	for _, apk := range apks {
		name := filepath.Base(apk)
		data, err := os.ReadFile(apk)
		if err == nil {
			var errs []error
			for _, abi := range nativelib.ABIs {
				errs = append(errs, nativelib.CheckAPK(data, abi, engineLib))
			}
			err = errors.Join(errs...)
		}
		c.report(name+": engine", "lib/<abi>/"+engineLib+" for the four ABIs, LOAD segments and stored data at 16 KB", err)
		c.report(name+": zipalign -c -P 16", "every uncompressed library at 16 KB in the APK", checkZipalign(apk))
	}
}

func checkAARLayout(files map[string]*zip.File) error {
	var missing []string
	for _, e := range aarEntries {
		if _, ok := files[e]; !ok {
			missing = append(missing, e)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("no %s at the AAR's root, which AGP's AAR format requires", strings.Join(missing, " or "))
	}
	data, err := readZipFile(files["classes.jar"])
	if err == nil {
		_, err = zip.NewReader(bytes.NewReader(data), int64(len(data)))
	}
	if err != nil {
		return fmt.Errorf("classes.jar is not a jar: %v", err)
	}
	return nil
}

// checkAARLicense: the build puts LICENSE at the AAR's root, where AGP keeps it; AGP drops
// META-INF/LICENSE from a library's classes.jar (its default packaging excludes).
func checkAARLicense(files map[string]*zip.File) error {
	f, ok := files["LICENSE"]
	if !ok {
		return errors.New("no LICENSE at the AAR's root: the root build file adds it to every bundle<Variant>Aar")
	}
	text, err := readZipFile(f)
	if err != nil {
		return err
	}
	if !bytes.Contains(text, []byte("Apache License")) || !bytes.Contains(text, []byte("Version 2.0")) {
		return errors.New("LICENSE at the AAR's root is not the Apache License 2.0 of the repository")
	}
	return nil
}

// checkAAREngine: the sdk AAR carries the engine for every ABI, each aligned for 16 KB pages, and
// no other native library.
func checkAAREngine(files map[string]*zip.File) error {
	var errs []error
	want := map[string]bool{}
	for _, abi := range nativelib.ABIs {
		name := "jni/" + abi + "/" + engineLib
		want[name] = true
		f, ok := files[name]
		if !ok {
			errs = append(errs, fmt.Errorf("no %s", name))
			continue
		}
		data, err := readZipFile(f)
		if err == nil {
			err = nativelib.CheckELF(bytes.NewReader(data), name)
		}
		errs = append(errs, err)
	}
	for _, name := range slices.Sorted(maps.Keys(files)) {
		if strings.HasPrefix(name, "jni/") && !strings.HasSuffix(name, "/") && !want[name] {
			errs = append(errs, fmt.Errorf("%s beside the engine: the sdk carries the engine alone", name))
		}
	}
	return errors.Join(errs...)
}

func checkConsumerRules(files map[string]*zip.File) error {
	f, ok := files["proguard.txt"]
	if !ok {
		return errors.New("no proguard.txt: an app that shrinks its code would strip the classes the engine calls by name")
	}
	rules, err := readZipFile(f)
	if err != nil {
		return err
	}
	for _, rule := range consumerRules {
		if !bytes.Contains(rules, []byte(rule)) {
			return fmt.Errorf("proguard.txt has no %q: an app that shrinks its code would strip classes the engine calls by name", rule)
		}
	}
	return nil
}

// checkAPIJar: an app that depends on an AAR compiles against its api.jar alone when the AAR has
// one at its root, and otherwise against classes.jar and every libs/*.jar merged (AGP's rule), the
// engine's jar among them. The sdk's api.jar holds its own classes and none of the engine's.
func checkAPIJar(files map[string]*zip.File) error {
	f, ok := files["api.jar"]
	if !ok {
		return errors.New("no api.jar at the AAR's root: a tool app would compile against the engine's classes in libs/ too")
	}
	data, err := readZipFile(f)
	if err != nil {
		return fmt.Errorf("api.jar: %v", err)
	}
	jar, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return fmt.Errorf("api.jar is not a jar: %v", err)
	}
	var engine []string
	sdk := false
	for _, e := range jar.File {
		if !strings.HasSuffix(e.Name, ".class") {
			continue
		}
		sdk = sdk || strings.HasPrefix(e.Name, sdkClasses)
		if slices.ContainsFunc(engineClasses, func(prefix string) bool { return strings.HasPrefix(e.Name, prefix) }) {
			engine = append(engine, e.Name)
		}
	}
	var errs []error
	if len(engine) > 0 {
		errs = append(errs, fmt.Errorf("api.jar holds %d of the engine's classes, such as %s: a tool app would compile against the engine", len(engine), engine[0]))
	}
	if !sdk {
		errs = append(errs, fmt.Errorf("api.jar holds no %s class: a tool app would compile against none of the sdk", sdkClasses))
	}
	return errors.Join(errs...)
}

// checkAARNoNatives: an AAR other than the sdk carries no native library: not in jni/, nor
// anywhere else in it or in its jars (classes.jar, libs/*.jar).
func checkAARNoNatives(files map[string]*zip.File) error {
	var found []string
	for _, name := range slices.Sorted(maps.Keys(files)) {
		switch {
		case strings.HasSuffix(name, "/"):
		case strings.HasPrefix(name, "jni/") || isNative(name):
			found = append(found, name)
		case strings.HasSuffix(name, ".jar"):
			data, err := readZipFile(files[name])
			if err != nil {
				return fmt.Errorf("%s: %v", name, err)
			}
			jar, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
			if err != nil && name == "classes.jar" {
				continue // the layout check reports it
			}
			if err != nil {
				return fmt.Errorf("%s is not a jar: %v", name, err)
			}
			for _, f := range jar.File {
				if isNative(f.Name) {
					found = append(found, name+"!/"+f.Name)
				}
			}
		}
	}
	if len(found) > 0 {
		return fmt.Errorf("holds %s: only the %s AAR carries a native library, the engine", strings.Join(found, ", "), EngineAAR)
	}
	return nil
}

// checkZipalign runs the build-tools' zipalign ($ZIPALIGN, else zipalign on PATH) on the APK.
func checkZipalign(apk string) error {
	zipalign := os.Getenv("ZIPALIGN")
	if zipalign == "" {
		zipalign = "zipalign"
	}
	out, err := exec.Command(zipalign, "-c", "-P", "16", "4", apk).CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s -c -P 16 4 %s: %v: %s", zipalign, filepath.Base(apk), err, lastLine(out))
	}
	return nil
}
