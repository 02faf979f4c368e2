package io.github.mobilemcp.sdk.testing;

import java.util.function.Supplier;

import org.junit.runners.model.FrameworkMethod;
import org.junit.runners.model.InitializationError;
import org.robolectric.RobolectricTestRunner;
import org.robolectric.internal.AndroidSandbox;
import org.robolectric.internal.bytecode.InstrumentationConfiguration;

/**
 * The Robolectric runner for tests of a Mobile-MCP tool: {@code @RunWith(McpTestRunner.class)}. It
 * is Robolectric's own, except that the SDK's engine (gobind's Java, {@code io.github.mobilemcp.engine.go.*}
 * and {@code io.github.mobilemcp.intentbridge.*}, the SMS app's {@code io.github.mobilemcp.smsapp.*}, and
 * the native library under them) is loaded once per JVM, in a class loader of its own that every
 * Robolectric sandbox shares, instead of once per sandbox.
 *
 * <p>The native library is the host engine that the engine jar this testing library depends on
 * ({@code io.github.mobilemcp:sdk-testing-engine}) carries for your OS and architecture, from the
 * same build as the sdk's engines (which the runner checks). Nothing needs installing: no Go, NDK or
 * Android SDK. A machine the jar has no engine for fails with a message naming it and the system
 * property {@code mobilemcp.hostEngine}, which names a library to use instead.
 *
 * <p>Why one loader: {@code Seq}'s static block calls {@code System.loadLibrary("mobilemcp")}, and
 * the JVM lets a native library belong to one class loader only. Every sandbox (one per SDK level, or
 * per differing config) has its own class loader, so with the stock runner the second sandbox to
 * load the library fails with "already loaded in another classloader". Loaded outside the
 * sandboxes, the library and the Go runtime start once per JVM and serve them all. This is safe
 * because gobind's classes touch android.* only in {@code Seq.setContext}, which nothing calls.
 *
 * <p>A test class on the stock runner that reaches the engine would get its own {@code Seq} and
 * fail the same way, so all of them use this one.
 */
public final class McpTestRunner extends RobolectricTestRunner {
    /** Called by JUnit for each test class annotated {@code @RunWith(McpTestRunner.class)}. */
    public McpTestRunner(Class<?> testClass) throws InitializationError {
        super(testClass);
        try {
            HostEngine.loader();
        } catch (IllegalStateException e) {
            throw new InitializationError(e.getMessage());
        }
    }

    @Override
    protected AndroidSandbox getSandbox(FrameworkMethod method) {
        return withEngineLoader(() -> super.getSandbox(method));
    }

    @Override
    protected AndroidSandbox getSandboxForSandboxMapping(FrameworkMethod method) {
        return withEngineLoader(() -> super.getSandboxForSandboxMapping(method));
    }

    /**
     * Gets a sandbox with the engine's class loader as the thread's context class loader: a
     * sandbox takes the classes it does not acquire from the context class loader as it is when the
     * sandbox is made. Only then: Robolectric finds its own resources through the context class
     * loader too, once a test runs.
     */
    private static AndroidSandbox withEngineLoader(Supplier<AndroidSandbox> get) {
        Thread thread = Thread.currentThread();
        ClassLoader before = thread.getContextClassLoader();
        thread.setContextClassLoader(HostEngine.loader());
        try {
            return get.get();
        } finally {
            thread.setContextClassLoader(before);
        }
    }

    @Override
    protected InstrumentationConfiguration createClassLoaderConfig(FrameworkMethod method) {
        return new InstrumentationConfiguration.Builder(super.createClassLoaderConfig(method))
                .doNotAcquirePackage("io.github.mobilemcp.engine.go.")
                .doNotAcquirePackage("io.github.mobilemcp.intentbridge.")
                // The SMS app's additions, bound into the same library for that app.
                .doNotAcquirePackage("io.github.mobilemcp.smsapp.")
                .build();
    }
}
