/*
 * err.c - formatting of one-line input errors (see err.h).
 */
#include "emu/core/err.h"

#include <stdio.h>
#include <string.h>

int mm_verrf(struct mm_err *e, const char *file, const char *path, const char *fmt, va_list ap)
{
	if (!e)
		return -1;
	size_t n = 0;
	e->msg[0] = '\0';
	if (file && *file)
		n += (size_t)snprintf(e->msg, sizeof e->msg, "%s: ", file);
	if (path && *path && n < sizeof e->msg)
		n += (size_t)snprintf(e->msg + n, sizeof e->msg - n, "%s: ", path);
	if (n < sizeof e->msg)
		vsnprintf(e->msg + n, sizeof e->msg - n, fmt, ap);
	/* one line, whatever the pieces contained */
	for (char *p = e->msg; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
	return -1;
}

int mm_errf(struct mm_err *e, const char *file, const char *path, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	mm_verrf(e, file, path, fmt, ap);
	va_end(ap);
	return -1;
}
