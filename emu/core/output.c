/*
 * output.c - writing mmemu's files (output.h).  One writer for results, reports
 * and sweep state: directory first, then either an atomic replace (regular
 * files) or a direct write (devices, FIFOs: renaming over /dev/full would turn the
 * device node into a JSON file).
 */
#include "emu/core/output.h"

#include <errno.h>
#include <limits.h>
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

int results_run_measured(const json_t *r)
{
	return json_is_object(r) && json_is_number(json_object_get(json_object_get(r, "primary"), "value"));
}

int mkdir_p(const char *dir)
{
	char *buf = strdup(dir);
	if (!buf)
		return -1;
	int rc = 0;
	for (char *p = buf + 1; *p && rc == 0; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0777) && errno != EEXIST)
			rc = -1;
		*p = '/';
	}
	if (rc == 0 && mkdir(buf, 0777) && errno != EEXIST)
		rc = -1;
	int saved = errno;
	free(buf);
	errno = saved;
	return rc;
}

/*
 * The temporary lives next to @path (same folder, so rename() is atomic), is
 * named PATH.tmp.XXXXXX and is created by mkstemp(): O_CREAT|O_EXCL, so a
 * symlink planted under a guessable name is never followed.  Names are built on
 * the heap: no length truncates them; the kernel refuses what is too long.
 */
int out_open_atomic(struct out_atomic *a, const char *path, struct mm_err *e)
{
	size_t pl = strlen(path);
	struct stat st;
	*a = (struct out_atomic){ .path = path };
	if (pl >= PATH_MAX)
		return mm_errf(e, path, NULL, "cannot write: path longer than %d characters", PATH_MAX - 1);
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		if (S_ISDIR(st.st_mode))
			return mm_errf(e, path, NULL, "cannot write: is a directory");
		a->f = fopen(path, "w");   /* a device or a FIFO: written in place */
		if (!a->f)
			return mm_errf(e, path, NULL, "cannot write: %s", strerror(errno));
		return 0;
	}
	char *tmp = malloc(pl + sizeof ".tmp.XXXXXX");
	if (!tmp)
		return mm_errf(e, path, NULL, "out of memory");
	memcpy(tmp, path, pl + 1);
	char *slash = strrchr(tmp, '/');
	if (slash && slash != tmp) {
		*slash = '\0';
		if (mkdir_p(tmp)) {
			int saved = errno;
			mm_errf(e, path, NULL, "cannot create directory %s: %s", tmp, strerror(saved));
			free(tmp);
			return -1;
		}
	}
	memcpy(tmp, path, pl);
	memcpy(tmp + pl, ".tmp.XXXXXX", sizeof ".tmp.XXXXXX");
	int fd = mkstemp(tmp);
	if (fd < 0) {
		int saved = errno;
		free(tmp);
		return mm_errf(e, path, NULL, "cannot write: %s", strerror(saved));
	}
	mode_t um = umask(0);
	umask(um);
	a->f = fchmod(fd, 0666 & ~um) == 0 ? fdopen(fd, "w") : NULL;
	if (!a->f) {
		int saved = errno;
		close(fd);
		unlink(tmp);
		free(tmp);
		return mm_errf(e, path, NULL, "cannot write: %s", strerror(saved));
	}
	a->tmp = tmp;
	return 0;
}

int out_commit_atomic(struct out_atomic *a, struct mm_err *e)
{
	int bad = fflush(a->f) != 0;
	int saved = errno;
	bad |= fclose(a->f) != 0;
	if (bad && !errno)
		errno = saved ? saved : EIO;
	a->f = NULL;
	if (!bad && a->tmp && rename(a->tmp, a->path))
		bad = 1;
	saved = errno;
	if (a->tmp) {
		if (bad)
			unlink(a->tmp);
		free(a->tmp);
		a->tmp = NULL;
	}
	return bad ? mm_errf(e, a->path, NULL, "cannot write: %s", strerror(saved)) : 0;
}

void out_abort_atomic(struct out_atomic *a)
{
	if (a->f)
		fclose(a->f);
	a->f = NULL;
	if (a->tmp) {
		unlink(a->tmp);
		free(a->tmp);
		a->tmp = NULL;
	}
}

int out_write_text(const char *path, const char *text, struct mm_err *e)
{
	struct out_atomic a;
	if (out_open_atomic(&a, path, e))
		return -1;
	size_t n = strlen(text);
	if (fwrite(text, 1, n, a.f) != n) {
		int saved = errno ? errno : EIO;
		out_abort_atomic(&a);
		return mm_errf(e, path, NULL, "cannot write: %s", strerror(saved));
	}
	return out_commit_atomic(&a, e);
}
