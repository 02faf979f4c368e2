package io.github.mobilemcp.sdk.testing;

import org.junit.runners.model.FrameworkMethod;
import org.junit.runners.model.InitializationError;
import org.robolectric.RobolectricTestRunner;
import org.robolectric.internal.bytecode.InstrumentationConfiguration;

/**
 * The Robolectric runner for tests of a Mobile-MCP tool: {@code @RunWith(McpTestRunner.class)}. It
 * is Robolectric's own, except that the SDK's engine (gobind's Java, {@code go.*} and
 * {@code io.github.mobilemcp.intentbridge.*}, the SMS app's {@code io.github.mobilemcp.smsapp.*}, and
 * the native library under them) is loaded once per
 * JVM, from the ordinary test class loader, instead of once per Robolectric sandbox.
 *
 * <p>Why: {@code go.Seq}'s static block calls {@code System.loadLibrary("gojni")}, and the JVM lets
 * a native library belong to one class loader only. Every sandbox (one per SDK level, or per
 * differing config) has its own class loader, so with the stock runner the second sandbox to load
 * the library fails with "already loaded in another classloader". Loaded outside the sandboxes, the
 * library and the Go runtime start once per JVM and serve them all. This is safe because gobind's
 * classes touch android.* only in {@code Seq.setContext}, which nothing calls.
 *
 * <p>A test class on the stock runner that reaches the engine would get its own {@code go.Seq} and
 * fail the same way, so all of them use this one.
 */
public class McpTestRunner extends RobolectricTestRunner {
    /** Called by JUnit for each test class annotated {@code @RunWith(McpTestRunner.class)}. */
    public McpTestRunner(Class<?> testClass) throws InitializationError {
        super(testClass);
    }

    @Override
    protected InstrumentationConfiguration createClassLoaderConfig(FrameworkMethod method) {
        return new InstrumentationConfiguration.Builder(super.createClassLoaderConfig(method))
                .doNotAcquirePackage("go.")
                .doNotAcquirePackage("io.github.mobilemcp.intentbridge.")
                // The SMS app's additions, bound into the same library for that app.
                .doNotAcquirePackage("io.github.mobilemcp.smsapp.")
                .build();
    }
}
