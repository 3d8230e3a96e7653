/*
 * benchutil.h - what the benchmark executables (bench_replay.c, bench_bigmem.c)
 * share: host clocks and the heap that malloc has handed out.
 */
#ifndef MMEMU_BENCHUTIL_H
#define MMEMU_BENCHUTIL_H

#include <malloc.h>
#include <stddef.h>
#include <time.h>

/* Returns: seconds of clock @id, CLOCK_MONOTONIC (wall) or
 * CLOCK_PROCESS_CPUTIME_ID (user + system CPU of the process). */
static inline double bench_now(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Returns: bytes malloc has handed out, in use + mmapped chunks (glibc
 * mallinfo2; not meaningful under the sanitizers' allocators). */
static inline size_t bench_heap_bytes(void)
{
	struct mallinfo2 mi = mallinfo2();
	return mi.uordblks + mi.hblkhd;
}

#endif
