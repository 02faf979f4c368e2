/**
 * What sdk-testing shares with mobilemcp's own tests only: the wire kit behind McpToolRule. Every
 * class is {@code @InternalApi}, listed apart (android/sdk-testing/restricted-api.txt), and may
 * change in any release.
 */
@InternalApi
@NullMarked
package io.github.mobilemcp.sdk.testing.internal;

import io.github.mobilemcp.sdk.internal.InternalApi;

import org.jspecify.annotations.NullMarked;
