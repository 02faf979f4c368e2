/*
 * The part of Android's <android/log.h> that gobind's JNI glue uses, for building that glue for a
 * desktop JVM (scripts/host-engine.sh): the priorities and __android_log_print. log.c implements
 * it by writing to stderr, so the host engine needs no Android library at all.
 */
#ifndef MOBILEMCP_HOST_ANDROID_LOG_H
#define MOBILEMCP_HOST_ANDROID_LOG_H

typedef enum android_LogPriority {
	ANDROID_LOG_UNKNOWN = 0,
	ANDROID_LOG_DEFAULT,
	ANDROID_LOG_VERBOSE,
	ANDROID_LOG_DEBUG,
	ANDROID_LOG_INFO,
	ANDROID_LOG_WARN,
	ANDROID_LOG_ERROR,
	ANDROID_LOG_FATAL,
	ANDROID_LOG_SILENT,
} android_LogPriority;

int __android_log_print(int prio, const char *tag, const char *fmt, ...);

#endif
