package io.github.mobilemcp.sdk;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.github.mobilemcp.client.MobileMcpClient;
import io.github.mobilemcp.client.Mode;
import io.github.mobilemcp.client.Reply;
import io.github.mobilemcp.sdk.internal.EngineAccess;
import io.github.mobilemcp.sdk.testing.McpToolRule;

import java.lang.reflect.Modifier;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.jspecify.annotations.NullMarked;
import org.junit.Test;

/**
 * Every public class of the three libraries (the Tool SDK with its internal package, the client
 * library and the testing library) is in a {@code @NullMarked} package, so Kotlin and nullness checkers read its types as
 * JSpecify says: never null unless {@code @Nullable}. The app's tests are the ones that see all three
 * libraries, so the test lives with them. JSpecify's annotations are kept at run time, so reflection
 * reads them as a compiler does from the class files.
 */
public class NullMarkedTest {
    @Test
    public void everyPublicClassOfTheLibrariesIsInANullMarkedPackage() throws Exception {
        List<String> found = new ArrayList<>();
        List<String> unmarked = new ArrayList<>();
        for (Class<?> anchor : List.of(ToolResult.class, EngineAccess.class, Reply.class, McpToolRule.class)) {
            for (Class<?> c : publicClasses(anchor)) {
                found.add(c.getName());
                if (!c.getPackage().isAnnotationPresent(NullMarked.class)) {
                    unmarked.add(c.getName());
                }
            }
        }
        assertEquals(List.of(), unmarked);
        // The search found each package's classes, nested ones included.
        for (Class<?> c : List.of(ToolResult.class, ToolSettings.Caller.class, EngineAccess.class, Reply.class, Mode.class, McpToolRule.class)) {
            assertTrue(c.getName() + " is not among " + found, found.contains(c.getName()));
        }
    }

    /** The public classes of anchor's package, from the directory or jar that anchor was loaded from. */
    private static List<Class<?>> publicClasses(Class<?> anchor) throws Exception {
        String pkg = anchor.getPackage().getName();
        Path location = Paths.get(anchor.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<Class<?>> classes = new ArrayList<>();
        try (FileSystem jar = Files.isDirectory(location) ? null : FileSystems.newFileSystem(location);
                Stream<Path> files = Files.list((jar == null ? location : jar.getPath("/")).resolve(pkg.replace('.', '/')))) {
            for (Path file : (Iterable<Path>) files::iterator) {
                String name = file.getFileName().toString();
                if (name.endsWith(".class") && !name.equals("package-info.class")) {
                    Class<?> c = Class.forName(pkg + "." + name.substring(0, name.length() - ".class".length()), false,
                            anchor.getClassLoader());
                    if (Modifier.isPublic(c.getModifiers())) {
                        classes.add(c);
                    }
                }
            }
        }
        return classes;
    }
}
