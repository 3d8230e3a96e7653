/*
 * disk.h - a rotating disk: seek by distance, rotational position, transfer.
 *
 * Service time of one request = seek(distance) + rotational delay + transfer.
 *   seek(d) = 0 for d = 0, else t2t + (full - t2t) * sqrt(d / capacity), where
 *     full = t2t + 1.5 (seek_avg - t2t) makes the mean over uniformly random
 *     distances equal the data sheet's average seek (E[sqrt(U)] = 2/3).
 *   rotational delay: the platter turns at rpm; the angle under the head is a
 *     function of simulated time, the target sector's angle a function of its
 *     block number, so the delay is deterministic and a sequential stream that
 *     asks for the next block at once pays almost none.
 *   transfer: sg_disk_read/sg_disk_write of the request size on the SimGrid disk,
 *     whose bandwidth is the media rate.
 * Requests are served one at a time in queue order: "fifo" (arrival) or
 * "elevator" (one-way C-SCAN: the lowest block at or beyond the head, wrapping).
 *
 * The drive's read cache (cache > 0; 0, the default, is the model above alone):
 * the buffer is split into cache_segments segments of cache / cache_segments
 * bytes.  After a read from the media the head keeps reading the following
 * sectors into the read's segment (prefetch, SCSI read look-ahead) at the media
 * rate, up to cache_lookahead bytes past the last one asked for, until the drive
 * serves a request elsewhere.  A read whose first sector is in a segment, or is
 * the next sector the running prefetch will read, is a prefetch hit: no seek, no
 * rotational delay; its data go to the host at the interface rate, waiting for
 * the prefetch where it has not got that far yet, and the prefetch limit moves
 * to cache_lookahead past it.  A miss takes the least recently used segment.  A
 * write drops the segments it overlaps (write caching is not modelled here).
 * A disk with a write-back controller ("controller": {"cache": ...}, models/hw/raid.h)
 * completes writes that fit in the cache when they have crossed the bus, and
 * writes them to the drives (this model) in the background.
 */
#ifndef MMEMU_DISK_H
#define MMEMU_DISK_H

#include <stdint.h>

#include <jansson.h>

#include "emu/core/params.h"
#include "models/hw/raid.h"

enum disk_queue { DISK_FIFO, DISK_ELEVATOR };

struct disk_cfg {
	char name[MM_PSTR];
	uint64_t size;        /* bytes */
	double read_bw;       /* bytes/s media rate */
	double write_bw;
	double seek_avg;      /* s, data-sheet average */
	double track_to_track;/* s */
	int64_t rpm;
	int queue;            /* enum disk_queue */
	/* the drive's read cache (appended; cache 0: none) */
	uint64_t cache;       /* bytes of buffer */
	int64_t cache_segments;
	uint64_t cache_lookahead;   /* bytes read ahead past a read */
	double interface_bw;  /* bytes/s from the buffer to the host */
	struct ctl_cfg ctl;   /* its controller ("controller": models/hw/raid.h); cache 0: none */
};

extern const struct mm_param disk_params[];

/** disk_load() - Returns: 0, or -1 with @e naming the path. */
int disk_load(struct disk_cfg *d, json_t *obj, const char *file, const char *path,
	      struct mm_err *e);

/**
 * disk_seek_time() - Returns: seconds to move the head from byte offset @from to @to.
 */
double disk_seek_time(const struct disk_cfg *d, uint64_t from, uint64_t to);

/**
 * disk_rot_delay() - Returns: seconds until the sector at byte offset @pos passes under
 * the head, when the head arrives on its track at simulated time @t.
 */
double disk_rot_delay(const struct disk_cfg *d, double t, uint64_t pos);

/**
 * disk_rot_delay_phase() - as disk_rot_delay() for a platter whose angle at time 0
 * is @phase turns (0 <= phase < 1).
 * Returns: seconds until the sector at @pos passes under the head.
 */
double disk_rot_delay_phase(const struct disk_cfg *d, double t, uint64_t pos, double phase);

struct tm;
struct tm_world;
struct disk;   /* a running disk: SimGrid disk + queue + head position */

/**
 * disk_create() - a running disk bound to the SimGrid disk called d->name.
 * @phase: the platter's angle at time 0, in turns [0, 1): where the disk happens to
 *         be when the run starts, a source of run-to-run variance (the caller
 *         derives it from the run's random stream)
 * @w:     the simulation's lookahead world: the driver publishes when it can next
 *         act (end of the positioning or transfer in progress; +inf while idle)
 * Returns: the disk, or NULL.
 */
struct disk *disk_create(const struct disk_cfg *d, double phase, struct tm_world *w);

/**
 * disk_destroy() - free @dk and its SimGrid semaphores (NULL is fine), and the
 * asynchronous requests a run ended before, with their @arg (disk_submit()'s
 * callers pass a malloc()ed record).  Call it after the simulation, when no actor
 * is left (the driver and every requester ended: SimGrid aborts on destroying a
 * semaphore that an actor waits on).
 * Returns: nothing.
 */
void disk_destroy(struct disk *dk);

/**
 * disk_io() - read or write @bytes at byte offset @pos, blocking the calling actor
 * while the request waits in the queue and is served.
 * @t: the caller's time account, or NULL.  Its pending cycles are paid first (the
 *     request starts at the caller's time); its wake slot is +inf while it waits,
 *     and the driver sets it to now when it completes the request.  When the disk
 *     is idle and lookahead shows that no other actor can act before the request
 *     would complete, the request is served without the driver: one sleep to its
 *     end, the same times (counted in disk_stats.direct).
 * Returns: the simulated seconds the caller waited, from its own time.
 */
double disk_io(struct disk *dk, struct tm *t, int write, uint64_t pos, uint64_t bytes);

/**
 * disk_submit() - queue an asynchronous request (writeback, readahead): the caller
 * goes on; when the transfer completes, @end_io(@arg) runs in the disk driver's
 * context and must not block.  @arg must be a malloc()ed block with no other
 * owner until then: disk_destroy() frees it if the run ends first.  If the request wakes the idle driver, the caller's pending
 * cycles (@t, or NULL) are paid first, so the request starts at its time.
 * Returns: 0, or -1 if out of memory.
 */
int disk_submit(struct disk *dk, struct tm *t, int write, uint64_t pos, uint64_t bytes,
		void (*end_io)(void *arg), void *arg);

/** disk_inflight_async() - Returns: asynchronous requests queued or in service. */
unsigned disk_inflight_async(const struct disk *dk);

struct disk_stats {
	uint64_t reads, writes, bytes_read, bytes_written;
	uint64_t direct;                /* requests served without the driver (disk_io) */
	double busy, seek, rot, xfer;   /* seconds */
	uint64_t cache_hits;            /* reads served from the drive's buffer */
};

/** disk_get_stats() - Returns: a pointer to the disk's counters. */
const struct disk_stats *disk_get_stats(const struct disk *dk);

/** disk_ctl() - Returns: the disk's write-back controller, or NULL. */
struct ctl *disk_ctl(const struct disk *dk);

#endif
