/*
 * readfile.c - one reader for whole input files (traces, workfiles): open, refuse
 * a directory, size the buffer from fstat when the file is regular, read to EOF
 * (growing the buffer for pipes and the like), retry on EINTR.
 */
#include "emu/core/readfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int mm_read_file(const char *path, const char *what, char **out, size_t *outlen, struct mm_err *e)
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
		if (S_ISREG(st.st_mode) && st.st_size > 0)
			cap = (size_t)st.st_size + 1;
	}
	char *buf = malloc(cap);
	for (;;) {
		if (buf && len == cap) {
			char *b2 = realloc(buf, cap * 2);
			if (!b2)
				free(buf);
			buf = b2;
			cap *= 2;
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
	return 0;
}
