package io.github.mobilemcp.sdk.internal;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks what the mobilemcp libraries and the SMS reference app share among themselves: public only
 * because Java has no other way across packages and modules, <b>not part of the SDK's API</b>, and
 * free to change in any release. A tool app never needs it.
 *
 * <p>It plays the part of androidx's {@code @RestrictTo(LIBRARY_GROUP)}: what carries it is listed
 * apart from the API, in {@code android/sdk/restricted-api.txt} ({@code scripts/api-listing.sh}
 * checks both listings), and lives in an {@code internal} package.
 *
 * <p>Kotlin enforces it: a use does not compile without {@code @OptIn(InternalApi::class)} on the
 * call or its class (or the compiler option {@code -opt-in=io.github.mobilemcp.sdk.internal.InternalApi}),
 * which only the mobilemcp modules' own code writes. Java has no such check: the package name says it.
 */
@kotlin.RequiresOptIn(
        message = "The mobilemcp SDK's own, not its API: it may change or go in any release",
        level = kotlin.RequiresOptIn.Level.ERROR)
@Documented
@InternalApi // the marker is of the same kind as what it marks
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.PACKAGE, ElementType.TYPE, ElementType.METHOD, ElementType.CONSTRUCTOR, ElementType.FIELD})
public @interface InternalApi {}
