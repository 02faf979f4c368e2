/*
 * The machine-dependent part of <jni.h> for 64-bit Windows, for cross-building the host engine's
 * JNI glue on Linux (scripts/host-engine.sh windows-x86_64), whose JDK carries only its own
 * include/linux/jni_md.h. It says what the JNI specification fixes for that platform: the exported
 * functions are DLL exports with the platform's C calling convention, jint is 32 bits and jlong 64.
 */
#ifndef MOBILEMCP_WIN32_JNI_MD_H
#define MOBILEMCP_WIN32_JNI_MD_H

#define JNIEXPORT __declspec(dllexport)
#define JNIIMPORT __declspec(dllimport)
/* On x86-64 there is one calling convention; __stdcall is accepted and ignored. */
#define JNICALL __stdcall

typedef int jint;
typedef long long jlong;
typedef signed char jbyte;

#endif
