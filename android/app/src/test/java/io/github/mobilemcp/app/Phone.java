package io.github.mobilemcp.app;

import static org.robolectric.Shadows.shadowOf;

import android.Manifest;
import android.app.Application;
import android.os.Build;
import android.telephony.SmsManager;
import android.telephony.SubscriptionInfo;
import android.telephony.SubscriptionManager;


import io.github.mobilemcp.sdk.testing.internal.WireRule;

import java.util.Arrays;

import org.robolectric.RuntimeEnvironment;
import org.robolectric.shadows.ShadowSmsManager;
import org.robolectric.shadows.ShadowSubscriptionManager;
import org.robolectric.shadows.ShadowSubscriptionManager.SubscriptionInfoBuilder;

/**
 * The phone the SMS app's tests run on: two SIMs, and the SMS and phone-state permissions granted,
 * as the user grants them; and the SmsManager of each SIM, as AndroidPlatform reaches it, to see
 * what it was asked to send. A test class makes one as a field, before any field that starts the
 * tool ({@code private final Phone phone = new Phone();}); Robolectric resets the phone between
 * tests, and the test class is made anew for each.
 */
final class Phone {
    /** The first SIM: subscription 14 in slot 0. */
    static final SubscriptionInfo SIM_14 = SubscriptionInfoBuilder.newBuilder().setId(14).setSimSlotIndex(0)
            .setCarrierName("Vodafone UK").setDisplayName("Vodafone UK").buildSubscriptionInfo();
    /** The second SIM, whose display name crosses JNI as non-ASCII both ways. */
    static final SubscriptionInfo SIM_17 = SubscriptionInfoBuilder.newBuilder().setId(17).setSimSlotIndex(1)
            .setCarrierName("Yettel HU").setDisplayName("Ünnep 🎉").buildSubscriptionInfo();

    private final Application app = RuntimeEnvironment.getApplication();

    Phone() {
        shadowOf(app).grantPermissions(Manifest.permission.SEND_SMS, Manifest.permission.READ_PHONE_STATE);
        setSims(SIM_14, SIM_17);
    }

    /** Makes sims the active SIMs (none: no SIM). */
    void setSims(SubscriptionInfo... sims) {
        ShadowSubscriptionManager subs = shadowOf(app.getSystemService(SubscriptionManager.class));
        subs.setActiveSubscriptionInfoList(Arrays.asList(sims));
    }

    /** The shadow of the very SmsManager AndroidPlatform uses for subscriptionId, as it gets it per API level. */
    @SuppressWarnings("deprecation")
    ShadowSmsManager sms(int subscriptionId) {
        return shadowOf(Build.VERSION.SDK_INT >= 31
                ? app.getSystemService(SmsManager.class).createForSubscriptionId(subscriptionId)
                : SmsManager.getSmsManagerForSubscriptionId(subscriptionId));
    }

    /** Waits until the worker has handed the SMS to the SmsManager of subscriptionId. */
    ShadowSmsManager.TextMultipartParams awaitSend(int subscriptionId) {
        ShadowSmsManager sms = sms(subscriptionId);
        WireRule.idleUntil("sendMultipartTextMessage on subscription " + subscriptionId,
                () -> sms.getLastSentMultipartTextMessageParams() != null);
        return sms.getLastSentMultipartTextMessageParams();
    }

    /** True when no SIM's SmsManager was asked to send anything. */
    boolean nothingSent() {
        for (int sub : new int[] {14, 17}) {
            ShadowSmsManager sms = sms(sub);
            if (sms.getLastSentMultipartTextMessageParams() != null || sms.getLastSentTextMessageParams() != null) {
                return false;
            }
        }
        return true;
    }
}
