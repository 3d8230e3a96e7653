/*
 * err.c - formatting of one-line input errors (see err.h).
 *
 * Whatever the pieces contain, the message stays one line of printable text and
 * keeps what matters: every piece is quoted (control bytes as JSON escapes, so a
 * name with a newline or an escape sequence reaches the terminal as \n or \u001b),
 * the file and the path are cut to MM_ERR_PIECE characters, and a cut keeps both
 * ends ("kernels.aaaa...aaaa.machine.mem"), so neither a very long key nor a long
 * file name can push "what was expected" out of the buffer.
 */
#include "emu/core/err.h"

#include <stdio.h>
#include <string.h>

/* Longest quoted file name or JSON path in a message. */
#define MM_ERR_PIECE 160

/* The escape of byte @c into @buf. Returns: its length (1, 2 or 6). */
static size_t esc(unsigned char c, char *buf)
{
	static const char named[] = { ['\n'] = 'n', ['\t'] = 't', ['\r'] = 'r', ['\b'] = 'b', ['\f'] = 'f' };
	if (c >= 0x20 && c != 0x7f) {
		buf[0] = (char)c;
		return 1;
	}
	if (c < sizeof named && named[c]) {
		buf[0] = '\\';
		buf[1] = named[c];
		return 2;
	}
	snprintf(buf, 7, "\\u%04x", c);
	return 6;
}

/* Quoted length of @s[0..@len). */
static size_t quoted_len(const char *s, size_t len)
{
	char b[8];
	size_t n = 0;
	for (size_t i = 0; i < len; i++)
		n += esc((unsigned char)s[i], b);
	return n;
}

/* Append @s[0..@len) quoted to @out while it fits in @room. Returns: bytes written. */
static size_t put(char *out, size_t room, const char *s, size_t len)
{
	char b[8];
	size_t n = 0;
	for (size_t i = 0; i < len; i++) {
		size_t k = esc((unsigned char)s[i], b);
		if (n + k > room)
			break;
		memcpy(out + n, b, k);
		n += k;
	}
	return n;
}

size_t mm_err_quote(char *out, size_t cap, const char *s, size_t max)
{
	if (!cap)
		return 0;
	size_t len = strlen(s), n;
	if (max > cap - 1)
		max = cap - 1;
	if (quoted_len(s, len) <= max) {
		n = put(out, max, s, len);
	} else if (max < 8) {
		n = put(out, max, s, len);
	} else {
		/* both ends: two thirds from the start, the rest from the end */
		size_t tail_room = (max - 3) / 3, head_room = max - 3 - tail_room;
		size_t start = len, tl = 0;
		char b[8];
		while (start > 0) {
			size_t k = esc((unsigned char)s[start - 1], b);
			if (tl + k > tail_room)
				break;
			tl += k;
			start--;
		}
		n = put(out, head_room, s, start);
		memcpy(out + n, "...", 3);
		n += 3;
		n += put(out + n, tail_room, s + start, len - start);
	}
	out[n] = '\0';
	return n;
}

int mm_verrf(struct mm_err *e, const char *file, const char *path, const char *fmt, va_list ap)
{
	if (!e)
		return -1;
	char what[8 * MM_ERR_MAX];   /* long enough for any name callers embed */
	vsnprintf(what, sizeof what, fmt, ap);
	size_t n = 0, cap = sizeof e->msg;
	e->msg[0] = '\0';
	if (file && *file) {
		n += mm_err_quote(e->msg + n, cap - n, file, MM_ERR_PIECE);
		n += (size_t)snprintf(e->msg + n, cap - n, ": ");
	}
	if (path && *path) {
		n += mm_err_quote(e->msg + n, cap - n, path, MM_ERR_PIECE);
		n += (size_t)snprintf(e->msg + n, cap - n, ": ");
	}
	mm_err_quote(e->msg + n, cap - n, what, cap - n - 1);
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
