package io.github.mobilemcp.client;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.Test;

/**
 * The client library is for other apps: it may use the Android framework (with org.json and
 * org.xmlpull, which Android ships), the JDK, the protocol vocabulary it shares with tools
 * (io.github.mobilemcp.ErrorCode and Consent) and JSpecify's nullness annotations, and nothing of
 * this app, of gobind or of any other library. Its module depends on nothing else in either build
 * but, at compile time only, Kotlin's standard library for the opt-in annotation
 * ({@code kotlin.RequiresOptIn} on ProviderFormatApi, written out in full, never imported); this
 * test says so from the source as well.
 */
public class DependenciesTest {
    private static final Pattern IMPORT = Pattern.compile("^import\\s+(?:static\\s+)?([\\w.]+)", Pattern.MULTILINE);
    private static final List<String> ALLOWED = List.of("android.", "java.", "org.json.", "org.xmlpull.v1.", "org.jspecify.annotations.",
            "io.github.mobilemcp.ErrorCode", "io.github.mobilemcp.Consent");

    @Test
    public void theClientImportsOnlyTheFrameworkAndTheJdk() throws IOException {
        Path sources = Paths.get("src/main/java/io/github/mobilemcp/client"); // Maven runs tests in client/
        List<String> bad = new ArrayList<>();
        int files = 0;
        try (Stream<Path> list = Files.list(sources)) {
            for (Path file : (Iterable<Path>) list::iterator) {
                files++;
                String text = Files.readString(file);
                Matcher m = IMPORT.matcher(text);
                while (m.find()) {
                    String name = m.group(1);
                    if (ALLOWED.stream().noneMatch(name::startsWith)) {
                        bad.add(file.getFileName() + ": " + name);
                    }
                }
                assertTrue(file + " is not in the client's package", text.contains("package io.github.mobilemcp.client;"));
                assertTrue(file + " names the app's package", !text.contains("io.github.mobilemcp.app") && !text.contains("intentbridge"));
            }
        }
        assertEquals(List.of(), bad);
        assertTrue("found only " + files + " files in " + sources.toAbsolutePath(), files >= 10);
    }
}
