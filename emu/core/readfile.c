/*
 * readfile.c - one reader for whole input files (traces, workfiles): open, refuse
 * a directory and a regular file above the caller's size limit, size the buffer
 * from fstat when the file is regular, read to EOF (growing the buffer for pipes,
 * devices and the like, never beyond the limit: /dev/zero ends with an error, not
 * with the host's memory), retry on EINTR.  Also the one test for a UTF-8
 * byte-order mark, which the parsers skip.
 */
#include "emu/core/readfile.h"
#include "emu/core/hostmem.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* "PATH: expected a WHAT of at most LIMIT, got GOT" with LIMIT in GiB, MiB, KiB or bytes. */
static int too_big(struct mm_err *e, const char *path, const char *what, size_t max, const char *got)
{
	static const char *const unit[] = { "bytes", "KiB", "MiB", "GiB" };
	size_t v = max;
	int u = 0;
	while (u < 3 && v >= 1024 && v % 1024 == 0) {
		v /= 1024;
		u++;
	}
	return mm_errf(e, path, NULL, "expected a %s of at most %zu %s, got %s", what, v, unit[u], got);
}

/* A digest of (path, content) of every file read between mm_inputs_reset() and
 * mm_inputs_digest(): one process validates one scenario at a time, so a
 * process-wide digest is enough, and nothing is hashed outside that window (replay
 * loads traces without paying for it).  Eight bytes per step (multiply and
 * xor-shift), about 0.2 ns per byte. */
static uint64_t inputs_hash;
static int inputs_count, inputs_on;
static unsigned inputs_epoch;

static void inputs_fold(const char *p, size_t n)
{
	if (!inputs_on)
		return;
	uint64_t h = inputs_hash ^ (n * UINT64_C(0x9e3779b97f4a7c15));
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		uint64_t w;
		memcpy(&w, p + i, 8);
		h = (h ^ w) * UINT64_C(0xff51afd7ed558ccd);
		h ^= h >> 32;
	}
	for (; i < n; i++)
		h = (h ^ (unsigned char)p[i]) * UINT64_C(0x100000001b3);
	inputs_hash = h;
}

int mm_read_file(const char *path, const char *what, size_t max, char **out, size_t *outlen,
		 struct mm_err *e)
{
	*out = NULL;
	*outlen = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return mm_errf(e, path, NULL, "cannot open (%s)", strerror(errno));
	struct stat st;
	size_t cap = 1 << 16, len = 0;
	if (fstat(fd, &st) == 0) {
		if (S_ISDIR(st.st_mode)) {
			close(fd);
			return mm_errf(e, path, NULL, "expected a %s, got a directory", what);
		}
		if (S_ISREG(st.st_mode) && (uintmax_t)st.st_size > max) {
			char got[48];
			snprintf(got, sizeof got, "%jd bytes", (intmax_t)st.st_size);
			close(fd);
			return too_big(e, path, what, max, got);
		}
		if (S_ISREG(st.st_mode) && st.st_size > 0)
			cap = (size_t)st.st_size + 1;   /* + 1: room to see EOF */
	}
	if (cap > max + 1)
		cap = max + 1;
	char *buf = mm_calloc_huge(cap, 1);   /* zero pages come from the host untouched */
	for (;;) {
		if (buf && len == cap) {
			if (len > max) {   /* max + 1 bytes read: a larger file */
				free(buf);
				close(fd);
				return too_big(e, path, what, max, "more");
			}
			size_t ncap = cap > (max + 1) / 2 ? max + 1 : cap * 2;
			char *b2 = realloc(buf, ncap);
			if (!b2)
				free(buf);
			buf = b2;
			cap = ncap;
		}
		if (!buf) {
			close(fd);
			return mm_errf(e, path, NULL, "out of memory while reading the %s", what);
		}
		ssize_t r = read(fd, buf + len, cap - len);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			int err = errno;
			free(buf);
			close(fd);
			return mm_errf(e, path, NULL, "cannot read (%s)", strerror(err));
		}
		if (r == 0)
			break;
		len += (size_t)r;
	}
	close(fd);
	*out = buf;
	*outlen = len;
	inputs_fold(path, strlen(path) + 1);
	inputs_fold(buf, len);
	inputs_count += inputs_on;
	return 0;
}

void mm_inputs_reset(void)
{
	inputs_hash = UINT64_C(0xcbf29ce484222325);
	inputs_count = 0;
	inputs_on = 1;
	inputs_epoch++;
}

unsigned mm_inputs_epoch(void)
{
	return inputs_epoch;
}

int mm_inputs_digest(char *out, size_t len)
{
	snprintf(out, len, "%016llx", (unsigned long long)inputs_hash);
	inputs_on = 0;
	return inputs_count;
}

size_t mm_bom_len(const char *buf, size_t len)
{
	return len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
}
