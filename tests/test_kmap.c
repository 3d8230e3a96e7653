/*
 * test_kmap.c - the i386 highmem kmap modules (models/kmap/pkmap.c, atomic.c):
 * exact counts of maps, new mappings, flushes per LAST_PKMAP new mappings, IPIs,
 * lock hand-offs between two CPUs, a contended kmap_lock held across a flush, the
 * wait on an exhausted pool, and the atomic read path with its fallback.
 *
 * Each case runs a small i386 kernel (1 GiB: 128 MiB of HighMem) with a 1 GHz
 * clock (one cycle = one ns) on two CPUs in a forked child (tests/kharness.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>

#include "models/kmap/kmap.h"
#include "models/kmap/pkmap.h"
#include "models/mm/kernel.h"

#define KH_NAME "test_kmap"
#define MSG 1000
#include "tests/kharness.h"

static const char *const MACHINE =
	"{\"arch\":\"i386\",\"memory\":\"1GiB\",\"cpus\":2,\"clock\":\"1GHz\","
	"\"costs\":{\"atomic\":100,\"mem_latency\":\"200ns\",\"page_op\":50,\"ipi\":\"2us\","
	"\"tlb_flush\":200,\"tlb_refill\":3000,\"invlpg\":65},"
	"\"disks\":[{\"name\":\"d0\",\"read\":\"50MB/s\",\"write\":\"50MB/s\"}]}";

static int inv(struct tctx *x)
{
	(void)x;
	return 0;
}

static uint32_t high(struct tctx *x, uint32_t i)
{
	return x->k.phys.zones[MM_ZONE_HIGHMEM].start_pfn + i;
}

static struct pkmap *pool(struct tctx *x)
{
	return x->k.kmap->priv;
}

/* ---- one CPU: 2048 new mappings = 2 rotor wraps = 2 flushes ---- */

static int b_counts(struct tctx *x)
{
	struct kmap *m = x->k.kmap;
	struct pkmap *p = pool(x);
	CHECK(x->k.phys.zones[MM_ZONE_HIGHMEM].present > 4096);
	CHECK_EQ(p->n, 1024);
	for (uint32_t i = 0; i < 1023; i++) {
		kmap_map(m, &x->task, high(x, i));
		kmap_unmap(m, &x->task, high(x, i));
	}
	CHECK_EQ(p->flushes, 0);
	mm_sync(&x->task);
	double t0 = simgrid_get_clock();
	kmap_map(m, &x->task, high(x, 1023));   /* the rotor wraps: flush, then slot 0 */
	mm_sync(&x->task);
	CHECK_EQ(p->flushes, 1);
	CHECK_EQ(p->cleared, 1023);
	CHECK_EQ(p->vaddr[high(x, 1023)], 1);   /* slot 0 */
	/* 1024 scanned + 1023 x 50 cleared + 1 IPI (2 us) + 3200 local flush and refill */
	CHECK_EQ((long long)(p->flush_s * 1e9 + 0.5), 1024 + 1023 * 50 + 2000 + 3200);
	/* the whole kmap_high: RMW 100 + page_op 50 + set_pte 50 + the flush, and
	 * page->virtual's struct page line from memory (200 ns: never touched); the
	 * pool's lines stay in CPU 0's cache */
	CHECK_EQ((long long)((simgrid_get_clock() - t0) * 1e9 + 0.5),
		 200 + 200 + 1024 + 1023 * 50 + 5200);
	kmap_unmap(m, &x->task, high(x, 1023));
	for (uint32_t i = 1024; i < 2048; i++) {
		kmap_map(m, &x->task, high(x, i));
		kmap_unmap(m, &x->task, high(x, i));
	}
	CHECK_EQ(p->new_maps, 2048);
	CHECK_EQ(p->flushes, 2);
	CHECK_EQ(p->ipis, 2);              /* one other CPU per flush */
	CHECK_EQ(p->cleared, 1023 + 1024);
	CHECK_EQ(p->debt[1], 2 * 3200);    /* CPU 1's two remote flushes, not paid yet */
	CHECK_EQ(p->debt[0], 0);
	CHECK_EQ(p->lock.acquisitions, 4096);
	CHECK_EQ(p->lock.contended, 0);
	CHECK_EQ(p->lock.bounces, 0);      /* one CPU: the line never moves */
	/* page 2047 is still at slot 0 with count 1: a hit; page 0 was flushed: new */
	kmap_map(m, &x->task, high(x, 2047));
	CHECK_EQ(p->hits, 1);
	CHECK_EQ(p->count[0], 2);
	kmap_unmap(m, &x->task, high(x, 2047));
	CHECK_EQ(p->count[0], 1);
	kmap_map(m, &x->task, high(x, 0));
	CHECK_EQ(p->new_maps, 2049);
	kmap_unmap(m, &x->task, high(x, 0));
	CHECK_EQ(p->kmaps, 2050);
	CHECK_EQ(p->unmaps, 2050);
	CHECK_EQ(x->k.s->vs->ev[MM_KMAP_CALLS], 2050);
	/* the copy of a file read goes through kmap_high too (pkmap) */
	kmap_read_copy(m, &x->task, high(x, 5), 4096, 1000, false);
	CHECK_EQ(p->kmaps, 2051);
	CHECK_EQ(p->atomic_maps, 0);
	CHECK_EQ(p->read_copies, 1);
	return 0;
}

static void test_counts(void **state)
{
	(void)state;
	run(MACHINE, "{\"reclaim\":\"lru2q\",\"kmap\":\"pkmap\"}", b_counts, NULL);
}

/* ---- two CPUs: lock hand-offs, and a waiter spinning across a flush ---- */

static struct tctx *X2;
static struct mm_task tb;

static void b_actor(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	struct tctx *x = X2;
	struct mm_task *t = sg_actor_self_get_data();
	sg_actor_sleep_for(1e-6);
	kmap_map(x->k.kmap, t, high(x, 500));
	kmap_unmap(x->k.kmap, t, high(x, 500));
	mm_sync(t);
	x->out[0] = pool(x)->lock.wait_s;
}

static int b_handoff(struct tctx *x)
{
	struct kmap *m = x->k.kmap;
	struct pkmap *p = pool(x);
	struct mm_task *a = &x->task;
	CHECK_EQ(p->n, 16);
	/* A on CPU 0, B (the same actor, moved) on CPU 1, one after the other */
	kmap_map(m, a, high(x, 1));
	kmap_unmap(m, a, high(x, 1));
	CHECK_EQ(p->lock.bounces, 0);
	a->cpu = 1;
	mm_sync(a);
	double t0 = simgrid_get_clock();
	kmap_map(m, a, high(x, 2));
	mm_sync(a);
	/* RMW 100 + lock line 200 + page_op 50 + set_pte 50, and the shared lines of
	 * a miss (pkmap.c's design comment), 200 ns each: page->virtual's struct page
	 * line (from memory), last_pkmap_nr (from CPU 0), pkmap_count[2]'s line read
	 * (from CPU 0), the PTE line (from CPU 0), the count line written (an upgrade:
	 * CPU 0 still shares it); page->virtual written and the count's ++ are local */
	CHECK_EQ((long long)((simgrid_get_clock() - t0) * 1e9 + 0.5), 400 + 5 * 200);
	/* from memory: CPU 0's first kmap_high/kunmap_high brought page 1's line, the
	 * rotor, the count line, the PTE line and the wait-queue line; CPU 1's, page 2's */
	CHECK_EQ(p->coh.fills, 6);
	CHECK_EQ(p->coh.transfers, 3);
	CHECK_EQ(p->coh.upgrades, 1);
	kmap_unmap(m, a, high(x, 2));   /* same CPU: no transfer */
	a->cpu = 0;
	kmap_map(m, a, high(x, 3));
	kmap_unmap(m, a, high(x, 3));
	CHECK_EQ(p->lock.bounces, 2);   /* 0 -> 1 and 1 -> 0 */
	CHECK_EQ(p->lock.acquisitions, 6);
	CHECK_EQ(p->lock.contended, 0);
	/* rotor at 3: 12 more new mappings bring it to 15; the next one flushes.
	 * B starts on CPU 1 and asks 1 us into the flush A does holding kmap_lock. */
	for (uint32_t i = 4; i < 16; i++) {
		kmap_map(m, a, high(x, i));
		kmap_unmap(m, a, high(x, i));
	}
	CHECK_EQ(p->flushes, 0);
	mm_sync(a);
	X2 = x;
	mm_task_init(&tb, &x->k, 1, "b");
	sg_actor_t b = sg_actor_init("b", sg_host_by_name("cpu1"));
	sg_actor_set_data(b, &tb);
	sg_actor_start(b, b_actor, 0, NULL);
	kmap_map(m, a, high(x, 16));
	kmap_unmap(m, a, high(x, 16));
	mm_sync(a);
	sg_actor_join(b, -1);
	CHECK_EQ(p->flushes, 1);
	CHECK_EQ(p->ipis, 1);
	CHECK_EQ(p->lock.contended, 1);
	/* B first paid CPU 1's debt from the flush (3200 cycles of remote flush and
	 * refill), asked at 1 + 3.2 us and waited until A's release plus one line
	 * transfer (200 ns); A's kmap_high took 100 + 50 + (16 + 15 x 50 + 2000 +
	 * 3200) + 50 cycles, all of it holding kmap_lock, plus two shared lines of
	 * 200 ns: page 16's struct page line (from memory) and, in the flush, page 2's
	 * (page->virtual = NULL: CPU 1 wrote it when it mapped page 2) */
	CHECK_EQ((long long)(x->out[0] * 1e9 + 0.5),
		 100 + 50 + 16 + 750 + 5200 + 50 + 200 - 1000 - 3200 + 2 * 200 + 200);
	/* ... the hand-off to the one spinner: its re-read, then its RMW (2 x 200 ns) */
	CHECK_EQ(p->debt[1], 0);
	return 0;
}

static void test_handoff(void **state)
{
	(void)state;
	run(MACHINE, "{\"reclaim\":\"lru2q\",\"kmap\":{\"module\":\"pkmap\",\"last_pkmap\":16}}",
	    b_handoff, NULL);
}

/* ---- an exhausted pool: the third mapper sleeps until a kunmap ---- */

static void c_actor(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	struct tctx *x = X2;
	struct mm_task *t = sg_actor_self_get_data();
	kmap_map(x->k.kmap, t, high(x, 3));    /* both slots in use: sleeps */
	mm_sync(t);
	x->out[1] = simgrid_get_clock();
	x->out[2] = pool(x)->vaddr[high(x, 3)];
	kmap_unmap(x->k.kmap, t, high(x, 3));
}

static int b_exhaust(struct tctx *x)
{
	struct kmap *m = x->k.kmap;
	struct pkmap *p = pool(x);
	struct mm_task *a = &x->task;
	kmap_map(m, a, high(x, 1));   /* slot 1 */
	kmap_map(m, a, high(x, 2));   /* rotor wraps: flush 1, slot 0 */
	CHECK_EQ(p->flushes, 1);
	mm_sync(a);
	X2 = x;
	mm_task_init(&tb, &x->k, 1, "c");
	sg_actor_t c = sg_actor_init("c", sg_host_by_name("cpu1"));
	sg_actor_set_data(c, &tb);
	sg_actor_start(c, c_actor, 0, NULL);
	sg_actor_sleep_for(5e-6);
	CHECK_EQ(p->pool_waits, 1);
	CHECK_EQ(p->sleepers, 1);
	CHECK_EQ(p->flushes, 2);      /* C's first sweep wrapped once */
	kmap_unmap(m, a, high(x, 1)); /* slot 1 back to count 1: C is woken */
	mm_sync(a);
	double t_wake = simgrid_get_clock();
	sg_actor_join(c, -1);
	CHECK_EQ(p->flushes, 3);      /* C's second sweep frees slot 1 */
	CHECK_EQ(x->out[2], 2);       /* C got slot 1 (vaddr = slot + 1) */
	CHECK(x->out[1] > t_wake);
	CHECK_EQ(p->sleepers, 0);
	kmap_unmap(m, a, high(x, 2));
	return 0;
}

static void test_exhaust(void **state)
{
	(void)state;
	run(MACHINE, "{\"reclaim\":\"lru2q\",\"kmap\":{\"module\":\"pkmap\",\"last_pkmap\":2}}",
	    b_exhaust, NULL);
}

/* ---- atomic: reads take a per-CPU slot, writes keep kmap_high ---- */

static int b_atomic(struct tctx *x)
{
	struct kmap *m = x->k.kmap;
	struct pkmap *p = pool(x);
	struct mm_task *a = &x->task;
	mm_sync(a);
	double t0 = simgrid_get_clock();
	for (uint32_t i = 0; i < 10; i++)
		kmap_read_copy(m, a, high(x, i), 4096, 1000, false);
	mm_sync(a);
	CHECK_EQ(p->atomic_maps, 10);
	CHECK_EQ(p->kmaps, 0);
	CHECK_EQ(p->lock.acquisitions, 0);
	CHECK_EQ(p->new_maps, 0);
	/* each: prefault 2 x 50, PTE 50, invlpg 65, copy 1000 */
	CHECK_EQ((long long)((simgrid_get_clock() - t0) * 1e9 + 0.5), 10 * (100 + 50 + 65 + 1000));
	/* a copy that faults falls back to kmap() */
	kmap_read_copy(m, a, high(x, 20), 4096, 1000, true);
	CHECK_EQ(p->atomic_fallbacks, 1);
	CHECK_EQ(p->kmaps, 1);
	CHECK_EQ(p->lock.acquisitions, 2);
	/* a write's copy keeps kmap_high */
	kmap_map(m, a, high(x, 21));
	kmap_unmap(m, a, high(x, 21));
	CHECK_EQ(p->kmaps, 2);
	CHECK_EQ(p->lock.acquisitions, 4);
	CHECK_EQ(x->k.s->vs->ev[MM_KMAP_CALLS], 12);
	return 0;
}

static void test_atomic(void **state)
{
	(void)state;
	run(MACHINE, "{\"reclaim\":\"lru2q\",\"kmap\":\"atomic\"}", b_atomic, NULL);
}

/* ---- parameters: LAST_PKMAP's range ---- */

static int b_none(struct tctx *x)
{
	(void)x;
	return 0;
}

static void test_bad_param(void **state)
{
	(void)state;
	struct mm_err e = { "" };
	json_t *j = json_pack("{s:i}", "last_pkmap", 1000);
	struct kmap *m = kmap_create("pkmap", j, NULL, NULL, "f.json", "kernels.a.kmap", &e);
	assert_non_null(m);   /* any size from 2 (the model's rotor is a modulo) */
	kmap_destroy(m);
	json_object_set_new(j, "last_pkmap", json_integer(1));
	assert_null(kmap_create("pkmap", j, NULL, NULL, "f.json", "kernels.a.kmap", &e));
	assert_non_null(strstr(e.msg, "last_pkmap"));
	json_decref(j);
	(void)b_none;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts),
		cmocka_unit_test(test_handoff),
		cmocka_unit_test(test_exhaust),
		cmocka_unit_test(test_atomic),
		cmocka_unit_test(test_bad_param),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
