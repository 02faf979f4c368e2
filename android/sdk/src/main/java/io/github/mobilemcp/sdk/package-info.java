/**
 * The Tool SDK: {@link io.github.mobilemcp.sdk.McpToolService} and what its handlers use.
 *
 * <p>Null-marked (JSpecify): a type in this package's API is never null unless it is marked
 * {@link org.jspecify.annotations.Nullable @Nullable}. Kotlin reads such a type as {@code String}, and a
 * {@code @Nullable} one as {@code String?}.
 */
@NullMarked
package io.github.mobilemcp.sdk;

import org.jspecify.annotations.NullMarked;
