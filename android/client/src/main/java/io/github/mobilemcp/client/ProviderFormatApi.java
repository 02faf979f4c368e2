package io.github.mobilemcp.client;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks what the client writes in an AI provider's own format ({@link ToolCatalog#openAiTools()},
 * {@link ToolCatalog#anthropicTools()}, ...): those formats belong to OpenAI, Anthropic and Google,
 * and when a provider changes its API these methods follow it, in a minor release. What the client
 * says in its own terms ({@link Capability#toMcpTool()}, MCP's tool definition) does not move so.
 *
 * <p>Kotlin callers opt in explicitly, with {@code @OptIn(ProviderFormatApi::class)} on the call or
 * its class (or the compiler option {@code -opt-in=io.github.mobilemcp.client.ProviderFormatApi});
 * without it the call does not compile. Java has no such check: the annotation on the method says
 * the same.
 */
@kotlin.RequiresOptIn(
        message = "An AI provider's own format, which follows the provider's API and may change in a minor release",
        level = kotlin.RequiresOptIn.Level.ERROR)
@Documented
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface ProviderFormatApi {}
