package io.github.mobilemcp.sdk.testing;

import org.junit.runners.model.FrameworkMethod;
import org.junit.runners.model.InitializationError;
import org.robolectric.RobolectricTestRunner;
import org.robolectric.internal.bytecode.InstrumentationConfiguration;

/**
 * The RobolectricTestRunner of every test class that reaches Go. It loads gobind's Java
 * ({@code go.*} and {@code io.github.mobilemcp.intentbridge.*}) from the ordinary test class loader
 * instead of each Robolectric sandbox's.
 *
 * <p>Why: {@code go.Seq}'s static block calls {@code System.loadLibrary("gojni")}, and the JVM lets
 * a native library belong to one class loader only. Every sandbox (one per SDK level, or per
 * differing config) has its own class loader, so with the stock runner the second sandbox to load
 * the library fails with "already loaded in another classloader". Loaded outside the sandboxes, the
 * library and the Go runtime start once per JVM and serve them all. This is safe because gobind's
 * classes touch android.* only in {@code Seq.setContext}, which nothing calls.
 *
 * <p>A test class on the stock runner that reaches Go would get its own {@code go.Seq} and fail the
 * same way, so all of them use this one.
 */
public class GoTestRunner extends RobolectricTestRunner {
    /** Called by JUnit for each test class annotated {@code @RunWith(GoTestRunner.class)}. */
    public GoTestRunner(Class<?> testClass) throws InitializationError {
        super(testClass);
    }

    @Override
    protected InstrumentationConfiguration createClassLoaderConfig(FrameworkMethod method) {
        return new InstrumentationConfiguration.Builder(super.createClassLoaderConfig(method))
                .doNotAcquirePackage("go.")
                .doNotAcquirePackage("io.github.mobilemcp.intentbridge.")
                .build();
    }
}
