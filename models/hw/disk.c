/*
 * disk.c - rotating-disk model and its request queue (see disk.h for the formulas).
 *
 * The driver is a daemon actor on the "io" host: requesters queue a request and
 * sleep on their own semaphore; the driver picks the next request (FIFO or
 * one-way elevator), sleeps for seek + rotational delay, then runs the transfer on
 * the SimGrid disk so its bandwidth is a real simulated resource.
 *
 * Hand-offs: SimGrid actors run one at a time and switch only at simcalls, so the
 * queue needs no lock: a requester queues its request and wakes the driver only
 * if it sleeps (a flag, then one sg_sem_release); the driver wakes the requester
 * with one release of the requester's semaphore.  A synchronous request is a
 * record from the disk's pool (each with its own semaphore, reused, no creation
 * per request), never the requester's stack: when engine.max_time ends a run,
 * SimGrid kills the requesters and frees their stacks while their requests are
 * still queued, and disk_destroy() then walks the queue to free the
 * asynchronous ones (a request on a stack made it read freed memory: the
 * "killed by signal 11" of issue 27).  The disk keeps every record it made and
 * frees them all.  The same simulated times
 * as a mutex and condition variables, with 10 simcalls per request instead of
 * 15.  The driver keeps doing every transfer: a requester serving its own request
 * on an idle disk (6 simcalls) was measured and dropped, because its sleep and
 * transfer then belong to the requester's host and ties at one simulated time
 * resolve in another order (one last-digit change in lru_lock_wait_s of seed
 * 001's reaim runs).
 *
 * Lookahead (emu/core/timemodel.h): the driver publishes when it can next act: the end
 * of the positioning sleep, a lower bound of the transfer's end, +inf while idle;
 * it sets a requester's wake slot to now when it completes its request.
 */
#include "models/hw/disk.h"

#include "emu/core/timemodel.h"

#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <simgrid/actor.h>
#include <simgrid/cond.h>
#include <simgrid/disk.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/semaphore.h>

static const char *const queue_names[] = { "fifo", "elevator", NULL };

const struct mm_param disk_params[] = {
	MM_PARAM(struct disk_cfg, name, "name", MM_P_STRING, 1, 0, NULL, "disk name (a SimGrid disk)"),
	MM_PARAM(struct disk_cfg, size, "size", MM_P_SIZE, 1 << 20, 1e15, "\"36GB\"", "capacity"),
	MM_PARAM(struct disk_cfg, read_bw, "read", MM_P_RATE, 1e5, 1e11, NULL, "media read rate"),
	MM_PARAM(struct disk_cfg, write_bw, "write", MM_P_RATE, 1e5, 1e11, NULL, "media write rate"),
	MM_PARAM(struct disk_cfg, seek_avg, "seek_avg", MM_P_TIME, 0, 0.1, "\"4.5ms\"",
		 "average seek from the data sheet"),
	MM_PARAM(struct disk_cfg, track_to_track, "track_to_track", MM_P_TIME, 0, 0.01, "\"0.3ms\"",
		 "single-track seek from the data sheet"),
	MM_PARAM(struct disk_cfg, rpm, "rpm", MM_P_INT, 1000, 20000, "10000", "spindle speed"),
	MM_PARAM_ENUM(struct disk_cfg, queue, "queue", queue_names, "\"elevator\"",
		      "request order: fifo or one-way elevator"),
	MM_PARAM(struct disk_cfg, cache, "cache", MM_P_SIZE, 0, 1e11, "0",
		 "the drive's read buffer (0: no drive cache)"),
	MM_PARAM(struct disk_cfg, cache_segments, "cache_segments", MM_P_INT, 1, 1024, "16",
		 "segments the buffer is split into"),
	MM_PARAM(struct disk_cfg, cache_lookahead, "cache_lookahead", MM_P_SIZE, 0, 1e11, "0",
		 "bytes the drive reads ahead past a read (0: a whole segment)"),
	MM_PARAM(struct disk_cfg, interface_bw, "interface", MM_P_RATE, 1e5, 1e12, "\"320MB/s\"",
		 "bus rate from the drive's buffer to the host (Ultra320: 320 MB/s)"),
	MM_PARAM_END
};

int disk_load(struct disk_cfg *d, json_t *obj, const char *file, const char *path,
	      struct mm_err *e)
{
	static const char *const skip[] = { "controller", NULL };
	memset(d, 0, sizeof *d);
	if (mm_params_load(disk_params, d, obj, file, path, skip, e))
		return -1;
	json_t *ctl = json_object_get(obj, "controller");
	if (ctl) {
		char sub[300];
		snprintf(sub, sizeof sub, "%s.controller", path);
		if (ctl_load(&d->ctl, ctl, file, sub, e))
			return -1;
	}
	if (!d->name[0])
		return mm_errf(e, file, path, "disk name must not be empty");
	/* the name becomes an XML attribute of the SimGrid platform: keep it plain */
	for (const char *c = d->name; *c; c++)
		if (!isalnum((unsigned char)*c) && !strchr("-_.", *c)) {
			char sub[300];
			snprintf(sub, sizeof sub, "%s.name", path);
			return mm_errf(e, file, sub, "expected a disk name of letters, digits, '-', '_' and '.'");
		}
	if (d->track_to_track > d->seek_avg)
		return mm_errf(e, file, path, "track_to_track must not exceed seek_avg");
	if (d->cache && d->cache / (uint64_t)d->cache_segments < 4096)
		return mm_errf(e, file, path, "cache / cache_segments must be at least 4 KiB");
	if (d->cache && d->cache_lookahead == 0)
		d->cache_lookahead = d->cache / (uint64_t)d->cache_segments;
	if (d->cache_lookahead > d->cache / (uint64_t)d->cache_segments && d->cache)
		return mm_errf(e, file, path, "cache_lookahead must not exceed a segment");
	return 0;
}

double disk_seek_time(const struct disk_cfg *d, uint64_t from, uint64_t to)
{
	if (from == to)
		return 0;
	double dist = from > to ? (double)(from - to) : (double)(to - from);
	double full = d->track_to_track + 1.5 * (d->seek_avg - d->track_to_track);
	double frac = dist / (double)d->size;
	if (frac > 1)
		frac = 1;
	return d->track_to_track + (full - d->track_to_track) * sqrt(frac);
}

/* Bytes per track: what passes under the head in one revolution at the media rate. */
static double track_bytes(const struct disk_cfg *d)
{
	return d->read_bw * 60.0 / (double)d->rpm;
}

double disk_rot_delay(const struct disk_cfg *d, double t, uint64_t pos)
{
	return disk_rot_delay_phase(d, t, pos, 0);
}

double disk_rot_delay_phase(const struct disk_cfg *d, double t, uint64_t pos, double phase)
{
	double period = 60.0 / (double)d->rpm;
	double tb = track_bytes(d);
	double target = fmod((double)pos, tb) / tb;    /* angle of the sector, in turns */
	double head = fmod(t / period + phase, 1.0);   /* angle under the head */
	double wait = target - head;
	if (wait < 0)
		wait += 1.0;
	/* a target that passed under the head a millionth of a turn ago (6 ns at
	 * 10,000 rpm) is where the head is: a request for the sectors right after
	 * the previous one, started when it ends, goes on without losing a
	 * revolution.  Without this, the last bits of SimGrid's clock (which depend
	 * on how many events other actors made) would decide between 0 and a
	 * whole revolution. */
	if (wait > 1.0 - 1e-6)
		wait = 0;
	return wait * period;
}

struct disk_req {
	int write;
	uint64_t pos, bytes;
	int done;
	sg_sem_t sem;                   /* synchronous: the waiting requester */
	double *wake;                   /* ... and its wake slot, or NULL */
	void (*end_io)(void *arg);      /* asynchronous: called by the driver, then freed */
	void *arg;
	struct disk_req *next;          /* in the queue, or in the pool's free list */
};

/* A segment of the drive's buffer: bytes [start, end) were in it at time t_end;
 * while it streams, the head goes on reading at the media rate from end at t_end
 * up to limit.  A segment holds at most seg_bytes: its start follows the end. */
struct seg {
	uint64_t start, end, limit;
	double t_end;
	bool stream;
	uint64_t used;                  /* LRU stamp; 0: empty */
};

struct disk {
	struct disk_cfg cfg;
	struct seg *segs;               /* [cfg.cache_segments] when cfg.cache */
	uint64_t seg_bytes, stamp;
	sg_disk_t sg;
	sg_sem_t work;                  /* the driver sleeps on it while idle */
	int driver_idle;                /* the driver waits on work */
	struct disk_req **reqs;         /* every synchronous record made, [nreqs] */
	struct disk_req *freereqs;      /* ... those not in use (semaphore count 0) */
	int nreqs, capreqs;
	int onstack;                    /* requests on a requester's stack (host out
					 * of memory for a record), queued or in service */
	struct disk_req *head, *tail;   /* arrival order */
	struct disk_req *cur;           /* the request in service, or NULL */
	uint64_t headpos;               /* byte offset under the head */
	unsigned inflight_async;        /* queued or in service, asynchronous */
	double phase;                   /* platter angle at time 0, turns */
	double wake;                    /* when the driver can next act (lookahead) */
	struct tm_world *w;             /* ... published in w at index slot */
	int slot;
	struct disk_stats st;
	struct ctl *ctl;                /* write-back controller, or NULL */
	unsigned ndestage;              /* its destages queued or in service */
};

static sg_disk_t find_sg_disk(const char *name)
{
	sg_host_t io = sg_host_by_name("io");
	unsigned int n = 0;
	sg_disk_t *v = NULL;
	sg_disk_t found = NULL;
	if (!io)
		return NULL;
	sg_host_get_disks(io, &n, &v);
	for (unsigned int i = 0; i < n; i++)
		if (strcmp(sg_disk_get_name(v[i]), name) == 0)
			found = v[i];
	free(v);
	return found;
}

/* Unlink and return the next request to serve. */
static struct disk_req *pick(struct disk *dk)
{
	struct disk_req **best = &dk->head, **pp;
	if (dk->cfg.queue == DISK_ELEVATOR) {
		struct disk_req **lowest = &dk->head;
		best = NULL;
		for (pp = &dk->head; *pp; pp = &(*pp)->next) {
			if ((*pp)->pos < (*lowest)->pos)
				lowest = pp;
			if ((*pp)->pos >= dk->headpos && (!best || (*pp)->pos < (*best)->pos))
				best = pp;
		}
		if (!best)
			best = lowest;   /* wrap to the lowest block */
	}
	struct disk_req *r = *best;
	*best = r->next;
	if (dk->tail == r) {
		dk->tail = NULL;
		for (struct disk_req *q = dk->head; q; q = q->next)
			dk->tail = q;
	}
	return r;
}

static void enqueue(struct disk *dk, struct disk_req *r)
{
	if (dk->tail)
		dk->tail->next = r;
	else
		dk->head = r;
	dk->tail = r;
	if (dk->driver_idle) {
		dk->driver_idle = 0;
		tm_woken(&dk->wake);
		sg_sem_release(dk->work);
	}
}

/* Count one served request: positioning @seek + @rot, transfer @xfer, @busy
 * seconds in all. */
static void account(struct disk *dk, int write, uint64_t pos, uint64_t bytes, double seek,
		    double rot, double xfer, double busy)
{
	dk->headpos = pos + bytes;
	dk->st.seek += seek;
	dk->st.rot += rot;
	dk->st.xfer += xfer;
	dk->st.busy += busy;
	if (write) {
		dk->st.writes++;
		dk->st.bytes_written += bytes;
	} else {
		dk->st.reads++;
		dk->st.bytes_read += bytes;
	}
}

/* Where the prefetch into @g has got to at time @t. */
static uint64_t seg_avail(const struct disk *dk, const struct seg *g, double t)
{
	if (!g->stream || t <= g->t_end)
		return g->end;
	double a = (double)g->end + (t - g->t_end) * dk->cfg.read_bw;
	return a >= (double)g->limit ? g->limit : (uint64_t)a;
}

/* Stop the running prefetch at time @t (the head goes elsewhere). */
static void seg_stop(struct disk *dk, double t)
{
	for (int i = 0; i < dk->cfg.cache_segments; i++) {
		struct seg *g = &dk->segs[i];
		if (!g->stream)
			continue;
		g->end = seg_avail(dk, g, t);
		g->t_end = t;
		g->stream = false;
		dk->headpos = g->end;
	}
}

/* Does the drive's buffer serve a read of [@pos, @pos+@bytes) at time @t0?
 * Sets *@busy to its service time and updates the segment.
 * Returns: true for a prefetch hit, false for a miss (nothing changed). */
static bool cache_read(struct disk *dk, double t0, uint64_t pos, uint64_t bytes, double *busy)
{
	for (int i = 0; i < dk->cfg.cache_segments; i++) {
		struct seg *g = &dk->segs[i];
		if (!g->used)
			continue;
		uint64_t avail = seg_avail(dk, g, t0);
		uint64_t start = avail - g->start > dk->seg_bytes ? avail - dk->seg_bytes : g->start;
		bool running = g->stream && avail < g->limit;
		/* in the segment, or ahead of the running prefetch within its limit
		 * (the drive serves it when the prefetch gets there) */
		if (pos < start || pos > (running ? g->limit : avail) || (pos == avail && !running))
			continue;
		uint64_t end = pos + bytes;
		double t = (double)bytes / dk->cfg.interface_bw;
		if (end > avail) {
			if (!running)
				continue;   /* the prefetch stopped short: a miss */
			/* the last byte comes off the media when the prefetch gets there */
			double t_data = g->t_end + (double)(end - g->end) / dk->cfg.read_bw;
			if (t_data - t0 > t)
				t = t_data - t0;
		}
		/* a hit while the prefetch runs keeps it going */
		if (running && end + dk->cfg.cache_lookahead > g->limit)
			g->limit = end + dk->cfg.cache_lookahead;
		g->used = ++dk->stamp;
		*busy = t;
		return true;
	}
	return false;
}

/* A miss read [@pos, @pos+@bytes) from the media, finished at @t_end: the least
 * recently used segment takes it and the head prefetches past it. */
static void cache_fill(struct disk *dk, uint64_t pos, uint64_t bytes, double t_end)
{
	struct seg *v = &dk->segs[0];
	for (int i = 1; i < dk->cfg.cache_segments; i++)
		if (dk->segs[i].used < v->used)
			v = &dk->segs[i];
	v->start = pos;
	v->end = pos + bytes;
	v->limit = v->end + dk->cfg.cache_lookahead;
	v->t_end = t_end;
	v->stream = true;
	v->used = ++dk->stamp;
}

/* A write of [@pos, @pos+@bytes): the segments it overlaps are dropped. */
static void cache_write(struct disk *dk, uint64_t pos, uint64_t bytes)
{
	for (int i = 0; i < dk->cfg.cache_segments; i++) {
		struct seg *g = &dk->segs[i];
		if (g->used && pos < g->limit && pos + bytes > g->start)
			memset(g, 0, sizeof *g);
	}
}

/* Serve request @r from the drive's buffer when it is a prefetch hit (the driver
 * sleeps its service time).  Otherwise stop the prefetch and let the caller go
 * to the media.  Returns: true if served. */
static bool cache_serve(struct disk *dk, struct disk_req *r, double t0)
{
	double busy;
	if (!r->write && cache_read(dk, t0, r->pos, r->bytes, &busy)) {
		dk->wake = t0 + busy;
		if (busy > 0)
			sg_actor_sleep_for(busy);
		double t2 = simgrid_get_clock();
		account(dk, 0, r->pos, r->bytes, 0, 0, t2 - t0, t2 - t0);
		dk->st.cache_hits++;
		return true;
	}
	seg_stop(dk, t0);
	if (r->write)
		cache_write(dk, r->pos, r->bytes);
	return false;
}

/* A controller's destage of @bytes at @pos: a write in the drives' queue that
 * frees its cache space when it ends (not an asynchronous request of the kernel's:
 * disk_inflight_async does not count it).  Returns: 0, or -1 if out of memory. */
struct destage {
	struct ctl *ctl;
	uint64_t bytes;
};

static void destage_end(void *arg)
{
	struct destage *d = arg;
	ctl_destaged(d->ctl, d->bytes);
	free(d);
}

static int destage(struct disk *dk, uint64_t pos, uint64_t bytes)
{
	struct disk_req *r = calloc(1, sizeof *r);
	struct destage *d = malloc(sizeof *d);
	if (!r || !d) {
		free(r);
		free(d);
		ctl_destaged(dk->ctl, bytes);
		return -1;
	}
	*d = (struct destage){ dk->ctl, bytes };
	*r = (struct disk_req){ .write = 1, .pos = pos, .bytes = bytes, .end_io = destage_end, .arg = d };
	dk->inflight_async++;   /* the driver's count: it decrements it at the end */
	dk->ndestage++;
	enqueue(dk, r);
	return 0;
}

static void driver(int argc, char **argv)
{
	struct disk *dk = sg_actor_self_get_data();
	sg_actor_daemonize(sg_actor_self());   /* the simulation ends when the workload does */
	if (dk->w)
		tm_world_hook(dk->w, dk->slot);
	for (;;) {
		while (!dk->head) {
			dk->driver_idle = 1;
			dk->wake = INFINITY;
			sg_sem_acquire(dk->work);
		}
		struct disk_req *r = pick(dk);
		dk->cur = r;   /* in service (a run may end here: disk_destroy) */

		double t0 = simgrid_get_clock();
		if (dk->segs && cache_serve(dk, r, t0))
			goto done;
		double seek = disk_seek_time(&dk->cfg, dk->headpos, r->pos);
		double rot = disk_rot_delay_phase(&dk->cfg, t0 + seek, r->pos, dk->phase);
		if (seek + rot > 0) {
			dk->wake = t0 + seek + rot;
			sg_actor_sleep_for(seek + rot);
		}
		double t1 = simgrid_get_clock();
		/* the transfer: a sleep of bytes / media rate.  Not sg_disk_read():
		 * SimGrid rounds a running action's remaining work at every event, so
		 * the transfer's length would depend on how many events other actors
		 * make meanwhile (a reader working during an asynchronous read) */
		double xfer = (double)r->bytes / (r->write ? dk->cfg.write_bw : dk->cfg.read_bw);
		dk->wake = t1 + xfer;
		sg_actor_sleep_for(xfer);
		double t2 = simgrid_get_clock();
		account(dk, r->write, r->pos, r->bytes, seek, rot, t2 - t1, t2 - t0);
		if (dk->segs && !r->write)
			cache_fill(dk, r->pos, r->bytes, t2);
done:
		dk->cur = NULL;
		if (r->end_io) {
			/* asynchronous request: completion callback in the driver's context
			 * (it must not block), then the request is freed */
			dk->inflight_async--;
			if (r->end_io == destage_end)
				dk->ndestage--;
			r->end_io(r->arg);
			free(r);
			continue;
		}
		r->done = 1;
		if (r->wake)
			tm_woken(r->wake);
		sg_sem_release(r->sem);
	}
}

struct disk *disk_create(const struct disk_cfg *d, double phase, struct tm_world *w)
{
	struct disk *dk = calloc(1, sizeof *dk);
	if (!dk)
		return NULL;
	dk->cfg = *d;
	dk->phase = phase;
	if (d->cache) {
		dk->seg_bytes = d->cache / (uint64_t)d->cache_segments;
		dk->segs = calloc((size_t)d->cache_segments, sizeof *dk->segs);
		if (!dk->segs) {
			free(dk);
			return NULL;
		}
	}
	dk->sg = find_sg_disk(d->name);
	if (!dk->sg) {
		free(dk->segs);
		free(dk);
		return NULL;
	}
	if (d->ctl.cache > 0 && !(dk->ctl = ctl_create(&d->ctl, d->name, w))) {
		free(dk);
		return NULL;
	}
	dk->work = sg_sem_init(0);
	dk->wake = 0;
	dk->w = w;
	dk->slot = w ? tm_world_add(w, &dk->wake) : -1;
	char name[MM_PSTR + 8];
	snprintf(name, sizeof name, "disk-%s", d->name);
	sg_actor_t a = sg_actor_init(name, sg_host_by_name("io"));
	sg_actor_set_data(a, dk);
	sg_actor_start(a, driver, 0, NULL);
	return dk;
}

void disk_destroy(struct disk *dk)
{
	if (!dk)
		return;
	/* after the run, no actor left: the driver and the requesters are gone.
	 * Free the asynchronous requests the run ended before (their arg is the
	 * caller's malloc()ed completion record).  Every queued request is a heap
	 * record unless a requester ran out of host memory for one: then its
	 * request was on its stack, freed with the actor, and the queue cannot be
	 * walked (the asynchronous ones are left: a host out of memory anyway). */
	if (dk->onstack == 0) {
		if (dk->cur && dk->cur->end_io) {
			free(dk->cur->arg);
			free(dk->cur);
		}
		for (struct disk_req *r = dk->head, *next; r; r = next) {
			next = r->next;
			if (r->end_io) {
				free(r->arg);
				free(r);
			}
		}
	}
	ctl_destroy(dk->ctl);
	sg_sem_destroy(dk->work);
	for (int i = 0; i < dk->nreqs; i++) {
		sg_sem_destroy(dk->reqs[i]->sem);
		free(dk->reqs[i]);
	}
	free(dk->reqs);
	free(dk->segs);
	free(dk);
}

/* A record for a synchronous request, with its semaphore: an idle one of the
 * disk's, else a new one that the disk keeps.
 * Returns: the record, or NULL when the host has no memory left for one. */
static struct disk_req *req_get(struct disk *dk)
{
	struct disk_req *r = dk->freereqs;
	if (r) {
		dk->freereqs = r->next;
		return r;
	}
	if (dk->nreqs == dk->capreqs) {
		int cap = dk->capreqs ? 2 * dk->capreqs : 8;
		struct disk_req **v = realloc(dk->reqs, (size_t)cap * sizeof *v);
		if (!v)
			return NULL;
		dk->reqs = v;
		dk->capreqs = cap;
	}
	if (!(r = calloc(1, sizeof *r)))
		return NULL;
	r->sem = sg_sem_init(0);
	dk->reqs[dk->nreqs++] = r;
	return r;
}

double disk_io(struct disk *dk, struct tm *t, int write, uint64_t pos, uint64_t bytes)
{
	pos %= dk->cfg.size;
	if (dk->ctl && write) {
		double w = ctl_write_sync(dk->ctl, t, bytes);
		if (w >= 0) {
			destage(dk, pos, bytes);
			return w;
		}
	}
	/* with a drive cache every request goes through the driver (its buffer
	 * state is the driver's) */
	if (t && dk->driver_idle && !dk->head && !dk->segs) {
		/* An idle disk and a requester that looks ahead: if no other actor can
		 * act before the request would complete, nobody can queue behind it or
		 * see the disk busy, so the driver's hand-offs and the SimGrid transfer
		 * could not change anything.  Serve it here: the wait joins the
		 * requester's own time, slept with its cycles at its next payment. */
		double start = tm_now(t);
		double seek = disk_seek_time(&dk->cfg, dk->headpos, pos);
		double rot = disk_rot_delay_phase(&dk->cfg, start + seek, pos, dk->phase);
		double xfer = (double)bytes / (write ? dk->cfg.write_bw : dk->cfg.read_bw);
		double end = start + seek + rot + xfer;
		if (end < tm_horizon(t)) {
			account(dk, write, pos, bytes, seek, rot, xfer, end - start);
			dk->st.direct++;
			tm_defer_wait(t, end - start);
			return end - start;
		}
	}
	if (t)
		tm_sync(t);
	double *wake = t ? &t->wake : NULL;
	double t0 = simgrid_get_clock();
	struct disk_req own, *r = req_get(dk);
	bool pooled = r != NULL;
	if (!pooled) {
		r = &own;   /* see disk_destroy() */
		own.sem = sg_sem_init(0);
		dk->onstack++;
	}
	sg_sem_t sem = r->sem;
	*r = (struct disk_req){ .write = write, .pos = pos, .bytes = bytes, .wake = wake, .sem = sem };
	if (wake)
		*wake = INFINITY;   /* until the driver completes the request */
	enqueue(dk, r);
	while (!r->done)
		sg_sem_acquire(r->sem);
	if (pooled) {
		r->next = dk->freereqs;   /* released once, acquired once: count 0 */
		dk->freereqs = r;
	} else {
		sg_sem_destroy(own.sem);
		dk->onstack--;
	}
	return simgrid_get_clock() - t0;
}

int disk_submit(struct disk *dk, struct tm *t, int write, uint64_t pos, uint64_t bytes,
		void (*end_io)(void *arg), void *arg)
{
	if (dk->ctl && write && ctl_write_async(dk->ctl, t, bytes, end_io, arg) == 0) {
		/* acknowledged by the cache; out of memory for the destage: the space
		 * is freed at once, as if written */
		destage(dk, pos % dk->cfg.size, bytes);
		return 0;
	}
	struct disk_req *r = calloc(1, sizeof *r);
	if (!r)
		return -1;
	r->write = write;
	r->pos = pos % dk->cfg.size;
	r->bytes = bytes;
	r->end_io = end_io;
	r->arg = arg;
	dk->inflight_async++;
	if (t && dk->driver_idle)
		tm_sync(t);   /* the request wakes the driver: it starts at the caller's time */
	enqueue(dk, r);
	return 0;
}

unsigned disk_inflight_async(const struct disk *dk)
{
	return dk->inflight_async - dk->ndestage;
}

struct ctl *disk_ctl(const struct disk *dk)
{
	return dk->ctl;
}

const struct disk_stats *disk_get_stats(const struct disk *dk)
{
	return &dk->st;
}
