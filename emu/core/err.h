/*
 * err.h - one-line error messages for bad input.
 *
 * Every fallible function in mmemu returns 0 on success or a negative value on
 * failure and, on failure, fills a struct mm_err with one line of the form
 *     FILE: PATH: what was expected
 * where PATH is a JSON path ("machine.disks[0].rpm") or "line N".  The CLI prints
 * that line on stderr and exits 2.  No error path depends on a log level.
 */
#ifndef MMEMU_ERR_H
#define MMEMU_ERR_H

#include <stdarg.h>
#include <stddef.h>

#define MM_ERR_MAX 512

/* Longest file name or JSON path in a message: a longer one is cut in the middle
 * (mm_err_clean() with this @max). */
#define MM_ERR_PIECE 160

struct mm_err {
	char msg[MM_ERR_MAX];
};

/**
 * mm_errf() - record an error.
 * @e: where to record it (may be NULL: the error is then dropped)
 * @file: input file name or NULL
 * @path: JSON path, "line N", or NULL
 * Returns: -1 always, so callers can write `return mm_errf(...)`.
 */
int mm_errf(struct mm_err *e, const char *file, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/** mm_verrf() - va_list form of mm_errf(). Returns: -1. */
int mm_verrf(struct mm_err *e, const char *file, const char *path, const char *fmt, va_list ap);

/**
 * mm_err_clean() - @s as one line of printable text for a message: control bytes
 * as JSON escapes (\n, \t, \u001b), and when that is longer than @max
 * characters, its start and its end joined by "...".
 * @out: receives the text, NUL-terminated (at most @cap - 1 characters)
 * Returns: the length written.
 */
size_t mm_err_clean(char *out, size_t cap, const char *s, size_t max);

/* Size of a buffer for mm_err_quote(): up to 27 plain characters whole, longer
 * input cut to 24 and "...". */
#define MM_ERR_QUOTE_SIZE 30

/**
 * mm_err_quote() - quote input bytes for an error message, so that whatever the
 * input holds reaches the terminal as printable ASCII on one line.
 * @buf: receives the quote, NUL-terminated
 * @size: bytes of @buf, at least 8 (see MM_ERR_QUOTE_SIZE)
 * @s: the bytes (need not be NUL-terminated; may contain NUL bytes)
 * @len: how many bytes of @s to quote
 * The quote is in double quotes, with JSON-style escapes: \" \\ \n \r \t, and
 * \u00XX (XX the byte's value in hex) for every other byte outside 0x20..0x7e,
 * NUL and bytes of UTF-8 sequences included.  When the escaped text does not fit
 * in @size, it is cut after a whole character and "..." precedes the closing quote.
 * Returns: @buf.
 */
const char *mm_err_quote(char *buf, size_t size, const char *s, size_t len);

#endif
