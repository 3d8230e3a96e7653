/*
 * raid.c - a RAID host adapter's write-back cache (see raid.h).
 *
 * Models what the kernel sees of a SCSI RAID controller such as the Adaptec
 * 2200S of the OSDL STP machines (kernel-mechanisms.md 6.2: 64 MB cache, drive
 * write caches off): the SCSI driver's request completes when the controller
 * reports it, which for a write-back cache is when the data is in the cache
 * (drivers/scsi/aacraid: the adapter's FIB completes the command), not when the
 * drives have it.  The drives behind the controller are the disk's own model
 * (models/hw/disk.c: seek, rotation, media rate, elevator): destaging is a write in
 * that queue.  Not modelled: the controller's read cache and read-ahead, striping
 * over several spindles (an array is one disk here), cache replacement beyond
 * "dirty data waits for its destage".
 *
 * Acknowledgements of asynchronous writes are made by one daemon actor per
 * controller, in bus order (the bus serves one transfer at a time, so their times
 * only grow); it publishes its next acknowledgement time for lookahead.
 */
#include "models/hw/raid.h"

#include "emu/core/timemodel.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/semaphore.h>

const struct mm_param ctl_params[] = {
	MM_PARAM(struct ctl_cfg, cache, "cache", MM_P_SIZE, 0, 1e12, "0",
		 "write-back cache of the controller (Adaptec 2200S: 64 MB, kernel-mechanisms.md 6.2); 0: write-through"),
	MM_PARAM(struct ctl_cfg, bus_bw, "bus", MM_P_RATE, 1e6, 1e11, "\"160MB/s\"",
		 "host-to-controller transfer rate (Ultra160 SCSI / PCI: 160 MB/s)"),
	MM_PARAM(struct ctl_cfg, overhead, "overhead", MM_P_TIME, 0, 0.01, "\"50us\"",
		 "controller time per command (calibration: firmware of a 2004 adapter)"),
	MM_PARAM_END
};

int ctl_load(struct ctl_cfg *c, json_t *obj, const char *file, const char *path,
	     struct mm_err *e)
{
	memset(c, 0, sizeof *c);
	if (!json_is_object(obj))
		return mm_errf(e, file, path, "expected an object");
	return mm_params_load(ctl_params, c, obj, file, path, NULL, e);
}

struct ctl_ack {
	double due;
	void (*end_io)(void *arg);
	void *arg;
	struct ctl_ack *next;
};

struct ctl {
	struct ctl_cfg cfg;
	uint64_t dirty;                 /* bytes reserved: on the bus or waiting for destage */
	double bus_free;                /* when the bus ends its last transfer */
	struct ctl_ack *head, *tail;    /* acknowledgements due, in time order */
	sg_sem_t work;
	int idle;
	double wake;                    /* lookahead: the next acknowledgement, +inf idle */
	struct tm_world *w;
	int slot;
	struct ctl_stats st;
};

/* Reserve @bytes and the bus for their transfer.  Returns: when it ends, or -1
 * if the cache has no room. */
static double reserve(struct ctl *c, uint64_t bytes)
{
	if (c->cfg.cache == 0 || bytes > c->cfg.cache - c->dirty) {
		c->st.through_writes++;
		return -1;
	}
	c->dirty += bytes;
	if (c->dirty > c->st.max_dirty)
		c->st.max_dirty = c->dirty;
	c->st.cached_writes++;
	double now = simgrid_get_clock();
	double x = c->cfg.overhead + (double)bytes / c->cfg.bus_bw;
	double start = c->bus_free > now ? c->bus_free : now;
	c->bus_free = start + x;
	c->st.bus_busy += x;
	return c->bus_free;
}

double ctl_write_sync(struct ctl *c, struct tm *t, uint64_t bytes)
{
	if (t)
		tm_sync(t);   /* the command starts at the caller's time */
	double now = simgrid_get_clock(), end = reserve(c, bytes);
	if (end < 0)
		return -1;
	if (t)
		t->wake = end;
	sg_actor_sleep_for(end - now);
	return end - now;
}

static void acker(int argc, char **argv)
{
	struct ctl *c = sg_actor_self_get_data();
	sg_actor_daemonize(sg_actor_self());
	if (c->w)
		tm_world_hook(c->w, c->slot);
	for (;;) {
		while (!c->head) {
			c->idle = 1;
			c->wake = INFINITY;
			sg_sem_acquire(c->work);
		}
		struct ctl_ack *a = c->head;
		double now = simgrid_get_clock();
		if (a->due > now) {
			c->wake = a->due;
			sg_actor_sleep_for(a->due - now);
			continue;   /* the head may only be later ones' predecessor: look again */
		}
		c->head = a->next;
		if (!c->head)
			c->tail = NULL;
		a->end_io(a->arg);
		free(a);
	}
}

int ctl_write_async(struct ctl *c, struct tm *t, uint64_t bytes, void (*end_io)(void *arg),
		    void *arg)
{
	if (c->cfg.cache == 0 || bytes > c->cfg.cache - c->dirty) {
		c->st.through_writes++;
		return -1;
	}
	struct ctl_ack *a = calloc(1, sizeof *a);
	if (!a)
		return -1;
	if (t && c->idle)
		tm_sync(t);   /* the request wakes the controller: it starts at the caller's time */
	a->due = reserve(c, bytes);
	a->end_io = end_io;
	a->arg = arg;
	if (c->tail)
		c->tail->next = a;
	else
		c->head = a;
	c->tail = a;
	if (c->idle) {
		c->idle = 0;
		tm_woken(&c->wake);
		sg_sem_release(c->work);
	}
	return 0;
}

void ctl_destaged(struct ctl *c, uint64_t bytes)
{
	c->dirty -= bytes < c->dirty ? bytes : c->dirty;
}

struct ctl *ctl_create(const struct ctl_cfg *cfg, const char *name, struct tm_world *w)
{
	struct ctl *c = calloc(1, sizeof *c);
	if (!c)
		return NULL;
	c->cfg = *cfg;
	c->work = sg_sem_init(0);
	c->w = w;
	c->slot = w ? tm_world_add(w, &c->wake) : -1;
	char an[MM_PSTR + 8];
	snprintf(an, sizeof an, "ctl-%s", name);
	sg_actor_t a = sg_actor_init(an, sg_host_by_name("io"));
	sg_actor_set_data(a, c);
	sg_actor_start(a, acker, 0, NULL);
	return c;
}

void ctl_destroy(struct ctl *c)
{
	if (!c)
		return;
	while (c->head) {
		struct ctl_ack *a = c->head;
		c->head = a->next;
		free(a);
	}
	sg_sem_destroy(c->work);
	free(c);
}

const struct ctl_stats *ctl_get_stats(const struct ctl *c)
{
	return &c->st;
}
