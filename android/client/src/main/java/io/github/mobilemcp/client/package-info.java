/**
 * The client library for assistant apps: {@link io.github.mobilemcp.client.MobileMcpClient} finds
 * the Mobile-MCP tools on the phone and invokes them.
 *
 * <p>Null-marked (JSpecify): a type in this package's API is never null unless it is marked
 * {@link org.jspecify.annotations.Nullable @Nullable}. Kotlin reads such a type as {@code String}, and a
 * {@code @Nullable} one as {@code String?}.
 */
@NullMarked
package io.github.mobilemcp.client;

import org.jspecify.annotations.NullMarked;
