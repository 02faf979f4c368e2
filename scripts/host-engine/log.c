/* __android_log_print for the host engine (android/log.h): one line on stderr per message. */
#include <stdarg.h>
#include <stdio.h>

#include "android/log.h"

int __android_log_print(int prio, const char *tag, const char *fmt, ...) {
	static const char letters[] = "??VDIWEFS";
	va_list args;
	int n;
	fprintf(stderr, "%c/%s: ", prio >= 0 && prio <= ANDROID_LOG_SILENT ? letters[prio] : '?', tag);
	va_start(args, fmt);
	n = vfprintf(stderr, fmt, args);
	va_end(args);
	fputc('\n', stderr);
	return n;
}
