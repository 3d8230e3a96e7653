/*
 * err.c - formatting of one-line input errors (see err.h).
 *
 * Whatever the pieces contain, the message stays one line of printable text and
 * keeps what matters: every piece is quoted (control bytes as JSON escapes, so a
 * name with a newline or an escape sequence reaches the terminal as \n or \u001b),
 * the file and the path are cut to MM_ERR_PIECE characters, and a cut keeps both
 * ends ("kernels.aaaa...aaaa.machine.mem"), so neither a very long key nor a long
 * file name can push "what was expected" out of the buffer.  Input tokens and
 * lines quoted inside a message (a bad trace line, a workfile token) go through
 * mm_err_quote(): in double quotes, every non-ASCII byte escaped, cut at the end.
 * Both use the one byte escaper, esc_mode().
 */
#include "emu/core/err.h"

#include <stdio.h>
#include <string.h>

/* The escape of byte @c into @buf (7 bytes).  @token: a quoted input token, where
 * '"' and '\\' are escaped too and every byte outside printable ASCII (UTF-8
 * included) becomes \\u00XX; otherwise (names and paths in a message) only control
 * bytes are escaped.  Returns: its length (1, 2 or 6). */
static size_t esc_mode(unsigned char c, char *buf, int token)
{
	char named = c == '\n' ? 'n' : c == '\t' ? 't' : c == '\r' ? 'r' :
		     token && c == '"' ? '"' : token && c == '\\' ? '\\' : 0;
	if (named) {
		buf[0] = '\\';
		buf[1] = named;
		return 2;
	}
	if (c >= 0x20 && c != 0x7f && (!token || c < 0x7f)) {
		buf[0] = (char)c;
		return 1;
	}
	snprintf(buf, 7, "\\u%04x", c);
	return 6;
}

static size_t esc(unsigned char c, char *buf)
{
	return esc_mode(c, buf, 0);
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

size_t mm_err_clean(char *out, size_t cap, const char *s, size_t max)
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
		n += mm_err_clean(e->msg + n, cap - n, file, MM_ERR_PIECE);
		n += (size_t)snprintf(e->msg + n, cap - n, ": ");
	}
	if (path && *path) {
		n += mm_err_clean(e->msg + n, cap - n, path, MM_ERR_PIECE);
		n += (size_t)snprintf(e->msg + n, cap - n, ": ");
	}
	mm_err_clean(e->msg + n, cap - n, what, cap - n - 1);
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

const char *mm_err_quote(char *buf, size_t size, const char *s, size_t len)
{
	char q[8];
	size_t n = 0, i = 0;
	buf[n++] = '"';
	/* whole characters while "...", the closing quote and the NUL fit after them */
	for (; i < len; i++) {
		size_t el = esc_mode((unsigned char)s[i], q, 1);
		if (n + el + 5 > size)
			break;
		memcpy(buf + n, q, el);
		n += el;
	}
	/* then the rest, if all of it fits without "..." */
	size_t rest = 0, j = i;
	while (j < len && n + rest + 2 <= size)
		rest += esc_mode((unsigned char)s[j++], q, 1);
	if (n + rest + 2 <= size) {
		for (; i < len; i++) {
			size_t el = esc_mode((unsigned char)s[i], q, 1);
			memcpy(buf + n, q, el);
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
