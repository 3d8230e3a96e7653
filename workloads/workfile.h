/*
 * workfile.h - reaim (re-aim 7 / AIM7) workfiles: which tests a job runs, and how often.
 *
 * A workfile is a list of `<hits> <test_name>` lines plus optional `FILESIZE:` and
 * `POOLSIZE:` lines; a reaim job runs the listed tests in proportion to their hits.
 * The accepted syntax (and where it is stricter than reaim's own reader):
 *
 *   (byte-order mark)     a UTF-8 BOM at the very start is skipped (editors add it)
 *   # comment             a line whose first non-blank character is '#'
 *   (blank line)          ignored (reaim 7 itself rejects blank lines)
 *   FILESIZE: 100K        file size of the disk tests; POOLSIZE: likewise.  The label
 *   POOLSIZE 1M           is upper case, the colon optional (workfiles write
 *                         "FILESIZE: 10K", reaim.config writes "FILESIZE 10k").  The
 *                         number is decimal and the suffix follows it directly:
 *                         K/k (KiB) or M/m (MiB) as in reaim, G/g (GiB) as an mmemu
 *                         extension.  No suffix is an error, as in reaim.  At most
 *                         WORKFILE_MAX_SIZE (1G, as the reaim workload's filesize
 *                         and poolsize parameters; reaim itself has no limit but
 *                         its int count of KiB).  At most
 *                         one FILESIZE and one POOLSIZE line (reaim silently kept
 *                         the last one).
 *   50  add_double        hits (a positive decimal integer below 2^32; all lines
 *                         together at most WORKFILE_MAX_HITS = 2^24, since a reaim
 *                         run holds one cycle of that many entries) and a test
 *                         name that reaim 7 registers (workfile_known_*()); blanks
 *                         or tabs between; an optional trailing "# comment".  A
 *                         test named again (reaim's own workfile.alltests lists
 *                         string_rtns twice) is read as reaim 7 reads it: the later
 *                         line's hit count replaces the earlier one, and total_hits
 *                         counts both lines.  The test keeps its first place.
 *
 * Absent sizes default to what reaim reads from its default reaim.config:
 * FILESIZE 10k, POOLSIZE 1m (reaim's built-in values are 0 and 0, and it refuses to
 * run with both 0).  has_filesize/has_poolsize tell whether the workfile set them,
 * since in reaim a workfile value overrides the config file's.
 */
#ifndef MMEMU_WORKFILE_H
#define MMEMU_WORKFILE_H

#include <stddef.h>
#include <stdint.h>

#include "emu/core/err.h"

#define WORKFILE_DEFAULT_FILESIZE (10ULL << 10)  /* reaim.config: FILESIZE 10k */
#define WORKFILE_DEFAULT_POOLSIZE (1ULL << 20)   /* reaim.config: POOLSIZE 1m */
#define WORKFILE_MAX_SIZE (1ULL << 30)           /* largest FILESIZE, POOLSIZE: 1G */
#define WORKFILE_NAME_MAX 32                     /* test names are shorter */
#define WORKFILE_MAX_HITS (1u << 24)             /* hits of all lines together, at most */
#define WORKFILE_FILE_MAX ((size_t)1 << 20)      /* largest workfile read (reaim's: < 2 KiB) */

/* What a reaim test mostly exercises (for choosing how mmemu models it). */
enum workfile_category {
	WF_CAT_CPU,      /* user-mode arithmetic and library loops, no system calls */
	WF_CAT_MEMORY,   /* heap/brk growth, page faults, memory copies */
	WF_CAT_DISK,     /* file data I/O through the page cache (or O_SYNC/O_DIRECT) */
	WF_CAT_FS,       /* file-system metadata: create, link, directory search */
	WF_CAT_PROCESS,  /* fork, exec, signals, shell scripts */
	WF_CAT_IPC,      /* pipes, FIFOs, AF_UNIX socket pairs, SysV shared memory */
	WF_CAT_NETWORK,  /* TCP/UDP over the loopback interface */
};

/* One test that reaim 7 registers (the static table in workfile.c). */
struct workfile_known {
	const char *name;          /* as written in workfiles, e.g. "page_test" */
	const char *source;        /* reaim source file that registers it */
	enum workfile_category cat;
	const char *desc;          /* what one call of the test does */
};

struct workfile {
	uint64_t filesize, poolsize;   /* bytes */
	int has_filesize, has_poolsize; /* 1 if the workfile set it, else the default */
	int ntests;
	struct workfile_test {
		char name[WORKFILE_NAME_MAX];
		uint32_t hits;         /* of the last line naming the test */
		int id;                /* index in the known-test table */
		int line;              /* that line of the workfile */
		uint64_t cum;          /* hits of this test and all before it */
	} *tests;                      /* in workfile order (of first mention), each once */
	uint64_t mix_hits;             /* the tests' hits: what a job draws from */
	uint64_t total_hits;           /* every test line's hits, those a repeated test's
					* later line replaced included (reaim's total) */
};

/**
 * workfile_load() - read and check a reaim workfile.
 * @w: filled on success (free with workfile_free())
 * @path: the file
 * @e: error out
 * The file may be a pipe or a device; at most WORKFILE_FILE_MAX bytes are read.
 * Returns: 0, or -1 with @e set to "FILE: line N: expected ..." for a malformed
 * line, "FILE: expected at least one ..." for a workfile without tests,
 * "FILE: expected a workfile of at most 1 MiB, ..." or "FILE: cannot open (...)".
 * @w is left empty on failure.
 */
int workfile_load(struct workfile *w, const char *path, struct mm_err *e);

/**
 * workfile_parse() - parse a workfile already in memory (same rules as workfile_load()).
 * @buf: the text (need not be NUL-terminated; a leading UTF-8 byte-order mark is
 *       skipped)
 * @len: its length in bytes
 * @name: the name used in messages
 * Returns: 0, or -1 with @e set.  @w is left empty on failure.
 */
int workfile_parse(struct workfile *w, const char *buf, size_t len, const char *name,
		   struct mm_err *e);

/** workfile_free() - release a workfile (an empty or NULL one is fine). */
void workfile_free(struct workfile *w);

/**
 * workfile_pick() - the test a job runs for a uniform random number.
 * @w: a loaded workfile
 * @r: uniform in [0, mix_hits)
 * Test i is chosen for exactly hits[i] of the mix_hits values of @r (binary
 * search over the cumulative hits), so r = 0 gives the first test and
 * r = mix_hits - 1 the last.
 * Returns: an index into @w->tests, or -1 if @r >= mix_hits.
 */
int workfile_pick(const struct workfile *w, uint64_t r);

/** workfile_known_count() - Returns: the number of tests reaim 7 registers. */
int workfile_known_count(void);

/** workfile_known() - Returns: known test @id (0 <= id < count), or NULL. */
const struct workfile_known *workfile_known(int id);

/** workfile_known_id() - Returns: the id of test @name, or -1 if reaim has no such test. */
int workfile_known_id(const char *name);

/** workfile_category_name() - Returns: "cpu", "memory", "disk", "fs", "process", "ipc" or "network". */
const char *workfile_category_name(enum workfile_category cat);

/* reaim's crossover thresholds (osdl-aim-7 driver.c xover_threshold): a peak
 * search (-x) ends at the first step whose JPM per user is at most 10, a quick
 * convergence (-q) at 60. */
#define REAIM_XOVER 10.0
#define REAIM_XOVER_QUICK 60.0

/**
 * reaim_test_runs() - how often a test runs in one job: reaim's runloop() gives
 * test i hits_i / total_hits x @jobs runs, rounded: a fraction of .5 or more
 * rounds up; a smaller non-zero fraction rounds down, except that a count of 0
 * becomes 1 (every test of the mix runs at least once).
 * Returns: the count (0 if @total_hits is 0).
 */
int reaim_test_runs(uint64_t hits, uint64_t total_hits, int64_t jobs);

/**
 * reaim_jpm() - reaim's jobs per minute of a step (driver.c: tpm): tests per
 * job / elapsed seconds x 60 x users.  reaim counts every test of a job as a
 * "job" here, so JPM per user is tests_per_job x 60 / elapsed.
 * Returns: JPM, or 0 if @elapsed is not positive.
 */
double reaim_jpm(int tests_per_job, int users, double elapsed);

#endif
