package io.github.mobilemcp.harness;

import android.Manifest;
import android.app.MissingForegroundServiceTypeException;
import android.app.Notification;
import android.app.Service;
import android.content.ComponentName;
import android.content.pm.PackageInfo;
import android.content.pm.PackageManager;
import android.content.pm.ServiceInfo;
import android.os.Build;

import java.util.Arrays;

import org.robolectric.annotation.Implementation;
import org.robolectric.annotation.Implements;
import org.robolectric.annotation.RealObject;
import org.robolectric.shadows.ShadowService;

/**
 * Robolectric's ShadowService with the checks Android makes of startForeground and of a service
 * that stops ({@code @Config(shadows = ForegroundRules.class)}), which Robolectric leaves out. They
 * follow AOSP's ActiveServices (Android 10 to 15), in its order:
 * <ol>
 *   <li>the FOREGROUND_SERVICE permission (API 28+), then, from API 29, "the type passed is a
 *       subset of the manifest's" (FOREGROUND_SERVICE_TYPE_MANIFEST standing for the manifest's
 *       types), an IllegalArgumentException. These come while Android still waits for
 *       startForeground after startForegroundService;
 *   <li>then Android stops waiting;
 *   <li>then, from API 34, a type to pass at all (MissingForegroundServiceTypeException) and each
 *       type's own permission (a SecurityException), and whatever {@link #refuseAfterWaiting}
 *       sets, such as Android 12's ForegroundServiceStartNotAllowedException.
 * </ol>
 * A service that stops while Android still waits crashes its app; {@link #crash} records that
 * instead ("Context.startForegroundService() did not then call Service.startForeground()").
 *
 * <p>The tests of every foreground service on the SDK's Foreground use it: the tool service's
 * (sdk-tests) and the SMS app's MCP server's (app).
 */
@Implements(Service.class)
public class ForegroundRules extends ShadowService {
    @RealObject private Service service;

    private boolean waiting;
    private RuntimeException refusal;
    private String crash;
    private int attempts;
    private boolean delegating;

    /** Says that the service was started with startForegroundService: Android now waits. */
    public void startedAsForegroundService() {
        waiting = true;
    }

    /** Makes startForeground throw e once Android has stopped waiting, as Android 12+ may. */
    public void refuseAfterWaiting(RuntimeException e) {
        refusal = e;
    }

    /** What Android would have crashed the app with, or null. */
    public String crash() {
        return crash;
    }

    /** Whether Android still waits for startForeground. */
    public boolean waiting() {
        return waiting;
    }

    /** How many times startForeground was called. */
    public int attempts() {
        return attempts;
    }

    @Implementation
    @Override
    protected void startForeground(int id, Notification notification) throws Exception {
        if (delegating) {
            super.startForeground(id, notification); // ShadowService's typed call records through this one
            return;
        }
        attempts++;
        requirePermission(Build.VERSION.SDK_INT >= 28, Manifest.permission.FOREGROUND_SERVICE);
        if (Build.VERSION.SDK_INT >= 29) {
            startTyped(id, notification, ServiceInfo.FOREGROUND_SERVICE_TYPE_MANIFEST);
            return;
        }
        waiting = false;
        afterWaiting();
        super.startForeground(id, notification);
    }

    @Implementation(minSdk = 29)
    @Override
    protected void startForeground(int id, Notification notification, int type) throws Exception {
        attempts++;
        requirePermission(true, Manifest.permission.FOREGROUND_SERVICE);
        startTyped(id, notification, type);
    }

    private void startTyped(int id, Notification notification, int type) throws Exception {
        int declared = declaredTypes();
        if (type == ServiceInfo.FOREGROUND_SERVICE_TYPE_MANIFEST) {
            type = declared;
        }
        if ((type & declared) != type) {
            throw new IllegalArgumentException(String.format("foregroundServiceType 0x%08X is not a subset of"
                    + " foregroundServiceType attribute 0x%08X in service element of manifest file", type, declared));
        }
        waiting = false;
        if (Build.VERSION.SDK_INT >= 34) {
            if (type == ServiceInfo.FOREGROUND_SERVICE_TYPE_NONE) {
                throw new MissingForegroundServiceTypeException("Starting FGS without a type callerApp=" + service);
            }
            if ((type & ServiceInfo.FOREGROUND_SERVICE_TYPE_SPECIAL_USE) != 0) {
                requirePermission(true, Manifest.permission.FOREGROUND_SERVICE_SPECIAL_USE);
            }
            if ((type & ServiceInfo.FOREGROUND_SERVICE_TYPE_DATA_SYNC) != 0) {
                requirePermission(true, Manifest.permission.FOREGROUND_SERVICE_DATA_SYNC);
            }
        }
        afterWaiting();
        delegating = true;
        try {
            super.startForeground(id, notification, type);
        } finally {
            delegating = false;
        }
    }

    private void afterWaiting() {
        if (refusal != null) {
            throw refusal;
        }
    }

    @Implementation
    @Override
    protected void stopSelf(int startId) {
        stopping();
        super.stopSelf(startId);
    }

    @Implementation
    @Override
    protected void stopSelf() {
        stopping();
        super.stopSelf();
    }

    @Implementation
    @Override
    protected boolean stopSelfResult(int startId) {
        stopping();
        return super.stopSelfResult(startId);
    }

    private void stopping() {
        if (waiting && crash == null) {
            crash = "Context.startForegroundService() did not then call Service.startForeground(): " + service;
        }
    }

    /** The service's foregroundServiceType as the package manager has it. */
    private int declaredTypes() throws PackageManager.NameNotFoundException {
        return service.getPackageManager().getServiceInfo(new ComponentName(service, service.getClass()), 0)
                .getForegroundServiceType();
    }

    private void requirePermission(boolean enforced, String permission) throws PackageManager.NameNotFoundException {
        PackageInfo info = service.getPackageManager().getPackageInfo(service.getPackageName(), PackageManager.GET_PERMISSIONS);
        if (enforced && (info.requestedPermissions == null || !Arrays.asList(info.requestedPermissions).contains(permission))) {
            throw new SecurityException("Permission Denial: startForeground from pid=" + android.os.Process.myPid()
                    + " requires " + permission);
        }
    }
}
