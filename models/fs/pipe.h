/*
 * pipe.h - a 2.6.10 pipe between two tasks (fs/pipe.c): one page of buffer, a
 * writer that sleeps while a write does not fit, a reader that sleeps while the
 * pipe is empty and its writer open; each side wakes the other.
 */
#ifndef MMEMU_MM_PIPE_H
#define MMEMU_MM_PIPE_H

#include <stdbool.h>
#include <stdint.h>

#include <simgrid/semaphore.h>

struct mm_task;

struct mm_task;

struct mm_pipe {
	uint32_t size;          /* capacity, bytes: PIPE_SIZE = PAGE_SIZE in 2.6.10 */
	uint32_t len;           /* bytes in the pipe */
	uint32_t start;         /* offset of the first byte in the buffer (it wraps) */
	const uint32_t *pfns;   /* the buffer's frames, one per page of it in order
				 * (pipe_new's __get_free_page: one), set by the caller;
				 * NULL (mm_pipe_init): copies cost the flat copy rate */
	bool closed;            /* the writer closed its end */
	bool rwait, wwait;      /* the reader / writer sleeps on the pipe */
	bool up;                /* initialised (mm_pipe_init) */
	sg_sem_t rsem, wsem;    /* where they sleep */
	struct mm_task *rtask, *wtask;   /* who sleeps there (sync wake-up hint) */
	/* counters */
	uint64_t reader_sleeps, writer_sleeps;   /* sleeps on an empty / a full pipe */
	uint64_t wakeups;       /* sleepers woken by the other side */
	uint64_t writes, reads; /* system calls */
};

/** mm_pipe_init() - an empty, open pipe of @size bytes. Returns: nothing. */
void mm_pipe_init(struct mm_pipe *p, uint32_t size);

/** mm_pipe_destroy() - free @p's semaphores (nobody sleeps on it). Returns: nothing. */
void mm_pipe_destroy(struct mm_pipe *p);

/**
 * mm_pipe_write() - @t writes @bytes in write(2) calls of at most @chunk bytes
 * (its stdio buffer).  A call of at most PIPE_BUF (= @p->size) bytes is atomic:
 * it sleeps until the whole call fits.  Each call pays a system call and the copy.
 * Returns: nothing.
 */
void mm_pipe_write(struct mm_task *t, struct mm_pipe *p, uint64_t bytes, uint32_t chunk);

/**
 * mm_pipe_read() - one read(2) of up to @max bytes by @t: sleeps while the pipe is
 * empty and the writer open, then takes what is there and wakes a sleeping writer.
 * Returns: bytes read; 0 at end of file (empty and closed).
 */
uint32_t mm_pipe_read(struct mm_task *t, struct mm_pipe *p, uint32_t max);

/** mm_pipe_close() - the writer closes its end: a sleeping reader wakes (EOF). */
void mm_pipe_close(struct mm_task *t, struct mm_pipe *p);

#endif
