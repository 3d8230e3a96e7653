/*
 * err.c - formatting of one-line input errors (see err.h), and the one quoting
 * helper that puts input bytes into them (mm_err_quote(): escaped, cut to size).
 */
#include "emu/err.h"

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

/* The escape of byte @c into @out (7 bytes). Returns: its length (1, 2 or 6). */
static size_t escape(unsigned char c, char *out)
{
	char named = c == '"' ? '"' : c == '\\' ? '\\' : c == '\n' ? 'n' : c == '\r' ? 'r' :
		     c == '\t' ? 't' : 0;
	if (named) {
		out[0] = '\\';
		out[1] = named;
		return 2;
	}
	if (c >= 0x20 && c <= 0x7e) {
		out[0] = (char)c;
		return 1;
	}
	snprintf(out, 7, "\\u%04x", c);
	return 6;
}

const char *mm_err_quote(char *buf, size_t size, const char *s, size_t len)
{
	char esc[7];
	size_t n = 0, i = 0;
	buf[n++] = '"';
	/* whole characters while "...", the closing quote and the NUL fit after them */
	for (; i < len; i++) {
		size_t el = escape((unsigned char)s[i], esc);
		if (n + el + 5 > size)
			break;
		memcpy(buf + n, esc, el);
		n += el;
	}
	/* then the rest, if all of it fits without "..." */
	size_t rest = 0, j = i;
	while (j < len && n + rest + 2 <= size)
		rest += escape((unsigned char)s[j++], esc);
	if (n + rest + 2 <= size) {
		for (; i < len; i++) {
			size_t el = escape((unsigned char)s[i], esc);
			memcpy(buf + n, esc, el);
			n += el;
		}
	} else {
		memcpy(buf + n, "...", 3);
		n += 3;
	}
	buf[n++] = '"';
	buf[n] = '\0';
	return buf;
}
