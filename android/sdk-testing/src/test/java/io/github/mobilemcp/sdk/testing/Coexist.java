package io.github.mobilemcp.sdk.testing;

/**
 * An app's process in miniature: one class loader, one library path, and two gomobile libraries,
 * the engine (io.github.mobilemcp.intentbridge) and another vendor's (hello, built as stock gomobile
 * builds it). It calls both and prints what each answered; CoexistenceTest runs it.
 */
public final class Coexist {
    private Coexist() {}

    public static void main(String[] args) {
        String greeting = hello.Hello.greetings("Gopher");
        String build = io.github.mobilemcp.intentbridge.Intentbridge.buildID();
        System.out.println(greeting + " | " + build);
        System.out.flush();
        // Go's threads attach to the JVM as non-daemon threads: returning from main would wait for them.
        System.exit(0);
    }
}
