/**
 * The testing library: {@link io.github.mobilemcp.sdk.testing.McpToolRule} and
 * {@link io.github.mobilemcp.sdk.testing.McpTestRunner} call a tool service in a Robolectric test as
 * an assistant does.
 *
 * <p>Null-marked (JSpecify): a type in this package's API is never null unless it is marked
 * {@link org.jspecify.annotations.Nullable @Nullable}. Kotlin reads such a type as {@code String}, and a
 * {@code @Nullable} one as {@code String?}.
 */
@NullMarked
package io.github.mobilemcp.sdk.testing;

import org.jspecify.annotations.NullMarked;
