/*
 * hostmem.c - big zeroed arrays on the host's transparent huge pages.
 *
 * The page array of a 1 TiB machine is 8 GiB of host memory, written once at
 * start-up and then read at random (a struct page per page-cache lookup).  With
 * 4 KiB host pages that is two million first-touch faults and a TLB miss on
 * most struct page reads; the host's transparent huge pages make both 512 times
 * rarer.  Hosts set THP to "madvise" by default, hence the advice.
 *
 * The block comes from calloc, so free() releases it, sanitizers still see it,
 * and glibc serves a block this big with a fresh mmap that calloc does not
 * write to: the advice is given before any page of it is touched.  Only the
 * 2 MiB-aligned interior is advised (madvise wants page-aligned ranges, and a
 * huge page must be aligned); a block smaller than 2 MiB is left as it is.
 *
 * Zeroed memory that is never written is not free on every host: on this one
 * (Linux 6.18 in a VM) a read of an untouched anonymous page allocates and
 * clears a page, huge or not, instead of mapping the zero page.  A table that
 * is read at random from the start (a hash table's bucket headers) is therefore
 * touched once at start-up with mm_prefault(), not page by page during the run.
 */
#include "emu/core/hostmem.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#define HUGE_BYTES ((uintptr_t)2 << 20)   /* x86-64 PMD page */

void *mm_calloc_huge(size_t n, size_t size)
{
	void *p = calloc(n, size);
#ifdef MADV_HUGEPAGE
	if (p && n && size) {
		uintptr_t lo = ((uintptr_t)p + HUGE_BYTES - 1) & ~(HUGE_BYTES - 1);
		uintptr_t hi = ((uintptr_t)p + n * size) & ~(HUGE_BYTES - 1);
		if (hi > lo)
			(void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);   /* a hint */
	}
#endif
	return p;
}

void mm_prefault(void *p, size_t len)
{
	volatile char *c = p;
	for (size_t off = 0; off < len; off += 4096)
		c[off] = 0;
}
