package io.github.mobilemcp.harness;

import android.bluetooth.BluetoothDevice;

import org.robolectric.annotation.Implements;

/**
 * Stands in for Robolectric 4.17's ShadowBluetoothDevice on SDK 33 and below, where nothing here
 * uses Bluetooth. That shadow names android.bluetooth.BluetoothDevice$BluetoothAddress (API 34) in
 * its methods, so on SDK 31 and 33 the first Activity a sandbox makes visible (whose ViewRootImpl
 * asks AudioManager, whose service proxy loads BluetoothDevice) fails with NoClassDefFoundError
 * (robolectric/robolectric#11520: shadows naming newer classes, fixed after 4.17). Declared for
 * every test in robolectric.properties; a shadow of one's own takes the built-in one's place.
 */
@Implements(value = BluetoothDevice.class, maxSdk = 33)
public class PlainBluetoothDevice {}
