package io.github.mobilemcp.sdk.testing;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** How the test runner finds the host engine, and what it says when it cannot. */
public class HostEngineTest {
    @Rule public final TemporaryFolder tmp = new TemporaryFolder();

    private static final String OS = System.getProperty("os.name");
    private static final String ARCH = System.getProperty("os.arch");
    private static final String PLATFORM = HostEngine.platform(OS, ARCH);

    private String recorded(String platform) throws IOException {
        return new String(getClass().getClassLoader().getResourceAsStream(HostEngine.resource(platform) + ".sha256")
                .readAllBytes(), StandardCharsets.UTF_8).trim();
    }

    private Path cache() {
        return tmp.getRoot().toPath().resolve("mobilemcp/engine");
    }

    /**
     * Test JVMs that start at once (Gradle's parallel forks, two modules' tests) each get a whole
     * library of their own: four real processes on an empty cache each find the checked library in
     * a place no other has, and leave nothing behind when they exit.
     */
    @Test
    public void jvmsStartingAtOnceEachGetTheWholeLibrary() throws Exception {
        List<Process> jvms = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            ProcessBuilder jvm = new ProcessBuilder(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), ExtractEngine.class.getName());
            jvm.environment().remove("LOCALAPPDATA");
            jvm.environment().put("XDG_CACHE_HOME", tmp.getRoot().toString());
            jvm.redirectErrorStream(true);
            jvms.add(jvm.start());
        }
        List<String> found = new ArrayList<>();
        for (Process jvm : jvms) {
            found.add(new BufferedReader(new InputStreamReader(jvm.getInputStream(), StandardCharsets.UTF_8)).readLine());
        }
        HashSet<Path> places = new HashSet<>();
        for (String out : found) {
            String[] parts = out.split(" ");
            assertEquals(out, recorded(PLATFORM), parts[1]);
            Path library = Path.of(parts[0]);
            assertEquals(cache(), library.getParent().getParent());
            assertEquals(HostEngine.libraryName(PLATFORM), library.getFileName().toString());
            places.add(library);
        }
        assertEquals(4, places.size());
        for (Process jvm : jvms) {
            jvm.getOutputStream().close();
            assertEquals(true, jvm.waitFor(60, TimeUnit.SECONDS));
            assertEquals(0, jvm.exitValue());
        }
        assertEquals(List.of(), files(tmp.getRoot().toPath()));
    }

    /**
     * Someone who can write to the cache plants a symlink where the cache kept the engine, after the
     * loader has checked the library: what the loader hands to System.load must still be the checked
     * library, byte for byte, and no symlink.
     */
    @Test
    public void aSymlinkPlantedInTheCacheAfterTheCheckIsNotWhatGetsLoaded() throws Exception {
        Path loaded = HostEngine.library(getClass().getClassLoader(), OS, ARCH, null, cache());
        Path evil = tmp.newFile("evil.so").toPath();
        Files.write(evil, "not the engine".getBytes(StandardCharsets.UTF_8));
        String build = new String(getClass().getClassLoader().getResourceAsStream(
                HostEngine.RESOURCES + PLATFORM + "/build-id").readAllBytes(), StandardCharsets.UTF_8).trim();
        // Where a loader that keeps one copy per build would keep it, and the file it returned.
        for (Path planted : List.of(cache().resolve(build).resolve(PLATFORM).resolve(HostEngine.libraryName(PLATFORM)),
                cache().resolve(HostEngine.libraryName(PLATFORM)))) {
            Files.createDirectories(planted.getParent());
            Files.deleteIfExists(planted);
            Files.createSymbolicLink(planted, evil);
        }
        assertEquals("the library the loader hands to System.load", recorded(PLATFORM), HostEngine.sha256(Files.readAllBytes(loaded)));
        assertEquals("the library the loader hands to System.load is a symlink", false, Files.isSymbolicLink(loaded));
    }

    /** The cache and the copy in it are this user's alone, even where the cache was open to all. */
    @Test
    public void theCacheIsOwnerOnly() throws Exception {
        Files.createDirectories(cache(), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxrwxrwx")));
        Files.setPosixFilePermissions(cache(), PosixFilePermissions.fromString("rwxrwxrwx"));
        Files.setPosixFilePermissions(cache().getParent(), PosixFilePermissions.fromString("rwxrwxrwx"));
        Path loaded = HostEngine.library(getClass().getClassLoader(), OS, ARCH, null, cache());
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(cache().getParent())));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(cache())));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(loaded.getParent())));
        assertEquals("r--------", PosixFilePermissions.toString(Files.getPosixFilePermissions(loaded)));
    }

    /** A cache directory that is a symlink (to a place someone else controls) is refused, not followed. */
    @Test
    public void aSymlinkedCacheIsRefused() throws Exception {
        Path elsewhere = tmp.newFolder("elsewhere").toPath();
        Files.createDirectories(cache().getParent());
        Files.createSymbolicLink(cache(), elsewhere);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> HostEngine.library(getClass().getClassLoader(), OS, ARCH, null, cache()));
        assertEquals("the engine cache " + cache() + " is not a directory (a symlink, or a file): remove it, "
                + "and the test runner makes a private one", e.getMessage());
        assertEquals(List.of(), files(elsewhere));
        assertTrue(Files.isSymbolicLink(cache()));
    }

    private static List<Path> files(Path root) throws IOException {
        try (Stream<Path> all = Files.walk(root)) {
            return all.filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)).collect(Collectors.toList());
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
        assertEquals("io/github/mobilemcp/sdk/testing/engine/linux-aarch64/libmobilemcp.so", HostEngine.resource("linux-aarch64"));
        assertEquals("io/github/mobilemcp/sdk/testing/engine/macos-aarch64/libmobilemcp.dylib", HostEngine.resource("macos-aarch64"));
        assertEquals("io/github/mobilemcp/sdk/testing/engine/windows-x86_64/mobilemcp.dll", HostEngine.resource("windows-x86_64"));
    }

    /**
     * The engine jar on this classpath names the platforms it holds, and the loader finds each of
     * them by the names Java gives the machine; the five the release builds are looked up by name,
     * and one the jar lacks (the macOS ones, built only on macOS runners) is named as missing.
     */
    @Test
    public void theLoaderFindsEveryPlatformTheEngineJarHolds() throws Exception {
        List<String> held = HostEngine.platforms(getClass().getClassLoader());
        assertTrue("the engine jar holds this machine's engine: " + held, held.contains(PLATFORM));
        String[][] machines = {{"Linux", "amd64"}, {"Linux", "aarch64"}, {"Mac OS X", "x86_64"}, {"Mac OS X", "aarch64"}, {"Windows 11", "amd64"}};
        List<String> names = new ArrayList<>();
        for (String[] m : machines) {
            String platform = HostEngine.platform(m[0], m[1]);
            names.add(platform);
            if (held.contains(platform)) {
                Path found = HostEngine.library(getClass().getClassLoader(), m[0], m[1], null, cache());
                assertEquals(platform, recorded(platform), HostEngine.sha256(Files.readAllBytes(found)));
                assertEquals(HostEngine.libraryName(platform), found.getFileName().toString());
            } else {
                IllegalStateException e = assertThrows(IllegalStateException.class,
                        () -> HostEngine.library(getClass().getClassLoader(), m[0], m[1], null, cache()));
                assertTrue(e.getMessage(), e.getMessage().contains("(" + platform + "); it has engines for " + String.join(", ", held) + "."));
            }
        }
        assertEquals(HostEngine.PLATFORMS, names);
        assertTrue("the engine jar names only platforms the release builds: " + held, HostEngine.PLATFORMS.containsAll(held));
    }

    @Test
    public void aMachineWithoutAnEngineIsNamedWithTheOverride() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> HostEngine.library(HostEngineTest.class.getClassLoader(), "FreeBSD", "amd64", null, cache()));
        assertEquals("the mobilemcp engine jar (io.github.mobilemcp:sdk-testing-engine) has no engine for this machine, FreeBSD on amd64 "
                + "(freebsd-x86_64); it has engines for " + String.join(", ", HostEngine.platforms(getClass().getClassLoader()))
                + ". Build one for this machine with scripts/host-engine.sh freebsd-x86_64 OUTDIR in a mobilemcp checkout, "
                + "and name it with -Dmobilemcp.hostEngine=OUTDIR", e.getMessage());
    }

    @Test
    public void anOverrideThatNamesNoFileSaysSo() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> HostEngine.library(HostEngineTest.class.getClassLoader(), "Linux", "amd64", "/no/such/libmobilemcp.so", cache()));
        assertEquals("-Dmobilemcp.hostEngine=/no/such/libmobilemcp.so names no file", e.getMessage());
    }

    /** The override may name the directory scripts/host-engine.sh wrote: the platform's engine in it is used. */
    @Test
    public void anOverrideDirectoryGivesThePlatformsEngine() throws Exception {
        Path dir = tmp.newFolder("out").toPath();
        Path lib = dir.resolve(HostEngine.resource("linux-aarch64"));
        Files.createDirectories(lib.getParent());
        Files.write(lib, new byte[] {1});
        assertEquals(lib, HostEngine.library(getClass().getClassLoader(), "Linux", "aarch64", dir.toString(), cache()));
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> HostEngine.library(getClass().getClassLoader(), "Linux", "amd64", dir.toString(), cache()));
        assertEquals("-Dmobilemcp.hostEngine=" + dir + " has no engine for this machine (linux-x86_64): no "
                + dir.resolve(HostEngine.resource("linux-x86_64")), e.getMessage());
        assertNotEquals(lib, dir);
    }

    @Test
    public void engineFromAnotherBuildIsRefusedNamingBoth() {
        HostEngine.checkSameBuild("abc123", "abc123");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> HostEngine.checkSameBuild("abc123", "def456"));
        assertEquals("the host engine comes from build def456, but the sdk's engines from build abc123: "
                + "use sdk and sdk-testing of the same version", e.getMessage());
    }
}
