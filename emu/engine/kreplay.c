/*
 * kreplay.c - replay on a minimal one-zone kernel for the zone-level reclaim
 * modules (see kreplay.h).
 *
 * Design: the parent checks the module and its parameters (so errors read as the
 * frame-level replay's), forks, and reads the child's report from a pipe: a
 * fixed header (status, counts, message) then the steps text.  The child builds
 * the machine and kernel sections as JSON, brings SimGrid up on them the way the
 * engine does (platform file, disks, one actor on cpu0), and replays inside the
 * actor with the kernel untimed, so no simulated time passes and kswapd never
 * runs: all reclaim is replay's own mm_reclaim_zone() calls.  The machine has
 * the N frames plus 1024 pages and min_free_kbytes 16, so allocations never
 * meet a watermark.
 */
#include "emu/engine/kreplay.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>

#include "emu/engine/engine.h"
#include "models/hw/disk.h"
#include "models/mm/kernel.h"
#include "models/mm/vmscan.h"
#include "models/reclaim/reclaim.h"

#define PAGE 4096u

struct hdr {
	int rc;
	uint64_t refs, faults, hits, reclaims, freed;
	uint64_t steps_len;
	char msg[MM_ERR_MAX];
};

/* a growing text buffer */
struct sbuf {
	char *s;
	size_t n, cap;
	bool oom;
};

static void sb_put(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_put(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	for (int pass = 0; pass < 2 && !b->oom; pass++) {
		va_start(ap, fmt);
		int n = vsnprintf(b->s ? b->s + b->n : NULL, b->s ? b->cap - b->n : 0, fmt, ap);
		va_end(ap);
		if (n < 0) {
			b->oom = true;
			return;
		}
		if (b->s && b->n + (size_t)n < b->cap) {
			b->n += (size_t)n;
			return;
		}
		size_t cap = b->cap ? b->cap : 4096;
		while (cap <= b->n + (size_t)n)
			cap *= 2;
		char *s = realloc(b->s, cap);
		if (!s) {
			b->oom = true;
			return;
		}
		b->s = s;
		b->cap = cap;
	}
}

/* what the actor works on (the child's one replay) */
static struct job {
	const char *policy;
	json_t *params;
	uint32_t frames, npages;
	const uint32_t *refs;
	size_t nrefs;
	const uint64_t *orig;
	int steps;
	struct sim_state st;
	struct mm_kernel k;
	struct mm_task task;
	struct hdr h;
	struct sbuf sb;
	const char *last_list;
	int width;
} job;

static void emit(void *arg, const char *list, uint32_t pfn, const char *mark)
{
	struct job *j = arg;
	if (pfn == PFN_NONE) {
		if (mark)
			sb_put(&j->sb, "  %s %s", list, mark);
		else
			sb_put(&j->sb, "  %s:", list);
		return;
	}
	const struct page *p = &j->k.phys.pages[pfn];
	uint64_t id = p->index < j->npages ? j->orig[p->index] : p->index;
	sb_put(&j->sb, " %llu%s", (unsigned long long)id, mark ? mark : "");
}

static int fail(struct job *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct job *j, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(j->h.msg, sizeof j->h.msg, fmt, ap);
	va_end(ap);
	return -1;
}

static int replay(struct job *j)
{
	struct mm_err e = { { 0 } };
	struct mm_kernel *k = &j->k;
	if (mm_kernel_init(k, &j->st.s, &e))
		return fail(j, "%s", e.msg);
	mm_task_init(&j->task, k, 0, "replay");
	sg_actor_set_data(sg_actor_self(), &j->task);
	mm_set_untimed(k, true);
	struct mm_file *f = mm_file_create(k, "trace", (uint64_t)j->npages * PAGE, 0, 0);
	if (!f)
		return fail(j, "replay: cannot create the trace's file of %u pages", j->npages);
	struct zone *z = &k->phys.zones[MM_ZONE_NORMAL];
	for (size_t i = 0; i < j->nrefs; i++) {
		uint32_t pg = j->refs[i];
		bool fault = f->pfn[pg] == PFN_NONE;
		while (fault && f->nr_cached >= j->frames) {
			unsigned n = mm_reclaim_zone(k, &j->task, z, 1);
			j->h.reclaims++;
			j->h.freed += n;
			if (!n)
				return fail(j, "replay: reference %zu: reclaim module \"%s\" freed no page",
					    i, j->policy);
		}
		if (mm_file_getblk(k, &j->task, f, pg, true) == PFN_NONE)
			return fail(j, "replay: reference %zu: no page could be allocated", i);
		mm_lru_add_drain(k, &j->task);
		j->h.refs++;
		j->h.faults += fault;
		j->h.hits += !fault;
		if (j->steps && k->kops->describe) {
			sb_put(&j->sb, "%*llu %s ", j->width, (unsigned long long)j->orig[pg],
			       fault ? "F" : " ");
			k->kops->describe(k->rc, k, z, emit, j);
			sb_put(&j->sb, "\n");
		}
	}
	if (j->sb.oom)
		return fail(j, "replay: out of memory for the steps");
	return 0;
}

static void actor(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	job.h.rc = replay(&job);
}

/* The child: build the simulation, run the actor. Returns: the exit status. */
static int child(struct job *j)
{
	struct mm_err e = { { 0 } };
	uint64_t pages = (uint64_t)j->frames + 1024;
	uint64_t mib = (pages * PAGE + (1u << 20) - 1) >> 20;
	if (mib < 4)
		mib = 4;
	char mem[32];
	snprintf(mem, sizeof mem, "%lluMiB", (unsigned long long)mib);
	json_t *m = json_pack("{s:s, s:s, s:i, s:i, s:i, s:[{s:s, s:s, s:s}]}", "arch", "flat",
			      "memory", mem, "kernel_reserved", 0, "cpus", 1, "min_free_kbytes", 16,
			      "disks", "name", "d0", "read", "50MB/s", "write", "50MB/s");
	json_t *rc = json_deep_copy(j->params);
	json_t *kern = rc ? json_pack("{s:o}", "reclaim", rc) : NULL;
	if (!m || !kern || json_object_set_new(rc, "module", json_string(j->policy)))
		return fail(j, "replay: out of memory"), 1;
	struct sim *s = sim_state_bind(&j->st);
	s->file = "--param";
	s->kernel_name = "replay";
	s->kernel = kern;
	s->engine.quantum = 10e-6;
	if (machine_load(&j->st.machine, m, "replay", "machine", &e))
		return fail(j, "%s", e.msg), 1;
	char plat[512];
	if (sim_write_platform(&j->st.machine, plat, sizeof plat))
		return fail(j, "replay: cannot write the SimGrid platform"), 1;
	sim_simgrid_init();
	simgrid_load_platform(plat);
	unlink(plat);
	tm_world_init(&s->world, 0);
	for (int i = 0; i < j->st.machine.ndisks; i++)
		j->st.disks[i] = disk_create(&j->st.machine.disks[i], 0, &s->world);
	s->ndisks = j->st.machine.ndisks;
	j->h.rc = -1;
	snprintf(j->h.msg, sizeof j->h.msg, "replay: the kernel did not run");
	sg_actor_create("replay", sg_host_by_name("cpu0"), actor, 0, NULL);
	simgrid_run();
	return j->h.rc ? 1 : 0;
}

static int write_all(int fd, const void *p, size_t n)
{
	const char *c = p;
	while (n) {
		ssize_t w = write(fd, c, n);
		if (w <= 0)
			return -1;
		c += w;
		n -= (size_t)w;
	}
	return 0;
}

static int read_all(int fd, void *p, size_t n)
{
	char *c = p;
	while (n) {
		ssize_t r = read(fd, c, n);
		if (r <= 0)
			return -1;
		c += r;
		n -= (size_t)r;
	}
	return 0;
}

int kreplay_run(const char *policy, json_t *params, uint32_t frames, const uint32_t *refs,
		size_t nrefs, uint32_t npages, const uint64_t *orig, int steps,
		struct kreplay_result *res, struct mm_err *e)
{
	memset(res, 0, sizeof *res);
	/* the module and its parameters, checked here so errors name --param */
	struct reclaim *r = reclaim_create(policy, params, frames, NULL, "--param", NULL, e);
	if (!r)
		return -1;
	bool zoned = r->ops->kops != NULL;
	reclaim_destroy(r);
	if (!zoned)
		return mm_errf(e, NULL, NULL, "replay: \"%s\" is not a zone-level module", policy);
	int p[2];
	if (pipe(p))
		return mm_errf(e, NULL, NULL, "replay: cannot create a pipe");
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return mm_errf(e, NULL, NULL, "replay: cannot fork");
	}
	if (pid == 0) {
		close(p[0]);
		/* SimGrid writes nothing we want on the parent's streams */
		memset(&job, 0, sizeof job);
		job.policy = policy;
		job.params = params ? params : json_object();
		job.frames = frames;
		job.npages = npages;
		job.refs = refs;
		job.nrefs = nrefs;
		job.orig = orig;
		job.steps = steps;
		job.width = 3;
		for (uint32_t i = 0; i < npages; i++) {
			int w = snprintf(NULL, 0, "%llu", (unsigned long long)orig[i]);
			if (w > job.width)
				job.width = w;
		}
		int st = child(&job);
		job.h.steps_len = job.sb.n;
		if (write_all(p[1], &job.h, sizeof job.h) ||
		    (job.sb.n && write_all(p[1], job.sb.s, job.sb.n)))
			_exit(3);
		_exit(st);
	}
	close(p[1]);
	struct hdr h;
	int ok = read_all(p[0], &h, sizeof h) == 0;
	char *steps_txt = NULL;
	if (ok && h.steps_len) {
		steps_txt = malloc(h.steps_len + 1);
		ok = steps_txt && read_all(p[0], steps_txt, h.steps_len) == 0;
		if (ok)
			steps_txt[h.steps_len] = '\0';
	}
	close(p[0]);
	int status;
	waitpid(pid, &status, 0);
	if (!ok) {
		free(steps_txt);
		return mm_errf(e, NULL, NULL, "replay: the one-zone kernel died (status %d)", status);
	}
	if (h.rc) {
		free(steps_txt);
		h.msg[sizeof h.msg - 1] = '\0';
		return mm_errf(e, NULL, NULL, "%s", h.msg);
	}
	res->refs = h.refs;
	res->faults = h.faults;
	res->hits = h.hits;
	res->reclaims = h.reclaims;
	res->freed = h.freed;
	res->steps = steps_txt;
	return 0;
}

void kreplay_free(struct kreplay_result *res)
{
	free(res->steps);
	res->steps = NULL;
}
