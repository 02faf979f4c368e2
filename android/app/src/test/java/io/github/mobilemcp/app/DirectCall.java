package io.github.mobilemcp.app;

import io.github.mobilemcp.client.Reply;
import io.github.mobilemcp.intentbridge.Bridge;

import java.util.concurrent.atomic.AtomicReference;

import org.json.JSONException;

/** A request run on an engine directly, as the tool service's worker runs it. */
final class DirectCall {
    private DirectCall() {}

    /**
     * Runs requestJson on engine as callerPackage's and returns its reply. The engine runs it on
     * this thread, so the reply is there when handle returns; the engine must have started its tool.
     */
    static Reply handle(Bridge engine, String requestJson, String callerPackage) {
        AtomicReference<String> reply = new AtomicReference<>();
        engine.handle(requestJson, callerPackage, (spec, flat, requestId, errorCode) -> reply.set(spec));
        try {
            return Reply.fromJson(reply.get());
        } catch (JSONException e) {
            throw new AssertionError("the engine's reply is not JSON: " + reply.get(), e);
        }
    }
}
