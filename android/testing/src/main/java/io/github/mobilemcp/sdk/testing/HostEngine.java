package io.github.mobilemcp.sdk.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Locale;

import org.jspecify.annotations.Nullable;

/**
 * The SDK's engine for a desktop JVM: the native library this jar carries for each platform, loaded
 * once per JVM, in a class loader of its own that the Robolectric sandboxes share (see
 * {@link McpTestRunner}).
 *
 * <p>The library for the running OS and architecture is extracted once into a cache directory per
 * build ({@code ~/.cache/mobilemcp/engine/BUILD/PLATFORM}, or {@code %LOCALAPPDATA%} on Windows) and
 * checked against the SHA-256 the jar carries beside it, before every use. The system property
 * {@value #OVERRIDE} names a library to use instead (one built with {@code scripts/host-engine.sh}).
 * Either way, the engine must come from the same build as the SDK's own, which the runner checks.
 */
final class HostEngine {
    /** The system property that names a host engine library to use instead of the jar's. */
    static final String OVERRIDE = "mobilemcp.hostEngine";
    /** Where this jar keeps the engine of each platform. */
    private static final String RESOURCES = "io/github/mobilemcp/sdk/testing/engine/";
    /** Where the SDK keeps the build id its engines carry. */
    private static final String SDK_BUILD_ID = "io/github/mobilemcp/sdk/engine-build-id";
    /** The platforms the release builds an engine for. */
    static final String PLATFORMS = "linux-x86_64, linux-aarch64, macos-x86_64, macos-aarch64, windows-x86_64";

    private static @Nullable ClassLoader loader;

    private HostEngine() {}

    /**
     * The class loader of the engine's classes (gobind's {@code go.*} and the engine packages),
     * whose native library is loaded and comes from the SDK's build. Throws IllegalStateException
     * saying what is wrong and what to do.
     */
    static synchronized ClassLoader loader() {
        if (loader == null) {
            ClassLoader parent = HostEngine.class.getClassLoader();
            EngineClassLoader engine = new EngineClassLoader(parent,
                    library(parent, System.getProperty("os.name"), System.getProperty("os.arch"), System.getProperty(OVERRIDE)));
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

    /** The library to load: the override, or the jar's for the platform, extracted and checked. */
    static Path library(ClassLoader resources, String osName, String osArch, @Nullable String override) {
        if (override != null && !override.isEmpty()) {
            Path path = Paths.get(override).toAbsolutePath();
            if (!Files.isRegularFile(path)) {
                throw new IllegalStateException("-D" + OVERRIDE + "=" + override + " names no file");
            }
            return path;
        }
        String platform = platform(osName, osArch);
        String name = System.mapLibraryName("gojni");
        String dir = RESOURCES + platform + "/";
        byte[] library = read(resources, dir + name);
        if (library == null) {
            throw new IllegalStateException("the mobilemcp testing library has no engine for this machine, "
                    + osName + " on " + osArch + " (" + platform + "); "
                    + "it has engines for " + PLATFORMS + " where the release built them. Build one for this machine "
                    + "with scripts/host-engine.sh " + platform + " OUTDIR in a mobilemcp checkout, and name it with -D"
                    + OVERRIDE + "=OUTDIR/" + dir + name);
        }
        String want = text(resources, dir + name + ".sha256");
        String got = sha256(library);
        if (want == null) {
            throw new IllegalStateException("the engine in the testing library (" + dir + name
                    + ") has no SHA-256 recorded beside it: the jar is damaged; download it again");
        }
        if (!got.equals(want)) {
            throw new IllegalStateException("the engine in the testing library (" + dir + name + ") has SHA-256 " + got
                    + ", not the " + want + " recorded beside it: the jar is damaged; download it again");
        }
        String build = text(resources, dir + "build-id");
        return extract(library, got, cacheDir().resolve(build != null ? build : got).resolve(platform).resolve(name));
    }

    /**
     * target, holding library: written there the first time (through a temporary file and a move,
     * so that two test JVMs never see half a library), and checked again every time.
     */
    private static Path extract(byte[] library, String sha256, Path target) {
        try {
            if (Files.isRegularFile(target) && sha256(Files.readAllBytes(target)).equals(sha256)) {
                return target;
            }
            Files.createDirectories(target.getParent());
            Path temporary = Files.createTempFile(target.getParent(), target.getFileName().toString(), ".part");
            Files.write(temporary, library);
            try {
                Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING);
            }
            return target;
        } catch (IOException e) {
            throw new IllegalStateException("cannot extract the engine to " + target + ": " + e
                    + "; or name a library with -D" + OVERRIDE, e);
        }
    }

    /** The cache of extracted engines. */
    private static Path cacheDir() {
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
     * {@code System.loadLibrary("gojni")} asks this loader where the library is (findLibrary)
     * instead of searching java.library.path; every other class comes from the parent.
     */
    private static final class EngineClassLoader extends ClassLoader {
        private static final String[] OWN = {"go.", "io.github.mobilemcp.intentbridge.", "io.github.mobilemcp.smsapp."};
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
            return "gojni".equals(name) ? library.toString() : null;
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
