/*
 * test_disk_cache.c - the drive's read cache (models/hw/disk.c, disk.h): segments,
 * prefetch after a media read, prefetch hits served without seek or rotation.
 *
 * Harness: tests/kharness.h (a forked child runs SimGrid; the body calls disk_io()
 * as an actor).  The disk: 60 MB/s media, 10,000 rpm (6 ms a turn), 4.9 ms
 * average seek; with the cache: 8 MiB in 16 segments of 512 KiB, look-ahead a
 * whole segment, 320 MB/s interface.  Exact expectations:
 *  - a sequential stream of 128 KiB reads, each issued 0.1 ms after the last
 *    ended, pays seek and rotation once: every later read is a prefetch hit that
 *    waits for the prefetch to reach its last byte (131072 / 60e6 - 0.1 ms);
 *    without the cache every later read waits most of a turn;
 *  - scattered reads gain nothing: no hit, the same transfer time and the same
 *    service time within 1% (a seek starts where the prefetch left the head);
 *  - a write drops the segment it overlaps: the next read is a miss.
 */
#define KH_NAME "test_disk_cache"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>
#include <simgrid/actor.h>

#include "models/hw/disk.h"
#include "models/mm/kernel.h"

#include "tests/kharness.h"

#define DISK "\"name\":\"d0\",\"size\":\"1GB\",\"read\":\"60MB/s\",\"write\":\"60MB/s\"," \
	     "\"seek_avg\":\"4.9ms\",\"track_to_track\":\"0.3ms\",\"rpm\":10000"
static const char *const M_OFF =
	"{\"arch\":\"flat\",\"memory\":\"4MiB\",\"kernel_reserved\":0,\"cpus\":2,"
	"\"disks\":[{" DISK "}]}";
static const char *const M_ON =
	"{\"arch\":\"flat\",\"memory\":\"4MiB\",\"kernel_reserved\":0,\"cpus\":2,"
	"\"disks\":[{" DISK ",\"cache\":\"8MiB\",\"cache_segments\":16,\"interface\":\"320MB/s\"}]}";
static const char *const K = "{\"reclaim\":\"lru2q\"}";

static int inv(struct tctx *x)
{
	(void)x;
	return 0;
}

#define KIB 1024ull
#define GAP 1e-4

/* out: [0] reads, [1] cache hits, [2] seek s, [3] rot s, [4] xfer s, [5] busy s,
 * [6] rot s of the first read, [7] busy s of the second read, [8] seek s of the first */
static void stats(struct tctx *x)
{
	const struct disk_stats *st = disk_get_stats(x->s.disks[0]);
	x->out[0] = (double)st->reads;
	x->out[1] = (double)st->cache_hits;
	x->out[2] = st->seek;
	x->out[3] = st->rot;
	x->out[4] = st->xfer;
	x->out[5] = st->busy;
}

/* Eight 128 KiB reads from 1 MiB on, each GAP after the previous one ends. */
static int b_stream(struct tctx *x)
{
	struct disk *dk = x->s.disks[0];
	for (int i = 0; i < 8; i++) {
		double w = disk_io(dk, NULL, 0, (1024 + 128 * (uint64_t)i) * KIB, 128 * KIB);
		if (i == 0) {
			x->out[6] = disk_get_stats(dk)->rot;
			x->out[8] = disk_get_stats(dk)->seek;
		}
		if (i == 1)
			x->out[7] = w;
		sg_actor_sleep_for(GAP);
	}
	stats(x);
	return 0;
}

/* Scattered 64 KiB reads (no two within a segment's reach). */
static int b_scatter(struct tctx *x)
{
	struct disk *dk = x->s.disks[0];
	static const uint64_t mib[] = { 700, 3, 512, 90, 901, 45, 260, 630 };
	for (int i = 0; i < 8; i++) {
		disk_io(dk, NULL, 0, mib[i] << 20, 64 * KIB);
		sg_actor_sleep_for(GAP);
	}
	stats(x);
	return 0;
}

/* Read, write into the prefetched range, read the next sectors. */
static int b_write(struct tctx *x)
{
	struct disk *dk = x->s.disks[0];
	disk_io(dk, NULL, 0, 1 << 20, 128 * KIB);
	sg_actor_sleep_for(GAP);
	disk_io(dk, NULL, 1, (1 << 20) + 256 * KIB, 4 * KIB);
	sg_actor_sleep_for(GAP);
	disk_io(dk, NULL, 0, (1 << 20) + 128 * KIB, 128 * KIB);
	stats(x);
	return 0;
}

static void test_stream(void **state)
{
	double on[16], off[16];
	run(M_ON, K, b_stream, on);
	run(M_OFF, K, b_stream, off);
	double xfer = 131072 / 60e6;
	assert_int_equal((int)on[0], 8);
	assert_int_equal((int)on[1], 7);
	/* seek and rotation of the first read only */
	assert_true(on[8] > 0 && on[2] == on[8]);
	assert_true(fabs(on[3] - on[6]) < 1e-12);
	/* each hit waits for the prefetch: one media transfer less the gap */
	assert_true(fabs(on[7] - (xfer - GAP)) < 1e-9);
	assert_true(fabs(on[5] - (on[8] + on[6] + xfer + 7 * (xfer - GAP))) < 1e-9);
	/* without the cache each later read waits a turn less the gap */
	assert_int_equal((int)off[1], 0);
	assert_true(fabs(off[3] - (off[6] + 7 * (6e-3 - GAP))) < 1e-6);
	assert_true(fabs(off[5] - (off[2] + off[3] + 8 * xfer)) < 1e-9);
}

static void test_scatter(void **state)
{
	double on[16], off[16];
	run(M_ON, K, b_scatter, on);
	run(M_OFF, K, b_scatter, off);
	/* no hit; the head starts each seek where its prefetch got to, so the
	 * seeks differ by a few bytes' worth: the same time within 1% */
	assert_int_equal((int)on[0], 8);
	assert_int_equal((int)on[1], 0);
	assert_true(on[4] == off[4]);
	assert_true(fabs(on[5] - off[5]) < 0.01 * off[5]);
}

static void test_write_drops(void **state)
{
	double on[16];
	run(M_ON, K, b_write, on);
	assert_int_equal((int)on[0], 2);   /* reads */
	assert_int_equal((int)on[1], 0);   /* the write dropped the segment */
	assert_true(on[3] > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stream),
		cmocka_unit_test(test_scatter),
		cmocka_unit_test(test_write_drops),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
