/*
 * readfile.c - one reader for whole input files (traces, workfiles): open, refuse
 * a directory and a regular file above the caller's size limit, size the buffer
 * from fstat when the file is regular, read to EOF (growing the buffer for pipes,
 * devices and the like, never beyond the limit: /dev/zero ends with an error, not
 * with the host's memory), retry on EINTR.  mm_map_file() maps a regular file
 * instead of copying it (the trace loader: a 1 GiB trace is then neither copied
 * nor given a buffer the host must clear first).  Also the one test for a UTF-8
 * byte-order mark, which the parsers skip, and the inputs digest: the files a
 * scenario load reads are hashed, and read again after it (a sweep's children)
 * they must still be those bytes (issue 27: a loadfile cut during a sweep gave
 * results from the cut file under the old digest).
 */
#include "emu/core/readfile.h"
#include "emu/core/hostmem.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
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

#define FOLD_BASIS UINT64_C(0xcbf29ce484222325)   /* FNV-1a's offset basis */

/* Returns: @h with @n bytes at @p folded in. */
static uint64_t fold(uint64_t h, const char *p, size_t n)
{
	h ^= n * UINT64_C(0x9e3779b97f4a7c15);
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		uint64_t w;
		memcpy(&w, p + i, 8);
		h = (h ^ w) * UINT64_C(0xff51afd7ed558ccd);
		h ^= h >> 32;
	}
	for (; i < n; i++)
		h = (h ^ (unsigned char)p[i]) * UINT64_C(0x100000001b3);
	return h;
}

static void inputs_fold(const char *p, size_t n)
{
	if (inputs_on)
		inputs_hash = fold(inputs_hash, p, n);
}

/* The directories files may be read from (mm_read_confine()), or NULL. */
static const char *const *confine_roots;

void mm_read_confine(const char *const *roots)
{
	confine_roots = roots;
}

/* Returns: 0 when @path may be read, or -1 with @e set (outside every root, or
 * it does not resolve). */
static int confine_check(const char *path, struct mm_err *e)
{
	if (!confine_roots)
		return 0;
	char *real = realpath(path, NULL);
	if (!real)
		return mm_errf(e, path, NULL, "cannot open (%s)", strerror(errno));
	int ok = 0;
	for (const char *const *r = confine_roots; *r && !ok; r++) {
		size_t n = strlen(*r);
		ok = strncmp(real, *r, n) == 0 && (real[n] == '/' || real[n] == '\0');
	}
	free(real);
	if (ok)
		return 0;
	return mm_errf(e, path, NULL, "expected a shipped scenario or workload input (files under "
		       "scenarios/ and workloads/), got a file outside them");
}

/* Open @path for reading and check it against @max: *@st is its fstat (zeroed
 * when fstat fails).  Returns: the descriptor, or -1 with @e set. */
static int open_input(const char *path, const char *what, size_t max, struct stat *st,
		      struct mm_err *e)
{
	if (confine_check(path, e))
		return -1;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return mm_errf(e, path, NULL, "cannot open (%s)", strerror(errno));
	if (fstat(fd, st) != 0) {
		memset(st, 0, sizeof *st);
		return fd;
	}
	if (S_ISDIR(st->st_mode)) {
		close(fd);
		return mm_errf(e, path, NULL, "expected a %s, got a directory", what);
	}
	if (S_ISREG(st->st_mode) && (uintmax_t)st->st_size > max) {
		char got[48];
		snprintf(got, sizeof got, "%jd bytes", (intmax_t)st->st_size);
		close(fd);
		return too_big(e, path, what, max, got);
	}
	return fd;
}

/* Read @fd (opened by open_input(), closed here) to EOF into a new buffer.
 * Returns: 0 with *@out, *@outlen set, or -1 with @e set. */
static int read_fd(int fd, const struct stat *st, const char *path, const char *what,
		   size_t max, char **out, size_t *outlen, struct mm_err *e)
{
	size_t cap = 1 << 16, len = 0;
	if (S_ISREG(st->st_mode) && st->st_size > 0)
		cap = (size_t)st->st_size + 1;   /* + 1: room to see EOF */
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
	return 0;
}

/* Regular files whose bytes the digest already has in this epoch, by identity
 * (device, inode, size, modification time): validation reads a dbench loadfile
 * once per (kernel, sweep point), 34 times in seed 002's scenario, and its 26 MB
 * need folding once.  A repeat folds its path and the index of the first read. */
#define INPUTS_SEEN 16
static struct seen_file {
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtim;
} inputs_seen[INPUTS_SEEN];
static int inputs_nseen;
static unsigned inputs_seen_epoch;

/* Returns: whether @st is the file @f recorded (same identity and time). */
static bool same_file(const struct seen_file *f, const struct stat *st)
{
	return f->dev == st->st_dev && f->ino == st->st_ino && f->size == st->st_size &&
	       f->mtim.tv_sec == st->st_mtim.tv_sec && f->mtim.tv_nsec == st->st_mtim.tv_nsec;
}

/* Returns: the index of @st among the files folded in this epoch, or -1 (then it
 * is recorded when there is room). */
static int seen_index(const struct stat *st)
{
	if (inputs_seen_epoch != inputs_epoch) {
		inputs_seen_epoch = inputs_epoch;
		inputs_nseen = 0;
	}
	for (int i = 0; i < inputs_nseen; i++)
		if (same_file(&inputs_seen[i], st))
			return i;
	if (inputs_nseen < INPUTS_SEEN)
		inputs_seen[inputs_nseen++] = (struct seen_file){ st->st_dev, st->st_ino, st->st_size,
								  st->st_mtim };
	return -1;
}

/* The files the digest was made of, by path, with their identity and a hash of
 * their bytes: a file read again after the digest (a sweep's simulation child
 * re-reads the dbench loadfile and the reaim workfile) must still be what was
 * digested, since the digest keys the kept results.  Copied into every forked
 * child with the rest of the parent's memory. */
#define INPUTS_FILES 64
static struct digested_file {
	char *path;
	struct seen_file id;
	uint64_t hash;
} inputs_files[INPUTS_FILES];
static int inputs_nfiles;

/* Returns: the record of @path among the digested files, or NULL. */
static struct digested_file *digested(const char *path)
{
	for (int i = 0; i < inputs_nfiles; i++)
		if (!strcmp(inputs_files[i].path, path))
			return &inputs_files[i];
	return NULL;
}

/* Record @path's identity and bytes for inputs_check() (the first read of the
 * epoch only; no room, no record: the file is then not checked). */
static void digested_add(const char *path, const char *buf, size_t len, const struct stat *st)
{
	if (digested(path) || inputs_nfiles == INPUTS_FILES)
		return;
	char *p = strdup(path);
	if (!p)
		return;
	inputs_files[inputs_nfiles++] = (struct digested_file){
		p, { st->st_dev, st->st_ino, st->st_size, st->st_mtim }, fold(FOLD_BASIS, buf, len)
	};
}

/* After the digest: a file of it read again must have the same identity or the
 * same bytes.  Returns: 0, or -1 with @e naming @path. */
static int inputs_check(const char *path, const char *buf, size_t len, const struct stat *st,
			struct mm_err *e)
{
	const struct digested_file *f = inputs_on ? NULL : digested(path);
	if (!f)
		return 0;
	if (same_file(&f->id, st))
		return 0;
	if (fold(FOLD_BASIS, buf, len) == f->hash)
		return 0;
	return mm_errf(e, path, NULL, "expected the bytes the scenario was loaded with, got a file "
		       "changed since (its digest keys the kept results: load the scenario again)");
}

/* The file's bytes join the inputs digest (mm_inputs_digest()); a regular file
 * already folded in this epoch joins by its path and first-read index only. */
static void inputs_add(const char *path, const char *buf, size_t len, const struct stat *st)
{
	if (!inputs_on)
		return;
	if (S_ISREG(st->st_mode))
		digested_add(path, buf, len, st);
	inputs_fold(path, strlen(path) + 1);
	int i = S_ISREG(st->st_mode) ? seen_index(st) : -1;
	if (i >= 0) {
		uint64_t tag = UINT64_C(0x5ee0000000000000) | (uint64_t)i;
		inputs_fold((const char *)&tag, sizeof tag);
	} else {
		inputs_fold(buf, len);
	}
	inputs_count++;
}

int mm_read_file(const char *path, const char *what, size_t max, char **out, size_t *outlen,
		 struct mm_err *e)
{
	*out = NULL;
	*outlen = 0;
	struct stat st;
	int fd = open_input(path, what, max, &st, e);
	if (fd < 0 || read_fd(fd, &st, path, what, max, out, outlen, e) < 0)
		return -1;
	if (inputs_check(path, *out, *outlen, &st, e)) {
		free(*out);
		*out = NULL;
		*outlen = 0;
		return -1;
	}
	inputs_add(path, *out, *outlen, &st);
	return 0;
}

int mm_map_file(struct mm_filebuf *fb, const char *path, const char *what, size_t max,
		struct mm_err *e)
{
	memset(fb, 0, sizeof *fb);
	struct stat st;
	int fd = open_input(path, what, max, &st, e);
	if (fd < 0)
		return -1;
	if (S_ISREG(st.st_mode) && st.st_size > 0) {
		/* MAP_POPULATE: the page-cache pages are mapped in one call, not one
		 * fault at a time as the parser reaches them */
		void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
		if (p != MAP_FAILED) {
			close(fd);
			fb->buf = p;
			fb->len = (size_t)st.st_size;
			fb->mapped = true;
			if (inputs_check(path, fb->buf, fb->len, &st, e)) {
				mm_unmap_file(fb);
				return -1;
			}
			inputs_add(path, fb->buf, fb->len, &st);
			return 0;
		}
	}
	char *buf;
	if (read_fd(fd, &st, path, what, max, &buf, &fb->len, e) < 0)
		return -1;
	fb->buf = buf;
	if (inputs_check(path, fb->buf, fb->len, &st, e)) {
		mm_unmap_file(fb);
		return -1;
	}
	inputs_add(path, fb->buf, fb->len, &st);
	return 0;
}

void mm_unmap_file(struct mm_filebuf *fb)
{
	if (fb->mapped)
		munmap((void *)fb->buf, fb->len);
	else
		free((void *)fb->buf);
	memset(fb, 0, sizeof *fb);
}

void mm_inputs_reset(void)
{
	for (int i = 0; i < inputs_nfiles; i++)
		free(inputs_files[i].path);
	inputs_nfiles = 0;
	inputs_hash = FOLD_BASIS;
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
