/*
 * pipe.c - a pipe as 2.6.10's fs/pipe.c has it: one page of buffer (PIPE_SIZE =
 * PAGE_SIZE, include/linux/pipe_fs_i.h; 2.6.11 replaced it with 16 buffers),
 * pipe_write() sleeping in pipe_wait() until a write of at most PIPE_BUF bytes
 * fits whole, pipe_read() sleeping while the pipe is empty and a writer exists,
 * and each side waking the other (wake_up_interruptible_sync) after it moved
 * data.  A sleep gives the CPU up (mm_block: a voluntary switch of a scheduled
 * task) and the woken task waits for a CPU by the scheduler's wake-up rules
 * (mm_unblock).  Costs: a system call per read(2) / write(2) and the copy of the
 * bytes between the user buffer (t->ubuf) and the pipe's page, by mm_copy_user():
 * the kernel's cache model when it has one and the pipe has a page, else the
 * machine's copy bandwidth.  The data wrap around the page as pipe_read() /
 * pipe_write() do (PIPE_START, PIPE_END).  Pipes live between two tasks of one
 * simulation; SimGrid runs one actor at a time, so no lock is needed.
 */
#include "models/fs/pipe.h"

#include <math.h>

#include "models/mm/kernel.h"
#include "models/sched/sched.h"

void mm_pipe_init(struct mm_pipe *p, uint32_t size)
{
	*p = (struct mm_pipe){ .size = size, .up = true };
	p->rsem = sg_sem_init(0);
	p->wsem = sg_sem_init(0);
}

void mm_pipe_destroy(struct mm_pipe *p)
{
	if (!p->up)
		return;
	sg_sem_destroy(p->rsem);
	sg_sem_destroy(p->wsem);
	p->rsem = p->wsem = NULL;
	p->up = false;
}

/* @t sleeps on @sem until the other side wakes it; a looking-ahead task cannot
 * act before then (its wake slot is +inf until the waker sets it to now). */
static void pipe_sleep(struct mm_task *t, sg_sem_t sem)
{
	mm_block(t);
	if (t->tm.pay_wake)
		t->tm.wake = INFINITY;
	sg_sem_acquire(sem);
	mm_unblock(t);
}

/* @t wakes the sleeper @sleeper of one side, if any (wake_up_interruptible_sync:
 * a sync wake-up from @t's CPU). */
static void pipe_wake(struct mm_pipe *p, struct mm_task *t, bool *waiting, sg_sem_t sem,
		      struct mm_task *sleeper)
{
	if (*waiting) {
		*waiting = false;
		p->wakeups++;
		tm_sync(&t->tm);   /* the sleeper starts at the waker's own time */
		if (sleeper && sleeper->st)
			sched_wake_sync(sleeper->st, t->cpu);
		if (sleeper)
			tm_woken(&sleeper->tm.wake);
		sg_sem_release(sem);
	}
}

/* One system call moving @n bytes from offset @off of the pipe's buffer (to user
 * space when @to_user): one copy per page of the buffer it crosses, wrapping at
 * the buffer's end. */
static void pipe_call(struct mm_task *t, struct mm_pipe *p, uint32_t off, uint32_t n, bool to_user)
{
	struct mm_kernel *k = t->k;
	if (!p->pfns || p->size == 0) {
		mm_charge(t, k->costs->syscall + (double)n * k->copy_cycles_per_byte);
		return;
	}
	const uint32_t ps = (uint32_t)k->phys.page_size;
	double c = k->costs->syscall;
	while (n) {
		off %= p->size;
		uint32_t in = off % ps, piece = n;
		if (p->size - off < piece)
			piece = p->size - off;
		if (ps - in < piece)
			piece = ps - in;
		c += mm_copy_user(k, t, p->pfns[off / ps], in, piece, to_user);
		off += piece;
		n -= piece;
	}
	mm_charge(t, c);
}

void mm_pipe_write(struct mm_task *t, struct mm_pipe *p, uint64_t bytes, uint32_t chunk)
{
	if (chunk == 0 || chunk > p->size)
		chunk = p->size;
	while (bytes > 0) {
		uint32_t n = bytes < chunk ? (uint32_t)bytes : chunk;
		while (p->size - p->len < n) {   /* atomic (n <= PIPE_BUF): all or sleep */
			p->wwait = true;
			p->wtask = t;
			p->writer_sleeps++;
			pipe_sleep(t, p->wsem);
		}
		pipe_call(t, p, p->start + p->len, n, false);
		p->writes++;
		p->len += n;
		bytes -= n;
		pipe_wake(p, t, &p->rwait, p->rsem, p->rtask);
	}
}

uint32_t mm_pipe_read(struct mm_task *t, struct mm_pipe *p, uint32_t max)
{
	while (p->len == 0 && !p->closed) {
		p->rwait = true;
		p->rtask = t;
		p->reader_sleeps++;
		pipe_sleep(t, p->rsem);
	}
	uint32_t n = p->len < max ? p->len : max;
	pipe_call(t, p, p->start, n, true);
	p->reads++;
	p->len -= n;
	p->start = p->size ? (p->start + n) % p->size : 0;
	if (n)
		pipe_wake(p, t, &p->wwait, p->wsem, p->wtask);
	return n;
}

void mm_pipe_close(struct mm_task *t, struct mm_pipe *p)
{
	mm_charge(t, t->k->costs->syscall);
	p->closed = true;
	pipe_wake(p, t, &p->rwait, p->rsem, p->rtask);
}
