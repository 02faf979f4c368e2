package io.github.mobilemcp.sdk.testing;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One tool call through the engine that the test runner loads (HostEngine, as McpTestRunner does),
 * on a plain JVM: it serves a one-capability tool whose handler is Java, sends it a request as adb's
 * shell would, and prints the reply. scripts/qemu-engine.sh runs it on an arm64 JVM under qemu, so
 * that the linux-aarch64 engine of the engine jar is loaded and answers for real. The engine's
 * classes live in the loader's class loader, so they are reached by reflection.
 */
public final class EngineCall {
    private EngineCall() {}

    /**
     * The descriptor's tree, as the SDK walks it from the compiled resource of
     * <pre>{@code
     * <mobile-mcp-capabilities version="1.0">
     *   <capability id="list_notes" description="Lists every note." version="1.0">
     *     <output><param name="count" type="integer" description="How many notes there are."/></output>
     *   </capability>
     * </mobile-mcp-capabilities>
     * }</pre>
     */
    static final String DESCRIPTOR = "{\"name\":\"mobile-mcp-capabilities\",\"line\":1,\"attrs\":[{\"name\":\"version\",\"value\":\"1.0\"}],"
            + "\"children\":[{\"name\":\"capability\",\"line\":2,\"attrs\":[{\"name\":\"id\",\"value\":\"list_notes\"},"
            + "{\"name\":\"description\",\"value\":\"Lists every note.\"},{\"name\":\"version\",\"value\":\"1.0\"}],"
            + "\"children\":[{\"name\":\"output\",\"line\":3,\"children\":[{\"name\":\"param\",\"line\":3,\"attrs\":["
            + "{\"name\":\"name\",\"value\":\"count\"},{\"name\":\"type\",\"value\":\"integer\"},"
            + "{\"name\":\"description\",\"value\":\"How many notes there are.\"}]}]}]}]}";
    static final String REQUEST = "{\"mobile-mcp-request\":{\"version\":\"1.0\",\"request\":"
            + "{\"id\":\"qemu-1\",\"capability\":{\"id\":\"list_notes\",\"args\":{}}}}}";

    public static void main(String[] args) throws Exception {
        ClassLoader engine = HostEngine.loader();
        Class<?> intentbridge = engine.loadClass("io.github.mobilemcp.intentbridge.Intentbridge");
        Class<?> handlerType = engine.loadClass("io.github.mobilemcp.intentbridge.Handler");
        Class<?> targetType = engine.loadClass("io.github.mobilemcp.intentbridge.ReplyTarget");
        Object tool = intentbridge.getMethod("newTool", String.class, String.class)
                .invoke(null, "res/xml/mcp_capabilities.xml", DESCRIPTOR);
        Object handler = proxy(engine, handlerType, "handle", a -> "{\"message\":\"2 notes\",\"output\":{\"count\":2}}");
        tool.getClass().getMethod("setHandler", String.class, handlerType).invoke(tool, "list_notes", handler);
        Object bridge = intentbridge.getMethod("openBridge", String.class).invoke(null, "");
        bridge.getClass().getMethod("start", tool.getClass()).invoke(bridge, tool);
        AtomicReference<String> reply = new AtomicReference<>();
        Object target = proxy(engine, targetType, "send", a -> {
            reply.set((String) a[0]);
            return null;
        });
        Class<?> doneType = engine.loadClass("io.github.mobilemcp.intentbridge.Done");
        bridge.getClass().getMethod("queueShell", String.class, targetType, doneType).invoke(bridge, REQUEST, target, null);
        bridge.getClass().getMethod("runNext").invoke(bridge);
        System.out.println(System.getProperty("os.arch") + " " + HostEngine.platform(System.getProperty("os.name"),
                System.getProperty("os.arch")) + " " + intentbridge.getMethod("buildID").invoke(null) + " " + reply.get());
        // Go's threads attach to the JVM as non-daemon threads: returning from main would wait for them.
        System.exit(reply.get() != null && reply.get().contains("\"status\":\"success\"") ? 0 : 1);
    }

    interface Body {
        Object run(Object[] args) throws Exception;
    }

    /** An implementation of the engine's interface type whose one method is body. */
    private static Object proxy(ClassLoader engine, Class<?> type, String method, Body body) {
        InvocationHandler h = (Object self, Method m, Object[] a) -> {
            switch (m.getName()) {
                case "hashCode": return System.identityHashCode(self);
                case "equals": return self == a[0];
                case "toString": return type.getName();
                default:
                    if (!m.getName().equals(method)) {
                        throw new UnsupportedOperationException(m.getName());
                    }
                    return body.run(a);
            }
        };
        return Proxy.newProxyInstance(engine, new Class<?>[] {type}, h);
    }
}
