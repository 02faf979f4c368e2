package io.github.mobilemcp.sdk.testing;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * An app that already holds another gomobile library can add the engine: both load in one JVM, in
 * one class loader with one library path as in an app's process, and both answer. With gobind's
 * own names the two would each bring go.Seq and libgojni.so, and one of them would be lost
 * (golang/go#56567).
 */
public class CoexistenceTest {
    @Test
    public void theEngineAndAnotherGomobileLibraryAnswerInOneJvm() throws Exception {
        String platform = HostEngine.platform(System.getProperty("os.name"), System.getProperty("os.arch"));
        // The other library, as scripts/host-engine.sh tests built it, and the engine, where the engine jar keeps it:
        // both directories on the library path, as an APK's lib/<abi>/ holds both files.
        Path other = Path.of(System.getProperty("mobilemcp.coexist")).resolve(HostEngine.RESOURCES + platform);
        Path engine = HostEngine.library(getClass().getClassLoader(), System.getProperty("os.name"), System.getProperty("os.arch"),
                null, Files.createTempDirectory("coexist").resolve("mobilemcp/engine")).getParent();
        ProcessBuilder jvm = new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.library.path=" + engine + File.pathSeparator + other,
                "-cp", System.getProperty("java.class.path"), Coexist.class.getName());
        jvm.redirectErrorStream(true);
        Process p = jvm.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertEquals(out, true, p.waitFor(60, TimeUnit.SECONDS));
        String build = new String(getClass().getClassLoader().getResourceAsStream(HostEngine.RESOURCES + platform + "/build-id")
                .readAllBytes(), StandardCharsets.UTF_8).trim();
        assertEquals("Hello, Gopher! | " + build, out);
        assertEquals(0, p.exitValue());
    }
}
