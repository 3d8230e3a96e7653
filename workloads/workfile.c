/*
 * workfile.c - reaim workfile reading (see workfile.h for the syntax).
 *
 * Design: the file is read into one buffer and parsed by hand, one line at a time:
 * skip blanks, classify the line by its first character (comment, digit or sign =
 * test line, letter = size line or a test name without hits), then take tokens by
 * pointer arithmetic; no sscanf, no stdio per line.  Test names are looked up in a
 * static, read-only table of every test reaim 7 registers (osdl-aim-7 sources, see
 * workloads/reaim/README.md); a miss is reported with the nearest known name by
 * case-insensitive edit distance.  A repeated test is found by a per-id slot array
 * (the table has under a hundred entries) and updated in place, as reaim does.
 * Every malformed line yields one "FILE: line N: expected ..." error and -1;
 * nothing is kept on failure.  Once all lines are read, each test stores its
 * cumulative hits, so workfile_pick() is a binary search: test i owns the values
 * of r in [cum[i] - hits[i], cum[i]).
 */
#include "workloads/workfile.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/core/readfile.h"

/*
 * Every test reaim 7 registers: the register_test() calls of the files listed in
 * its files.h source table (ram.c, add.c, creat_clo.c, div.c, pipe_test.c, mul.c,
 * num_fcns.c, int_fcns.c, disk1.c, disk_src.c, fun.c; funcal.c registers none),
 * in that order.  The disk_dio_* tests appear in the HP rev7 copy of 7.0.1.13
 * (osdl-aim-7/src/disk1.c); the #ifdef'd disk_aio* tests are left out.  "DISKS"
 * tests run in each configured disk directory; disk tests size their files by
 * FILESIZE/POOLSIZE in 1 KiB blocks and call sync() around the I/O unless reaim
 * runs with -y.
 */
static const struct workfile_known known[] = {
	{ "ram_copy", "ram.c", WF_CAT_MEMORY,
	  "memory-to-memory copies of 1 B to 8 KiB at varying alignments" },

	{ "add_double", "add.c", WF_CAT_CPU, "double-precision additions" },
	{ "add_float", "add.c", WF_CAT_CPU, "single-precision additions" },
	{ "add_long", "add.c", WF_CAT_CPU, "long integer additions" },
	{ "add_int", "add.c", WF_CAT_CPU, "integer additions" },
	{ "add_short", "add.c", WF_CAT_CPU, "short integer additions" },

	{ "creat_clo", "creat_clo.c", WF_CAT_FS, "file creations and closes" },
	{ "page_test", "creat_clo.c", WF_CAT_MEMORY,
	  "sbrk 1 MiB, then 100 times: shrink the break 64 KiB and regrow it one 4 KiB "
	  "sbrk at a time, dirtying each new page (anonymous page faults)" },
	{ "brk_test", "creat_clo.c", WF_CAT_MEMORY,
	  "as page_test, 1000 times, without touching the pages (brk system calls only)" },
	{ "jmp_test", "creat_clo.c", WF_CAT_CPU, "setjmp/longjmp through a recursion" },
	{ "signal_test", "creat_clo.c", WF_CAT_PROCESS,
	  "1000 SIGUSR2 sent to itself and caught" },
	{ "exec_test", "creat_clo.c", WF_CAT_PROCESS,
	  "5 fork + exec of a trivial program + wait" },
	{ "fork_test", "creat_clo.c", WF_CAT_PROCESS, "100 fork + child exit + wait" },
	{ "link_test", "creat_clo.c", WF_CAT_FS,
	  "7 hard links to one file, unlinked and relinked round-robin" },

	{ "div_double", "div.c", WF_CAT_CPU, "double-precision divides" },
	{ "div_float", "div.c", WF_CAT_CPU, "single-precision divides" },
	{ "div_long", "div.c", WF_CAT_CPU, "long integer divides" },
	{ "div_int", "div.c", WF_CAT_CPU, "integer divides" },
	{ "div_short", "div.c", WF_CAT_CPU, "short integer divides" },

	{ "shared_memory", "pipe_test.c", WF_CAT_IPC,
	  "SysV shared-memory segment (64 KiB) and semaphore: messages passed through it" },
	{ "tcp_test", "pipe_test.c", WF_CAT_NETWORK, "TCP messages over loopback" },
	{ "udp_test", "pipe_test.c", WF_CAT_NETWORK, "UDP datagrams over loopback" },
	{ "stream_pipe", "pipe_test.c", WF_CAT_IPC,
	  "messages of 1 B to 4 KiB through an AF_UNIX stream socket pair" },
	{ "dgram_pipe", "pipe_test.c", WF_CAT_IPC,
	  "messages through an AF_UNIX datagram socket pair" },
	{ "pipe_cpy", "pipe_test.c", WF_CAT_IPC, "messages through a pipe(2)" },
	{ "fifo_test", "pipe_test.c", WF_CAT_IPC, "messages through a named pipe (FIFO)" },

	{ "mul_double", "mul.c", WF_CAT_CPU, "double-precision multiplies" },
	{ "mul_float", "mul.c", WF_CAT_CPU, "single-precision multiplies" },
	{ "mul_long", "mul.c", WF_CAT_CPU, "long integer multiplies" },
	{ "mul_int", "mul.c", WF_CAT_CPU, "integer multiplies" },
	{ "mul_short", "mul.c", WF_CAT_CPU, "short integer multiplies" },

	{ "num_rtns_1", "num_fcns.c", WF_CAT_CPU, "libm numeric functions (exp, log, pow...)" },
	{ "new_raph", "num_fcns.c", WF_CAT_CPU, "Newton-Raphson zero finding" },
	{ "trig_rtns", "num_fcns.c", WF_CAT_CPU, "trigonometric and hyperbolic functions" },
	{ "matrix_rtns", "num_fcns.c", WF_CAT_CPU, "point transformations (small matrices)" },
	{ "array_rtns", "num_fcns.c", WF_CAT_CPU, "linear systems solved by Gaussian elimination" },
	{ "string_rtns", "num_fcns.c", WF_CAT_CPU, "string manipulations" },
	{ "mem_rtns_1", "num_fcns.c", WF_CAT_MEMORY, "dynamic memory operations (malloc/free)" },
	{ "mem_rtns_2", "num_fcns.c", WF_CAT_MEMORY, "block memory operations" },
	{ "sort_rtns_1", "num_fcns.c", WF_CAT_CPU, "sorts (qsort of a table)" },
	{ "misc_rtns_1", "num_fcns.c", WF_CAT_CPU, "auxiliary loops" },
	{ "dir_rtns_1", "num_fcns.c", WF_CAT_FS, "directory operations" },
	{ "shell_rtns_1", "num_fcns.c", WF_CAT_PROCESS, "shell scripts (fork + exec of sh)" },
	{ "shell_rtns_2", "num_fcns.c", WF_CAT_PROCESS, "shell scripts (fork + exec of sh)" },
	{ "shell_rtns_3", "num_fcns.c", WF_CAT_PROCESS, "shell scripts (fork + exec of sh)" },
	{ "series_1", "num_fcns.c", WF_CAT_CPU, "Taylor-series evaluations of sin(x)" },

	{ "sieve", "int_fcns.c", WF_CAT_CPU,
	  "sieve of Eratosthenes over a malloc'd 1,000,000-byte table, 5 passes" },

	{ "disk_rr", "disk1.c", WF_CAT_DISK,
	  "write a FILESIZE file, sync, random 1 KiB reads of it, unlink" },
	{ "disk_rw", "disk1.c", WF_CAT_DISK,
	  "write a FILESIZE file, sync, random 1 KiB writes to it, unlink" },
	{ "disk_rd", "disk1.c", WF_CAT_DISK,
	  "write a FILESIZE file, sync, read it sequentially, unlink" },
	{ "disk_wrt", "disk1.c", WF_CAT_DISK, "sequential 1 KiB writes of a FILESIZE file" },
	{ "disk_cp", "disk1.c", WF_CAT_DISK, "copy a shared FILESIZE file in 1 KiB blocks" },
	{ "sync_disk_rw", "disk1.c", WF_CAT_DISK,
	  "random 1 KiB O_SYNC writes to a half-FILESIZE file" },
	{ "sync_disk_wrt", "disk1.c", WF_CAT_DISK,
	  "sequential O_SYNC writes of a half-FILESIZE file" },
	{ "sync_disk_cp", "disk1.c", WF_CAT_DISK, "copy half a FILESIZE file to an O_SYNC file" },
	{ "sync_disk_update", "disk1.c", WF_CAT_DISK,
	  "create a FILESIZE \"database\" file, then O_SYNC read-modify-write updates" },
	{ "disk_dio_rr", "disk1.c", WF_CAT_DISK, "random O_DIRECT reads" },
	{ "disk_dio_rw", "disk1.c", WF_CAT_DISK, "random O_DIRECT writes" },
	{ "disk_dio_rd", "disk1.c", WF_CAT_DISK, "sequential O_DIRECT reads" },
	{ "disk_dio_wrt", "disk1.c", WF_CAT_DISK, "sequential O_DIRECT writes" },
	{ "disk_dio_cp", "disk1.c", WF_CAT_DISK, "O_DIRECT copies" },
	{ "disk_brr", "disk1.c", WF_CAT_DISK,
	  "as disk_rr without the sync() calls (buffer-cache variant)" },
	{ "disk_brw", "disk1.c", WF_CAT_DISK,
	  "as disk_rw without the sync() calls (buffer-cache variant)" },
	{ "disk_brd", "disk1.c", WF_CAT_DISK,
	  "sequential read of the shared FILESIZE file, no sync() (buffer-cache variant)" },
	{ "disk_bwrt", "disk1.c", WF_CAT_DISK,
	  "as disk_wrt without the sync() calls (buffer-cache variant)" },
	{ "disk_bcp", "disk1.c", WF_CAT_DISK,
	  "as disk_cp without the sync() calls (buffer-cache variant)" },

	{ "disk_src", "disk_src.c", WF_CAT_FS,
	  "directory searches (stat/creat) in the unpacked fakeh source tree" },

	{ "fun_cal", "fun.c", WF_CAT_CPU, "function calls, no arguments" },
	{ "fun_cal1", "fun.c", WF_CAT_CPU, "function calls, 1 argument" },
	{ "fun_cal2", "fun.c", WF_CAT_CPU, "function calls, 2 arguments" },
	{ "fun_cal15", "fun.c", WF_CAT_CPU, "function calls, 15 arguments" },
};

#define NKNOWN ((int)(sizeof known / sizeof known[0]))

int workfile_known_count(void)
{
	return NKNOWN;
}

const struct workfile_known *workfile_known(int id)
{
	return id >= 0 && id < NKNOWN ? &known[id] : NULL;
}

/* Id of the @len-byte name at @s, or -1. */
static int lookup(const char *s, size_t len)
{
	for (int i = 0; i < NKNOWN; i++)
		if (strlen(known[i].name) == len && memcmp(known[i].name, s, len) == 0)
			return i;
	return -1;
}

int workfile_known_id(const char *name)
{
	return name ? lookup(name, strlen(name)) : -1;
}

const char *workfile_category_name(enum workfile_category cat)
{
	switch (cat) {
	case WF_CAT_CPU: return "cpu";
	case WF_CAT_MEMORY: return "memory";
	case WF_CAT_DISK: return "disk";
	case WF_CAT_FS: return "fs";
	case WF_CAT_PROCESS: return "process";
	case WF_CAT_IPC: return "ipc";
	case WF_CAT_NETWORK: return "network";
	}
	return "?";
}

/* Case-insensitive Levenshtein distance of a (alen bytes) and b; capped inputs. */
static size_t edit_distance(const char *a, size_t alen, const char *b)
{
	size_t blen = strlen(b);
	size_t row[WORKFILE_NAME_MAX * 2 + 1];
	if (alen > WORKFILE_NAME_MAX * 2)
		alen = WORKFILE_NAME_MAX * 2;
	if (blen > WORKFILE_NAME_MAX * 2)
		blen = WORKFILE_NAME_MAX * 2;
	for (size_t j = 0; j <= blen; j++)
		row[j] = j;
	for (size_t i = 1; i <= alen; i++) {
		size_t diag = row[0];
		row[0] = i;
		for (size_t j = 1; j <= blen; j++) {
			size_t up = row[j];
			size_t cost = tolower((unsigned char)a[i - 1]) ==
				      tolower((unsigned char)b[j - 1]) ? 0 : 1;
			size_t best = diag + cost;
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[blen];
}

/* Nearest known name to @s if it is close enough to be a likely typo, else NULL.
 * A name whose length differs by more than the limit is farther than it (the
 * distance is at least the difference), so its distance is not computed. */
static const char *nearest(const char *s, size_t len)
{
	const char *best = NULL;
	size_t bestd = (size_t)-1;
	size_t limit = len / 3 > 2 ? len / 3 : 2;
	size_t alen = len < WORKFILE_NAME_MAX * 2 ? len : WORKFILE_NAME_MAX * 2;
	for (int i = 0; i < NKNOWN; i++) {
		size_t blen = strlen(known[i].name);
		if ((alen > blen ? alen - blen : blen - alen) > limit)
			continue;
		size_t d = edit_distance(s, len, known[i].name);
		if (d < bestd) {
			bestd = d;
			best = known[i].name;
		}
	}
	return bestd <= limit ? best : NULL;
}

void workfile_free(struct workfile *w)
{
	if (!w)
		return;
	free(w->tests);
	memset(w, 0, sizeof *w);
}

int workfile_pick(const struct workfile *w, uint64_t r)
{
	if (!w || w->ntests <= 0 || r >= w->mix_hits)
		return -1;
	int lo = 0, hi = w->ntests - 1;   /* the answer is the first i with cum > r */
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (w->tests[mid].cum > r)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

static inline bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* End of the token at @p: the next blank, newline or end of buffer. */
static inline const char *tok_end(const char *p, const char *end)
{
	while (p < end && *p != '\n' && !is_blank(*p))
		p++;
	return p;
}

/* Quote the token [p, q) into @buf of MM_ERR_QUOTE_SIZE bytes (mm_err_quote()). */
static const char *quote(const char *p, const char *q, char *buf, size_t size)
{
	return p == q ? "end of line" : mm_err_quote(buf, size, p, (size_t)(q - p));
}

static int line_err(struct mm_err *e, const char *name, size_t line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int line_err(struct mm_err *e, const char *name, size_t line, const char *fmt, ...)
{
	char path[32];
	va_list ap;
	snprintf(path, sizeof path, "line %zu", line);
	va_start(ap, fmt);
	mm_verrf(e, name, path, fmt, ap);
	va_end(ap);
	return -1;
}

/* After the last token of a line: only blanks and an optional "# comment". */
static inline bool rest_is_empty(const char *p, const char *end, const char **garbage)
{
	while (p < end && is_blank(*p))
		p++;
	*garbage = p;
	return p >= end || *p == '\n' || *p == '#';
}

struct parser {
	const char *name;
	struct mm_err *e;
	size_t line;
	size_t size_line[2];     /* line of FILESIZE / POOLSIZE, 0 if absent */
	int slot[NKNOWN];        /* known test id -> its index in w->tests + 1, 0 if absent */
};

/* "FILESIZE: 100K" at [p, eol); @lab_end ends the label token. */
static int parse_size(struct parser *ps, struct workfile *w, const char *p, const char *lab_end,
		      const char *eol)
{
	char q[MM_ERR_QUOTE_SIZE], q2[MM_ERR_QUOTE_SIZE];
	size_t lablen = (size_t)(lab_end - p);
	if (lablen && p[lablen - 1] == ':')
		lablen--;
	int which;
	if (lablen == 8 && memcmp(p, "FILESIZE", 8) == 0)
		which = 0;
	else if (lablen == 8 && memcmp(p, "POOLSIZE", 8) == 0)
		which = 1;
	else {
		const char *hint = "";
		if (lookup(p, (size_t)(lab_end - p)) >= 0)
			hint = " (a test line needs its hit count first)";
		return line_err(ps->e, ps->name, ps->line,
				"expected \"<hits> <test_name>\", FILESIZE: or POOLSIZE:, got %s%s",
				quote(p, lab_end, q, sizeof q), hint);
	}
	const char *label = which ? "POOLSIZE" : "FILESIZE";
	if (ps->size_line[which])
		return line_err(ps->e, ps->name, ps->line, "duplicate %s (first given on line %zu)",
				label, ps->size_line[which]);
	const char *s = lab_end;
	while (s < eol && is_blank(*s))
		s++;
	const char *se = tok_end(s, eol);
	if (s == se || (unsigned)(*s - '0') > 9)
		return line_err(ps->e, ps->name, ps->line,
				"expected a size such as 10K or 1M after %s, got %s", label,
				quote(s, se, q, sizeof q));
	uint64_t v = 0;
	const char *d = s;
	for (; d < se && (unsigned)(*d - '0') <= 9; d++)
		if (v <= WORKFILE_MAX_SIZE)   /* stops growing above the limit: no overflow */
			v = v * 10 + (unsigned)(*d - '0');
	unsigned shift;
	switch (d < se ? *d : '\0') {
	case 'K': case 'k': shift = 10; break;
	case 'M': case 'm': shift = 20; break;
	case 'G': case 'g': shift = 30; break;
	default:
		return line_err(ps->e, ps->name, ps->line,
				"expected a size suffix K, M or G right after the number of %s, got %s",
				label, quote(s, se, q, sizeof q));
	}
	if (d + 1 != se)
		return line_err(ps->e, ps->name, ps->line,
				"expected a size suffix K, M or G right after the number of %s, got %s",
				label, quote(s, se, q, sizeof q));
	if (v > (WORKFILE_MAX_SIZE >> shift))
		return line_err(ps->e, ps->name, ps->line, "expected a %s of at most %lluG (%lluK), got %s",
				label, (unsigned long long)(WORKFILE_MAX_SIZE >> 30),
				(unsigned long long)(WORKFILE_MAX_SIZE >> 10), quote(s, se, q, sizeof q));
	const char *g;
	if (!rest_is_empty(se, eol, &g))
		return line_err(ps->e, ps->name, ps->line, "expected end of line after %s %s, got %s",
				label, quote(s, se, q, sizeof q),
				quote(g, tok_end(g, eol), q2, sizeof q2));
	ps->size_line[which] = ps->line;
	if (which == 0) {
		w->filesize = v << shift;
		w->has_filesize = 1;
	} else {
		w->poolsize = v << shift;
		w->has_poolsize = 1;
	}
	return 0;
}

/* "<hits> <test_name>" at [p, eol); p is at a digit, '+' or '-'. */
static int parse_test(struct parser *ps, struct workfile *w, const char *p, const char *eol)
{
	char q[MM_ERR_QUOTE_SIZE], q2[MM_ERR_QUOTE_SIZE];
	const char *he = tok_end(p, eol);
	uint64_t v = 0;
	const char *d = p;
	bool digits_only = true;
	for (const char *c = p; c < he; c++)
		if ((unsigned)(*c - '0') > 9)
			digits_only = false;
	if (!digits_only) {
		if (*p == '-' || *p == '+') {
			bool num = he - p > 1;
			for (const char *c = p + 1; c < he; c++)
				if ((unsigned)(*c - '0') > 9)
					num = false;
			if (num && *p == '-')
				return line_err(ps->e, ps->name, ps->line,
						"expected a positive hit count, got %s",
						quote(p, he, q, sizeof q));
		}
		return line_err(ps->e, ps->name, ps->line,
				"expected a hit count (a positive integer), got %s",
				quote(p, he, q, sizeof q));
	}
	for (; d < he; d++) {
		v = v * 10 + (uint64_t)(*d - '0');
		if (v > UINT32_MAX)
			return line_err(ps->e, ps->name, ps->line,
					"expected a hit count below 2^32, got %s",
					quote(p, he, q, sizeof q));
	}
	if (v == 0)
		return line_err(ps->e, ps->name, ps->line, "expected a positive hit count, got %s",
				quote(p, he, q, sizeof q));
	const char *n = he;
	while (n < eol && is_blank(*n))
		n++;
	const char *ne = tok_end(n, eol);
	if (n == ne || *n == '#')
		return line_err(ps->e, ps->name, ps->line,
				"expected a test name after the hit count %s",
				quote(p, he, q, sizeof q));
	int id = lookup(n, (size_t)(ne - n));
	if (id < 0) {
		const char *near = nearest(n, (size_t)(ne - n));
		if (near)
			return line_err(ps->e, ps->name, ps->line,
					"expected a reaim test name, got %s (unknown; did you mean "
					"\"%s\"?)", quote(n, ne, q, sizeof q), near);
		return line_err(ps->e, ps->name, ps->line,
				"expected a reaim test name, got %s (unknown: not one of the %d "
				"tests reaim 7 registers)", quote(n, ne, q, sizeof q), NKNOWN);
	}
	const char *g;
	if (!rest_is_empty(ne, eol, &g))
		return line_err(ps->e, ps->name, ps->line,
				"expected end of line after the test name %s, got %s",
				quote(n, ne, q, sizeof q), quote(g, tok_end(g, eol), q2, sizeof q2));
	if (w->total_hits + v > WORKFILE_MAX_HITS)
		return line_err(ps->e, ps->name, ps->line,
				"expected at most %u (2^24) hits in all, got %llu with this line",
				WORKFILE_MAX_HITS, (unsigned long long)(w->total_hits + v));
	/* a repeated test keeps its place; its later hit count replaces the earlier,
	 * while the total counts every line (reaim's check_name() and total_hits) */
	if (!ps->slot[id]) {
		struct workfile_test *t = &w->tests[w->ntests++];
		memcpy(t->name, known[id].name, strlen(known[id].name) + 1);
		t->id = id;
		ps->slot[id] = w->ntests;
	}
	struct workfile_test *t = &w->tests[ps->slot[id] - 1];
	t->hits = (uint32_t)v;
	t->line = ps->line > (size_t)INT32_MAX ? INT32_MAX : (int)ps->line;
	w->total_hits += v;
	return 0;
}

int workfile_parse(struct workfile *w, const char *buf, size_t len, const char *name,
		   struct mm_err *e)
{
	memset(w, 0, sizeof *w);
	struct parser *ps = calloc(1, sizeof *ps);
	/* at most one entry per known test: a repeated test shares its entry */
	w->tests = calloc(NKNOWN, sizeof *w->tests);
	if (!ps || !w->tests) {
		free(ps);
		workfile_free(w);
		return mm_errf(e, name, NULL, "out of memory while reading the workfile");
	}
	ps->name = name;
	ps->e = e;
	w->filesize = WORKFILE_DEFAULT_FILESIZE;
	w->poolsize = WORKFILE_DEFAULT_POOLSIZE;

	const char *p = buf + mm_bom_len(buf, len), *end = buf + len;
	int rc = 0;
	for (ps->line = 1; p < end && rc == 0; ps->line++) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			eol = end;
		const char *s = p;
		while (s < eol && is_blank(*s))
			s++;
		if (s == eol || *s == '#')
			;                                      /* blank or comment */
		else if ((unsigned)(*s - '0') <= 9 || *s == '-' || *s == '+')
			rc = parse_test(ps, w, s, eol);
		else
			rc = parse_size(ps, w, s, tok_end(s, eol), eol);
		p = eol < end ? eol + 1 : end;
	}
	if (rc == 0 && w->ntests == 0)
		rc = mm_errf(e, name, NULL,
			     "expected at least one \"<hits> <test_name>\" line, found none");
	for (int i = 0; rc == 0 && i < w->ntests; i++) {
		w->mix_hits += w->tests[i].hits;
		w->tests[i].cum = w->mix_hits;
	}
	if (rc == 0 && w->filesize == 0 && w->poolsize == 0) {
		size_t l = ps->size_line[0] > ps->size_line[1] ? ps->size_line[0]
							       : ps->size_line[1];
		rc = line_err(e, name, l,
			      "expected FILESIZE or POOLSIZE above 0 (reaim refuses both 0)");
	}
	free(ps);
	if (rc != 0) {
		workfile_free(w);
		return -1;
	}
	return 0;
}

int workfile_load(struct workfile *w, const char *path, struct mm_err *e)
{
	memset(w, 0, sizeof *w);
	char *buf;
	size_t len;
	if (mm_read_file(path, "workfile", WORKFILE_FILE_MAX, &buf, &len, e))
		return -1;
	int rc = workfile_parse(w, buf, len, path, e);
	free(buf);
	return rc;
}

int reaim_test_runs(uint64_t hits, uint64_t total_hits, int64_t jobs)
{
	if (total_hits == 0)
		return 0;
	double load = (double)hits / (double)total_hits * (double)jobs;
	int n = (int)load;
	if (load - n >= 0.5)
		n++;
	else if (load - n != 0.0 && n == 0)
		n = 1;
	return n;
}

double reaim_jpm(int tests_per_job, int users, double elapsed)
{
	return elapsed > 0 ? (double)tests_per_job / elapsed * 60.0 * users : 0;
}
