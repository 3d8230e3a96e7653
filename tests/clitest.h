/*
 * clitest.h - shared by the black-box tests of mmemu subcommands (test_compare.c,
 * test_sweep.c, test_reproduce.c): a scratch directory, running the binary named by
 * $MMEMU with its stdout and stderr captured there, and reading files back.
 */
#ifndef MMEMU_CLITEST_H
#define MMEMU_CLITEST_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir[256];   /* the scratch directory of this test program */

/* Run `$MMEMU FMT...` with stdout in DIR/out and stderr in DIR/err.
 * Returns: its exit status, or -1 if it did not exit. */
static int sh(const char *fmt, ...)
{
	char cmd[4096], full[5000];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(cmd, sizeof cmd, fmt, ap);
	va_end(ap);
	snprintf(full, sizeof full, "\"$MMEMU\" %s >%s/out 2>%s/err", cmd, dir, dir);
	int st = system(full);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Returns: the whole file at @path (malloc'ed), or NULL if it cannot be opened. */
static char *slurp_path(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	size_t r;
	while ((r = fread(buf + n, 1, cap - n - 1, f)) > 0) {
		n += r;
		if (n + 1 == cap)
			buf = realloc(buf, cap *= 2);
	}
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* Write @text to DIR/@name (a scenario or results file a test builds;
 * test_shard's helper, shared).
 * Returns: 0, or -1 if it cannot be written. */
static inline int put(const char *name, const char *text)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	int rc = fputs(text, f) < 0 ? -1 : 0;
	return fclose(f) ? -1 : rc;
}

/* Returns: DIR/@name's contents (malloc'ed), "" if it does not exist. */
static char *slurp(const char *name)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	char *s = slurp_path(path);
	return s ? s : strdup("");
}

/* Create the scratch directory /tmp/mmemu-test-@tag-XXXXXX. Returns: 0 or -1. */
static int scratch_dir(const char *tag)
{
	snprintf(dir, sizeof dir, "/tmp/mmemu-test-%s-XXXXXX", tag);
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

#endif
