package io.github.mobilemcp.sdk.testing;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A test JVM that finds the host engine as McpTestRunner does, prints where it is and the SHA-256
 * of what is there, and exits when its standard input closes (its copy of the engine goes with it):
 * HostEngineTest starts several at once.
 */
public final class ExtractEngine {
    private ExtractEngine() {}

    public static void main(String[] args) throws Exception {
        Path library = HostEngine.library(ExtractEngine.class.getClassLoader(),
                System.getProperty("os.name"), System.getProperty("os.arch"), null, HostEngine.cacheDir());
        System.out.println(library + " " + HostEngine.sha256(Files.readAllBytes(library)));
        System.out.flush();
        System.in.readAllBytes();
    }
}
