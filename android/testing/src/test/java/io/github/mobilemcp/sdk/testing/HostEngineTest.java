package io.github.mobilemcp.sdk.testing;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;

import org.junit.Test;

/** How the test runner finds the host engine, and what it says when it cannot. */
public class HostEngineTest {
    @Test
    public void platformsAreNamedAsTheReleaseNamesThem() {
        assertEquals("linux-x86_64", HostEngine.platform("Linux", "amd64"));
        assertEquals("linux-aarch64", HostEngine.platform("Linux", "aarch64"));
        assertEquals("macos-aarch64", HostEngine.platform("Mac OS X", "aarch64"));
        assertEquals("macos-x86_64", HostEngine.platform("Mac OS X", "x86_64"));
        assertEquals("windows-x86_64", HostEngine.platform("Windows 11", "amd64"));
        assertEquals("freebsd-x86_64", HostEngine.platform("FreeBSD", "amd64"));
    }

    @Test
    public void aMachineWithoutAnEngineIsNamedWithTheOverride() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> HostEngine.library(HostEngineTest.class.getClassLoader(), "FreeBSD", "amd64", null));
        assertEquals("the mobilemcp testing library has no engine for this machine, FreeBSD on amd64 (freebsd-x86_64); "
                + "it has engines for linux-x86_64, linux-aarch64, macos-x86_64, macos-aarch64, windows-x86_64 where the release "
                + "built them. Build one for this machine with scripts/host-engine.sh freebsd-x86_64 OUTDIR in a mobilemcp checkout, "
                + "and name it with -Dmobilemcp.hostEngine=OUTDIR/io/github/mobilemcp/sdk/testing/engine/freebsd-x86_64/libgojni.so",
                e.getMessage());
    }

    @Test
    public void anOverrideThatNamesNoFileSaysSo() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> HostEngine.library(HostEngineTest.class.getClassLoader(), "Linux", "amd64", "/no/such/libgojni.so"));
        assertEquals("-Dmobilemcp.hostEngine=/no/such/libgojni.so names no file", e.getMessage());
    }

    @Test
    public void engineFromAnotherBuildIsRefusedNamingBoth() {
        HostEngine.checkSameBuild("abc123", "abc123");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> HostEngine.checkSameBuild("abc123", "def456"));
        assertEquals("the host engine comes from build def456, but the sdk's engines from build abc123: "
                + "use sdk and sdk-testing of the same version", e.getMessage());
    }
}
