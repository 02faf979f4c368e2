package io.github.mobilemcp.sdk.testing;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;

import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** How the test runner finds the host engine, and what it says when it cannot. */
public class HostEngineTest {
    @Rule public final TemporaryFolder cache = new TemporaryFolder();

    /**
     * Test JVMs that start at once (Gradle's parallel forks, two modules' tests) extract the engine
     * into one cache without seeing half a library: four real processes on an empty cache all find
     * the whole library in one place, and leave no temporary file behind.
     */
    @Test
    public void jvmsExtractingAtOnceAllGetTheWholeLibrary() throws Exception {
        String platform = HostEngine.platform(System.getProperty("os.name"), System.getProperty("os.arch"));
        String dir = "io/github/mobilemcp/sdk/testing/engine/" + platform + "/";
        String recorded = new String(getClass().getClassLoader()
                .getResourceAsStream(dir + System.mapLibraryName("gojni") + ".sha256").readAllBytes(), StandardCharsets.UTF_8).trim();
        List<Process> jvms = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            ProcessBuilder jvm = new ProcessBuilder(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), ExtractEngine.class.getName());
            jvm.environment().remove("LOCALAPPDATA");
            jvm.environment().put("XDG_CACHE_HOME", cache.getRoot().toString());
            jvm.redirectErrorStream(true);
            jvms.add(jvm.start());
        }
        List<String> found = new ArrayList<>();
        for (Process jvm : jvms) {
            String out = new String(jvm.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            assertEquals(true, jvm.waitFor(60, TimeUnit.SECONDS));
            assertEquals(out, 0, jvm.exitValue());
            found.add(out);
        }
        String build = new String(getClass().getClassLoader().getResourceAsStream(dir + "build-id").readAllBytes(),
                StandardCharsets.UTF_8).trim();
        Path library = cache.getRoot().toPath().resolve("mobilemcp/engine").resolve(build).resolve(platform)
                .resolve(System.mapLibraryName("gojni"));
        for (String out : found) {
            assertEquals(library + " " + recorded, out);
        }
        assertEquals(List.of(library), files(cache.getRoot().toPath()));
    }

    private static List<Path> files(Path root) throws IOException {
        try (Stream<Path> all = Files.walk(root)) {
            return all.filter(Files::isRegularFile).collect(Collectors.toList());
        }
    }

    @Test
    public void platformsAreNamedAsTheReleaseNamesThem() {
        assertEquals("linux-x86_64", HostEngine.platform("Linux", "amd64"));
        assertEquals("linux-aarch64", HostEngine.platform("Linux", "aarch64"));
        assertEquals("macos-aarch64", HostEngine.platform("Mac OS X", "aarch64"));
        assertEquals("macos-x86_64", HostEngine.platform("Mac OS X", "x86_64"));
        assertEquals("windows-x86_64", HostEngine.platform("Windows 11", "amd64"));
        assertEquals("freebsd-x86_64", HostEngine.platform("FreeBSD", "amd64"));
    }

    @Test
    public void aMachineWithoutAnEngineIsNamedWithTheOverride() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> HostEngine.library(HostEngineTest.class.getClassLoader(), "FreeBSD", "amd64", null));
        assertEquals("the mobilemcp testing library has no engine for this machine, FreeBSD on amd64 (freebsd-x86_64); "
                + "it has engines for linux-x86_64, linux-aarch64, macos-x86_64, macos-aarch64, windows-x86_64 where the release "
                + "built them. Build one for this machine with scripts/host-engine.sh freebsd-x86_64 OUTDIR in a mobilemcp checkout, "
                + "and name it with -Dmobilemcp.hostEngine=OUTDIR/io/github/mobilemcp/sdk/testing/engine/freebsd-x86_64/libgojni.so",
                e.getMessage());
    }

    @Test
    public void anOverrideThatNamesNoFileSaysSo() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> HostEngine.library(HostEngineTest.class.getClassLoader(), "Linux", "amd64", "/no/such/libgojni.so"));
        assertEquals("-Dmobilemcp.hostEngine=/no/such/libgojni.so names no file", e.getMessage());
    }

    @Test
    public void engineFromAnotherBuildIsRefusedNamingBoth() {
        HostEngine.checkSameBuild("abc123", "abc123");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> HostEngine.checkSameBuild("abc123", "def456"));
        assertEquals("the host engine comes from build def456, but the sdk's engines from build abc123: "
                + "use sdk and sdk-testing of the same version", e.getMessage());
    }
}
