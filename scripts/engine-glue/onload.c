/*
 * The JNI version the engine needs, declared when the library is loaded (scripts/engine-glue.sh
 * compiles this into gobind's glue, which has no JNI_OnLoad of its own). Without it the JVM assumes
 * JNI 1.1, and a JVM without 1.6 would fail only at the first call that needs it; with it, it fails
 * at System.loadLibrary.
 */
#include <jni.h>

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM *vm, void *reserved) {
	(void)vm;
	(void)reserved;
	return JNI_VERSION_1_6;
}
