/*
 * hostmem.h - host memory for arrays sized by the simulated machine's memory.
 */
#ifndef MMEMU_HOSTMEM_H
#define MMEMU_HOSTMEM_H

#include <stddef.h>

/**
 * mm_calloc_huge() - calloc(@n, @size), with the 2 MiB-aligned part of the block
 * advised to the host kernel as transparent huge pages (madvise MADV_HUGEPAGE).
 * For big arrays that are touched all over (the page array): one host page fault
 * per 2 MiB instead of per 4 KiB when they are first written, and one TLB entry
 * per 2 MiB when they are read at random.  The advice is only a hint (ignored
 * where the host has no huge pages); free the block with free().
 * Returns: the zeroed block, or NULL when out of memory or @n * @size overflows.
 */
void *mm_calloc_huge(size_t n, size_t size);

/**
 * mm_prefault() - have the host back [@p, @p + @len) now rather than at first use:
 * a zero byte is written to every 4 KiB page of it, so the block must be zeroed
 * memory (from mm_calloc_huge or calloc).  For tables a kernel zeroes at boot and
 * then reads at random: the first-touch cost goes to start-up, as in the kernel.
 * Returns: nothing.
 */
void mm_prefault(void *p, size_t len);

#endif
