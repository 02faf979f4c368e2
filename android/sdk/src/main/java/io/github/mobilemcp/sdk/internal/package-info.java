/**
 * What the mobilemcp libraries and the SMS reference app share, and tool apps never use: the seam
 * to the engine ({@link io.github.mobilemcp.sdk.internal.EngineAccess}) and the platform helpers the
 * SMS app's gateway and MCP server reuse. Every class here is {@link
 * io.github.mobilemcp.sdk.internal.InternalApi @InternalApi}: not part of the SDK's API, listed
 * apart in {@code android/sdk/restricted-api.txt}, and free to change in any release.
 *
 * <p>Null-marked (JSpecify), as the SDK's API is.
 */
@InternalApi
@NullMarked
package io.github.mobilemcp.sdk.internal;

import org.jspecify.annotations.NullMarked;
