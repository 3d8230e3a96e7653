/*
 * output.c - writing mmemu's files (output.h).  One writer for results, reports
 * and sweep state: directory first, then either an atomic replace (regular
 * files) or a direct write (devices, FIFOs: renaming over /dev/full would turn the
 * device node into a JSON file).
 */
#include "emu/core/output.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

size_t results_dump_flags(void)
{
	return JSON_INDENT(1) | JSON_REAL_PRECISION(12);
}

char *results_point_label(const json_t *point)
{
	size_t cap = 256, n = 0;
	char *s = malloc(cap);
	if (!s)
		return NULL;
	s[0] = '\0';
	const char *key;
	json_t *v;
	json_object_foreach((json_t *)point, key, v) {
		char *val = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
		const char *shortkey = strrchr(key, '.');
		shortkey = shortkey ? shortkey + 1 : key;
		size_t need = n + strlen(shortkey) + strlen(val ? val : "") + 4;
		if (need > cap) {
			cap = need * 2;
			char *t = realloc(s, cap);
			if (!t) {
				free(val);
				free(s);
				return NULL;
			}
			s = t;
		}
		n += (size_t)sprintf(s + n, "%s%s=%s", n ? " " : "", shortkey, val ? val : "");
		free(val);
	}
	return s;
}

int mkdir_p(const char *dir)
{
	char buf[1024];
	if (snprintf(buf, sizeof buf, "%s", dir) >= (int)sizeof buf)
		return -1;
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0777) && errno != EEXIST)
			return -1;
		*p = '/';
	}
	if (mkdir(buf, 0777) && errno != EEXIST)
		return -1;
	return 0;
}

/* Write @n bytes of @text to @f and close it. Returns: 0, or -1 (errno set). */
static int write_close(FILE *f, const char *text, size_t n)
{
	int bad = fwrite(text, 1, n, f) != n;
	bad |= fflush(f) != 0;
	int saved = errno;
	bad |= fclose(f) != 0;
	if (bad && !errno)
		errno = saved ? saved : EIO;
	return bad ? -1 : 0;
}

int out_write_text(const char *path, const char *text, struct mm_err *e)
{
	char dir[1024], tmp[1100];
	size_t n = strlen(text);
	struct stat st;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		if (S_ISDIR(st.st_mode))
			return mm_errf(e, path, NULL, "cannot write: is a directory");
		FILE *f = fopen(path, "w");
		if (!f || write_close(f, text, n))
			return mm_errf(e, path, NULL, "cannot write: %s", strerror(errno));
		return 0;
	}
	snprintf(dir, sizeof dir, "%s", path);
	char *slash = strrchr(dir, '/');
	if (slash) {
		*slash = '\0';
		if (*dir && mkdir_p(dir))
			return mm_errf(e, path, NULL, "cannot create directory %s: %s", dir, strerror(errno));
	}
	snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
	FILE *f = fopen(tmp, "w");
	if (!f)
		return mm_errf(e, path, NULL, "cannot write: %s", strerror(errno));
	if (write_close(f, text, n) || rename(tmp, path)) {
		int saved = errno;
		unlink(tmp);
		return mm_errf(e, path, NULL, "cannot write: %s", strerror(saved));
	}
	return 0;
}
