/*
 * kharness.h - the test harness shared by the white-box tests of kernel-level
 * reclaim modules (test_lru2q.c, test_clockpro.c): a body runs as an actor inside
 * a SimGrid simulation of a small kernel, in a forked child (SimGrid runs once per
 * process); the child reports a message and up to 16 numbers through a pipe.
 * The including file defines KH_NAME, includes the module's .c first, and defines
 * `static int inv(struct tctx *x)`, the invariant check run before and after the
 * body.
 */
#ifndef MMEMU_KHARNESS_H
#define MMEMU_KHARNESS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>

#include "emu/engine/engine.h"
#include "models/hw/disk.h"
#include "models/mm/kernel.h"

#ifndef MSG
#define MSG 600
#endif

struct tctx {
	struct sim_state s;     /* x->s.s is the simulation context */
	struct mm_kernel k;
	struct mm_task task;
	const char *machine, *kernel;
	int (*body)(struct tctx *x);
	char msg[MSG];
	double out[16];
	int rc;
};

/* the test's one context (test code, not the module) */
static struct tctx *ctx;

#define CHECK(c)                                                                          \
	do {                                                                              \
		if (!(c)) {                                                               \
			snprintf(x->msg, MSG, "%s:%d: check failed: %s", __FILE__, __LINE__, #c); \
			return -1;                                                        \
		}                                                                         \
	} while (0)
#define CHECK_EQ(a, b)                                                                    \
	do {                                                                              \
		long long a_ = (long long)(a), b_ = (long long)(b);                      \
		if (a_ != b_) {                                                           \
			snprintf(x->msg, MSG, "%s:%d: %s = %lld, expected %s = %lld", __FILE__, \
				 __LINE__, #a, a_, #b, b_);                               \
			return -1;                                                        \
		}                                                                         \
	} while (0)
#define INV()                                                                             \
	do {                                                                              \
		if (inv(x)) {                                                             \
			size_t l_ = strlen(x->msg);                                       \
			snprintf(x->msg + l_, MSG - l_, " (after line %d)", __LINE__);    \
			return -1;                                                        \
		}                                                                         \
	} while (0)

static int inv(struct tctx *x);

/* The kernel's own invariant check (mm_kernel_check), the common part of every
 * test's inv().  Returns: 0, or -1 with the violation in x->msg. */
static inline int kh_kernel_ok(struct tctx *x)
{
	struct mm_err e = { "" };
	if (mm_kernel_check(&x->k, &e)) {
		snprintf(x->msg, MSG, "mm_check: %s", e.msg);
		return -1;
	}
	return 0;
}

/* Returns: the struct page of @pfn. */
static inline struct page *kh_page(struct tctx *x, uint32_t pfn)
{
	return &x->k.phys.pages[pfn];
}

/* Returns: free pages, buddy lists and per-CPU lists together. */
static inline uint64_t kh_free_pages(struct tctx *x)
{
	uint64_t n = mm_phys_free_pages(&x->k.phys);
	for (int i = 0; i < MM_NR_ZONES; i++)
		n += x->k.phys.zones[i].nr_pcp;
	return n;
}

/* Drain the lru_add pagevecs of the first two CPUs (the test machines have 2). */
static inline void kh_drain_all(struct tctx *x)
{
	for (int c = 0; c < 2; c++) {
		x->task.cpu = c;
		mm_lru_add_drain(&x->k, &x->task);
	}
	x->task.cpu = 0;
}

static void body_actor(int argc, char **argv)
{
	struct tctx *x = ctx;
	struct mm_err e = { "" };
	if (mm_kernel_init(&x->k, &x->s.s, &e)) {
		snprintf(x->msg, MSG, "mm_kernel_init: %s", e.msg);
		x->rc = -1;
		return;
	}
	mm_task_init(&x->task, &x->k, 0, "test");
	sg_actor_set_data(sg_actor_self(), &x->task);
	x->rc = inv(x);
	if (x->rc == 0)
		x->rc = x->body(x);
	if (x->rc == 0 && inv(x))
		x->rc = -1;
}

static int child(struct tctx *x)
{
	struct mm_err e = { "" };
	json_error_t je;
	json_t *m = json_loads(x->machine, 0, &je);
	json_t *kern = json_loads(x->kernel, 0, &je);
	if (!m || !kern) {
		snprintf(x->msg, MSG, "bad test JSON");
		return -1;
	}
	sim_state_bind(&x->s);
	x->s.s.file = KH_NAME;
	x->s.s.kernel_name = "t";
	x->s.s.kernel = kern;
	x->s.s.engine.quantum = 10e-6;
	if (machine_load(&x->s.machine, m, "test", "machine", &e)) {
		snprintf(x->msg, MSG, "machine: %s", e.msg);
		return -1;
	}
	char plat[512];
	if (sim_write_platform(&x->s.machine, plat, sizeof plat))
		return -1;
	sim_simgrid_init();
	simgrid_load_platform(plat);
	unlink(plat);
	tm_world_init(&x->s.s.world, 0);
	for (int i = 0; i < x->s.machine.ndisks; i++)
		x->s.disks[i] = disk_create(&x->s.machine.disks[i], 0, &x->s.s.world);
	x->s.s.ndisks = x->s.machine.ndisks;
	ctx = x;
	sg_actor_create("test", sg_host_by_name("cpu0"), body_actor, 0, NULL);
	simgrid_run();
	return x->rc;
}

/* Run @body in a child on @machine with kernel section @kernel; @out gets x->out. */
static void run(const char *machine, const char *kernel, int (*body)(struct tctx *), double *out)
{
	int p[2];
	assert_int_equal(pipe(p), 0);
	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(p[0]);
		static struct tctx x;
		memset(&x, 0, sizeof x);
		x.machine = machine;
		x.kernel = kernel;
		x.body = body;
		int rc = child(&x);
		if (rc && !x.msg[0])
			snprintf(x.msg, MSG, "child failed");
		if (write(p[1], x.msg, MSG) != MSG || write(p[1], x.out, sizeof x.out) != sizeof x.out)
			_exit(4);
		_exit(rc ? 1 : 0);
	}
	close(p[1]);
	char msg[MSG] = "";
	double o[16] = { 0 };
	ssize_t n = read(p[0], msg, MSG);
	ssize_t n2 = read(p[0], o, sizeof o);
	close(p[0]);
	int st;
	waitpid(pid, &st, 0);
	if (n != MSG || n2 != (ssize_t)sizeof o)
		fail_msg("child died (status %d)", st);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		fail_msg("%s", msg);
	if (out)
		memcpy(out, o, sizeof o);
}

#endif
