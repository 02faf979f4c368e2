package io.github.mobilemcp.sdk.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * The SDK's engine for a desktop JVM: the native library that the engine jar
 * ({@code io.github.mobilemcp:sdk-testing-engine}) carries for each platform, loaded once per JVM, in
 * a class loader of its own that the Robolectric sandboxes share (see {@link McpTestRunner}).
 *
 * <p>The library for the running OS and architecture is checked against the SHA-256 the jar records
 * beside it, then written to a fresh file that only this user can reach, in a directory of its own
 * under the cache ({@code ~/.cache/mobilemcp/engine}, or {@code %LOCALAPPDATA%} on Windows), and read
 * back and checked again before it is handed to the JVM to load. No file that existed before, and
 * no path anyone else could have written, is ever loaded: a library planted in the cache, or a
 * symlink to one, is never what gets loaded. The system property {@value #OVERRIDE} names a library
 * to use instead (one built with {@code scripts/host-engine.sh}), or the directory that script wrote.
 * Either way, the engine must come from the same build as the SDK's own, which the runner checks.
 */
final class HostEngine {
    /** The system property that names a host engine library, or a directory of engines, to use instead of the jar's. */
    static final String OVERRIDE = "mobilemcp.hostEngine";
    /** Where the engine jar keeps the engine of each platform, and its list of them. */
    static final String RESOURCES = "io/github/mobilemcp/sdk/testing/engine/";
    /** Where the SDK keeps the build id its engines carry. */
    private static final String SDK_BUILD_ID = "io/github/mobilemcp/sdk/engine-build-id";
    /** The native library's name, as System.loadLibrary takes it: libmobilemcp.so, mobilemcp.dll. */
    static final String LIBRARY = "mobilemcp";
    /** The platforms the release builds an engine for. */
    static final List<String> PLATFORMS = List.of("linux-x86_64", "linux-aarch64", "macos-x86_64", "macos-aarch64", "windows-x86_64");
    /** Owner-only, for the cache's directories. */
    private static final Set<PosixFilePermission> PRIVATE_DIR = PosixFilePermissions.fromString("rwx------");
    /** Owner-only and read-only, for the library written there. */
    private static final Set<PosixFilePermission> PRIVATE_FILE = PosixFilePermissions.fromString("r--------");
    /** A JVM's directory left behind (killed, or a DLL that Windows would not let go) is removed after this long. */
    private static final long STALE_MILLIS = 24L * 60 * 60 * 1000;

    private static @Nullable ClassLoader loader;

    private HostEngine() {}

    /**
     * The class loader of the engine's classes (gobind's {@code io.github.mobilemcp.engine.go.*} and
     * the engine packages), whose native library is loaded and comes from the SDK's build. Throws
     * IllegalStateException saying what is wrong and what to do.
     */
    static synchronized ClassLoader loader() {
        if (loader == null) {
            ClassLoader parent = HostEngine.class.getClassLoader();
            EngineClassLoader engine = new EngineClassLoader(parent,
                    library(parent, System.getProperty("os.name"), System.getProperty("os.arch"), System.getProperty(OVERRIDE), cacheDir()));
            checkSameBuild(sdkBuildId(parent), engine.buildId());
            loader = engine;
        }
        return loader;
    }

    /** The running platform, in the names the jar's engines are kept under: "linux-x86_64". */
    static String platform(String osName, String osArch) {
        String os = osName.toLowerCase(Locale.ROOT);
        os = os.startsWith("mac") || os.startsWith("darwin") ? "macos" : os.startsWith("windows") ? "windows" : os.replace(' ', '_');
        String arch = osArch.toLowerCase(Locale.ROOT);
        arch = arch.equals("amd64") || arch.equals("x86_64") ? "x86_64" : arch.equals("aarch64") || arch.equals("arm64") ? "aarch64" : arch;
        return os + "-" + arch;
    }

    /** The library's file name on a platform: libmobilemcp.so, libmobilemcp.dylib or mobilemcp.dll. */
    static String libraryName(String platform) {
        return platform.startsWith("windows-") ? LIBRARY + ".dll"
                : platform.startsWith("macos-") ? "lib" + LIBRARY + ".dylib"
                : "lib" + LIBRARY + ".so";
    }

    /** Where the engine jar keeps a platform's library: "io/github/mobilemcp/sdk/testing/engine/linux-x86_64/libmobilemcp.so". */
    static String resource(String platform) {
        return RESOURCES + platform + "/" + libraryName(platform);
    }

    /** The platforms the engine jar on the classpath holds, as it lists them; empty without one. */
    static List<String> platforms(ClassLoader resources) {
        String list = text(resources, RESOURCES + "platforms");
        List<String> platforms = new ArrayList<>();
        if (list != null) {
            for (String line : list.split("\\R")) {
                if (!line.trim().isEmpty()) {
                    platforms.add(line.trim());
                }
            }
        }
        return platforms;
    }

    /**
     * The library to load: the override (a library, or a directory as scripts/host-engine.sh writes
     * one), or the jar's for the platform, checked and written to a fresh private file under cache.
     */
    static Path library(ClassLoader resources, String osName, String osArch, @Nullable String override, Path cache) {
        String platform = platform(osName, osArch);
        if (override != null && !override.isEmpty()) {
            Path path = Paths.get(override).toAbsolutePath();
            if (Files.isDirectory(path)) {
                path = path.resolve(resource(platform));
                if (!Files.isRegularFile(path)) {
                    throw new IllegalStateException("-D" + OVERRIDE + "=" + override + " has no engine for this machine ("
                            + platform + "): no " + path);
                }
            } else if (!Files.isRegularFile(path)) {
                throw new IllegalStateException("-D" + OVERRIDE + "=" + override + " names no file");
            }
            return path;
        }
        String name = resource(platform);
        byte[] library = read(resources, name);
        if (library == null) {
            List<String> held = platforms(resources);
            throw new IllegalStateException("the mobilemcp engine jar (io.github.mobilemcp:sdk-testing-engine) has no engine for this machine, "
                    + osName + " on " + osArch + " (" + platform + "); "
                    + (held.isEmpty() ? "no engine jar is on the test classpath" : "it has engines for " + String.join(", ", held))
                    + ". Build one for this machine with scripts/host-engine.sh " + platform + " OUTDIR in a mobilemcp checkout, and name it with -D"
                    + OVERRIDE + "=OUTDIR");
        }
        String want = text(resources, name + ".sha256");
        if (want == null) {
            throw new IllegalStateException("the engine in the engine jar (" + name
                    + ") has no SHA-256 recorded beside it: the jar is damaged; download it again");
        }
        String got = sha256(library);
        if (!got.equals(want)) {
            throw new IllegalStateException("the engine in the engine jar (" + name + ") has SHA-256 " + got
                    + ", not the " + want + " recorded beside it: the jar is damaged; download it again");
        }
        return writePrivately(library, want, cache, libraryName(platform));
    }

    /**
     * Writes the library to a new file in a new directory that only this user can reach, under
     * cache (itself made owner-only), reads it back and checks it against sha256: the file that
     * gets loaded is one this JVM created, never an existing one or a symlink, and it holds the
     * checked bytes. Both are removed when the JVM exits.
     */
    private static Path writePrivately(byte[] library, String sha256, Path cache, String fileName) {
        boolean posix = cache.getFileSystem().supportedFileAttributeViews().contains("posix");
        try {
            // The directory above too: whoever controls it could rename the cache away and put theirs in its place.
            privateDirectory(cache.getParent(), posix);
            privateDirectory(cache, posix);
            removeStale(cache);
            Path dir = posix
                    ? Files.createTempDirectory(cache, "jvm-", PosixFilePermissions.asFileAttribute(PRIVATE_DIR))
                    : Files.createTempDirectory(cache, "jvm-");
            dir.toFile().deleteOnExit();
            Path target = dir.resolve(fileName);
            // CREATE_NEW never opens what is there already (nor follows a symlink there).
            try (OutputStream out = Files.newOutputStream(target, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                out.write(library);
            }
            target.toFile().deleteOnExit();
            if (posix) {
                Files.setPosixFilePermissions(target, PRIVATE_FILE);
            }
            byte[] written;
            try (SeekableByteChannel in = Files.newByteChannel(target, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
                written = Channels.newInputStream(in).readAllBytes();
            }
            if (!sha256(written).equals(sha256)) {
                throw new IllegalStateException("the engine written to " + target + " is not the one the engine jar holds (SHA-256 "
                        + sha256(written) + ", not " + sha256 + "): something else writes to " + cache);
            }
            return target;
        } catch (IOException e) {
            throw new IllegalStateException("cannot write the engine to " + cache + ": " + e
                    + "; or name a library with -D" + OVERRIDE, e);
        }
    }

    /**
     * Makes dir (and any missing parent) a directory of this user's that no one else can reach; a
     * symlink there, or a directory of another user's, is refused, since whoever controls it could
     * swap what is inside.
     */
    private static void privateDirectory(Path dir, boolean posix) throws IOException {
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            Files.createDirectories(dir.getParent());
            try {
                if (posix) {
                    Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PRIVATE_DIR));
                } else {
                    Files.createDirectory(dir);
                }
            } catch (FileAlreadyExistsException e) {
                // another JVM made it first: checked below like any existing one
            }
        }
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            throw new IllegalStateException("the engine cache " + dir + " is not a directory (a symlink, or a file): remove it, "
                    + "and the test runner makes a private one");
        }
        if (posix) {
            String user = System.getProperty("user.name");
            UserPrincipal me = dir.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName(user);
            UserPrincipal owner = Files.getOwner(dir, LinkOption.NOFOLLOW_LINKS);
            if (!owner.equals(me)) {
                throw new IllegalStateException("the engine cache " + dir + " belongs to " + owner.getName() + ", not to " + user
                        + ": remove it, and the test runner makes a private one");
            }
            Files.setPosixFilePermissions(dir, PRIVATE_DIR);
        }
    }

    /** Removes the directories of JVMs long gone; one that cannot be removed (in use) is left. */
    private static void removeStale(Path cache) {
        long before = System.currentTimeMillis() - STALE_MILLIS;
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(cache, "jvm-*")) {
            for (Path dir : dirs) {
                if (Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)
                        && Files.getLastModifiedTime(dir, LinkOption.NOFOLLOW_LINKS).toMillis() < before) {
                    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
                        for (Path f : files) {
                            Files.deleteIfExists(f);
                        }
                    }
                    Files.deleteIfExists(dir);
                }
            }
        } catch (IOException | RuntimeException e) {
            // a stale copy costs disk space only
        }
    }

    /** The cache the engine is written to, one directory per JVM. */
    static Path cacheDir() {
        String local = System.getenv("LOCALAPPDATA");
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path base = local != null && !local.isEmpty() ? Paths.get(local)
                : xdg != null && !xdg.isEmpty() ? Paths.get(xdg)
                : Paths.get(System.getProperty("user.home"), ".cache");
        return base.resolve("mobilemcp").resolve("engine");
    }

    /** The build id the SDK's engines carry, as the SDK records it. */
    private static String sdkBuildId(ClassLoader resources) {
        String id = text(resources, SDK_BUILD_ID);
        if (id == null) {
            throw new IllegalStateException("the mobilemcp sdk on the test classpath records no engine build id ("
                    + SDK_BUILD_ID + "); use the sdk and sdk-testing artifacts of one release");
        }
        return id;
    }

    /** Fails unless the host engine and the SDK's engines come from one build. */
    static void checkSameBuild(String sdk, String host) {
        if (!sdk.equals(host)) {
            throw new IllegalStateException("the host engine comes from build " + host + ", but the sdk's engines from build "
                    + sdk + ": use sdk and sdk-testing of the same version"
                    + (System.getProperty(OVERRIDE) != null ? ", or a -D" + OVERRIDE + " library built from the sdk's commit" : ""));
        }
    }

    private static @Nullable String text(ClassLoader resources, String name) {
        byte[] bytes = read(resources, name);
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8).trim();
    }

    private static byte @Nullable [] read(ClassLoader resources, String name) {
        try (InputStream in = resources.getResourceAsStream(name)) {
            if (in == null) {
                return null;
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            in.transferTo(out);
            return out.toByteArray();
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + name + " from the test classpath: " + e, e);
        }
    }

    static String sha256(byte[] bytes) {
        try {
            StringBuilder hex = new StringBuilder();
            for (byte b : MessageDigest.getInstance("SHA-256").digest(bytes)) {
                hex.append(String.format("%02x", b));
            }
            return hex.toString();
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError("every Java platform has SHA-256", e);
        }
    }

    /**
     * Defines the engine's classes itself, from its parent's class files, so that gobind's
     * {@code System.loadLibrary("mobilemcp")} asks this loader where the library is (findLibrary)
     * instead of searching java.library.path; every other class comes from the parent.
     */
    private static final class EngineClassLoader extends ClassLoader {
        /** The engine's packages: gobind's own, the tool engine, and the SMS app's additions (its tests bind them too). */
        static final String[] OWN = {"io.github.mobilemcp.engine.go.", "io.github.mobilemcp.intentbridge.", "io.github.mobilemcp.smsapp."};
        private final Path library;

        EngineClassLoader(ClassLoader parent, Path library) {
            super(parent);
            this.library = library;
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!isOwn(name)) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c == null) {
                    byte[] bytes = read(getParent(), name.replace('.', '/') + ".class");
                    if (bytes == null) {
                        throw new ClassNotFoundException(name);
                    }
                    c = defineClass(name, bytes, 0, bytes.length);
                }
                if (resolve) {
                    resolveClass(c);
                }
                return c;
            }
        }

        @Override
        protected String findLibrary(String name) {
            return LIBRARY.equals(name) ? library.toString() : null;
        }

        /** The engine's build id, from the loaded library (which loading the class loads). */
        String buildId() {
            try {
                return (String) loadClass("io.github.mobilemcp.intentbridge.Intentbridge").getMethod("buildID").invoke(null);
            } catch (ReflectiveOperationException | LinkageError e) {
                Throwable cause = e.getCause() != null ? e.getCause() : e;
                throw new IllegalStateException("cannot load the engine " + library + ": " + cause, cause);
            }
        }

        private static boolean isOwn(String name) {
            for (String prefix : OWN) {
                if (name.startsWith(prefix)) {
                    return true;
                }
            }
            return false;
        }
    }
}
