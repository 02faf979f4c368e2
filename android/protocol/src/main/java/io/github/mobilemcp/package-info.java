/**
 * The vocabulary a Mobile-MCP tool and the assistants that call it share: {@link
 * io.github.mobilemcp.ErrorCode} and {@link io.github.mobilemcp.Consent}, each with its wire words.
 * The Tool SDK and the client library both depend on it.
 *
 * <p>Null-marked (JSpecify): a type in this package's API is never null unless it is marked
 * {@link org.jspecify.annotations.Nullable @Nullable}.
 */
@NullMarked
package io.github.mobilemcp;

import org.jspecify.annotations.NullMarked;
