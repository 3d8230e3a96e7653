/*
 * raid.h - a RAID controller's write-back cache in front of a disk (its array).
 *
 * A disk of machine.disks may name a "controller": the host adapter whose cache
 * takes writes.  A write that fits in the cache's free space completes when its
 * data has crossed the controller's bus (one command overhead + bytes / bus rate,
 * the bus serving one transfer at a time); the controller then destages it to the
 * drives (a write request in the disk's own queue, models/hw/disk.c) and frees the
 * space when that write ends.  A write that does not fit waits for the drives
 * (write-through).  Reads go to the drives (the controller's read cache is not
 * modelled).  cache = 0 is a controller without write-back (the default of a
 * cache without battery on many adapters): every request goes to the drives.
 */
#ifndef MMEMU_RAID_H
#define MMEMU_RAID_H

#include <stdint.h>

#include <jansson.h>

#include "emu/core/params.h"

struct ctl_cfg {
	uint64_t cache;       /* bytes of write-back cache; 0: none */
	double bus_bw;        /* bytes/s host to controller */
	double overhead;      /* s per command */
};

extern const struct mm_param ctl_params[];

/** ctl_load() - fill @c from a disk's "controller" object. Returns: 0, or -1 with @e set. */
int ctl_load(struct ctl_cfg *c, json_t *obj, const char *file, const char *path,
	     struct mm_err *e);

struct tm;
struct tm_world;
struct ctl;   /* a running controller */

struct ctl_stats {
	uint64_t cached_writes;       /* writes taken by the cache */
	uint64_t through_writes;      /* writes that found it full and went to the drives */
	uint64_t max_dirty;           /* most bytes waiting for destage at one time */
	double bus_busy;              /* seconds */
};

/**
 * ctl_create() - a running controller for the disk called @name (its acknowledging
 * actor is a daemon on the "io" host).
 * Returns: the controller, or NULL (out of memory).
 */
struct ctl *ctl_create(const struct ctl_cfg *c, const char *name, struct tm_world *w);

/** ctl_destroy() - free @c after the simulation (NULL is fine). Returns: nothing. */
void ctl_destroy(struct ctl *c);

/**
 * ctl_write_sync() - a synchronous write of @bytes: if the cache has room, reserve
 * it and wait (the caller's time @t, or NULL) until its data has crossed the bus.
 * Returns: the seconds waited, or -1 if the cache is full (the caller writes
 * through to the drives).
 */
double ctl_write_sync(struct ctl *c, struct tm *t, uint64_t bytes);

/**
 * ctl_write_async() - an asynchronous write of @bytes: if the cache has room,
 * reserve it and call @end_io(@arg) from the controller's actor when the data has
 * crossed the bus.
 * Returns: 0, or -1 if the cache is full or out of memory (nothing was done).
 */
int ctl_write_async(struct ctl *c, struct tm *t, uint64_t bytes, void (*end_io)(void *arg),
		    void *arg);

/** ctl_destaged() - a destage of @bytes reached the drives: free its space. Returns: nothing. */
void ctl_destaged(struct ctl *c, uint64_t bytes);

/** ctl_get_stats() - Returns: the controller's counters. */
const struct ctl_stats *ctl_get_stats(const struct ctl *c);

#endif
