package io.github.mobilemcp.app;

import android.app.PendingIntent;
import android.telephony.SmsManager;

import java.util.ArrayList;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import org.robolectric.annotation.Implementation;
import org.robolectric.annotation.Implements;
import org.robolectric.shadows.ShadowSmsManager;

/**
 * Robolectric's ShadowSmsManager, which keeps only the last multipart send, made to keep every one
 * as well, in order ({@code @Config(shadows = RecordingSmsManager.class)}). The tool service runs
 * up to four requests at once, so two sends can land between two looks at the last one.
 */
@Implements(SmsManager.class)
public class RecordingSmsManager extends ShadowSmsManager {
    /** Every multipart send since the test cleared it. */
    static final Queue<TextMultipartParams> SENDS = new ConcurrentLinkedQueue<>();

    @Implementation
    @Override
    protected void sendMultipartTextMessage(String destinationAddress, String scAddress, ArrayList<String> parts,
            ArrayList<PendingIntent> sentIntents, ArrayList<PendingIntent> deliveryIntents) {
        // One send at a time, so that the last one read back is this one.
        synchronized (SENDS) {
            super.sendMultipartTextMessage(destinationAddress, scAddress, parts, sentIntents, deliveryIntents);
            SENDS.add(getLastSentMultipartTextMessageParams());
        }
    }
}
