/*
 * fuzz.h - shared by the libFuzzer targets in tests/fuzz (docs/fuzzing.md): the
 * oracles every target applies beyond the sanitizers.
 *
 * A finding is reported by abort() after one line on stderr naming the broken
 * property: libFuzzer turns the signal into a crash with the input saved.  The
 * targets themselves never exit and free everything they allocate per input, so
 * libFuzzer's leak check stays on.
 *
 * The error contract checked (emu/core/err.h, docs/scenario.md "Errors"): a
 * rejected input gives one non-empty line of printable text that starts with
 * the input's name (as mm_errf() writes it: cut in the middle beyond
 * MM_ERR_PIECE characters) and ": "; when it names a line ("line N: "), N lies
 * inside the input.
 */
#ifndef MMEMU_FUZZ_H
#define MMEMU_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/core/err.h"

#define FUZZ_CHECK(cond)                                                                   \
	do {                                                                               \
		if (!(cond))                                                               \
			fuzz_fail(__FILE__, __LINE__, #cond, NULL);                         \
	} while (0)

static inline void fuzz_fail(const char *file, int line, const char *what, const char *msg)
{
	fprintf(stderr, "%s:%d: property broken: %s%s%s\n", file, line, what,
		msg ? "\n  message: " : "", msg ? msg : "");
	abort();
}

/* Lines of @len bytes of text: one more than its newlines (the last may be unterminated). */
static inline size_t fuzz_lines(const char *buf, size_t len)
{
	size_t n = 1;
	for (size_t i = 0; i < len; i++)
		n += buf[i] == '\n';
	return n;
}

/*
 * The error of a rejected input named @name: one printable line "NAME: ...".
 * @lines: when not 0, a "line N: " right after the name must have 1 <= N <= lines.
 */
static inline void fuzz_check_err(const struct mm_err *e, const char *name, size_t lines)
{
	char want[MM_ERR_MAX];
	size_t n = strnlen(e->msg, sizeof e->msg);
	size_t nl = mm_err_clean(want, sizeof want, name, MM_ERR_PIECE);
	if (n == sizeof e->msg)
		fuzz_fail(__FILE__, __LINE__, "message NUL-terminated", NULL);
	if (n <= nl + 2 || strncmp(e->msg, want, nl) != 0 || strncmp(e->msg + nl, ": ", 2) != 0)
		fuzz_fail(__FILE__, __LINE__, "message is \"NAME: what\"", e->msg);
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)e->msg[i] < 0x20 || e->msg[i] == 0x7f)
			fuzz_fail(__FILE__, __LINE__, "message is one line of printable text", e->msg);
	const char *p = e->msg + nl + 2;
	if (lines && strncmp(p, "line ", 5) == 0) {
		char *end;
		unsigned long long l = strtoull(p + 5, &end, 10);
		if (end == p + 5 || strncmp(end, ": ", 2) != 0 || l < 1 || l > lines)
			fuzz_fail(__FILE__, __LINE__, "\"line N: \" with N inside the input", e->msg);
	}
}

#endif
