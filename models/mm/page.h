/*
 * page.h - the per-page record (struct page) and the intrusive pfn-indexed list.
 *
 * One struct page per simulated page frame, in one flat array owned by struct
 * mm_phys (no per-page malloc).  The record is 32 bytes so that 1 GiB of 4 KiB
 * pages costs 8 MiB of host memory.  Links are pfn indices, not pointers: the same
 * two links (lru_prev/lru_next) serve the buddy free lists, the per-CPU hot/cold
 * lists, and the LRU / CLOCK lists of the reclaim modules, because a page is on at
 * most one list at a time (as with page->lru in Linux 2.6).
 *
 * Which list a page is on is told by its flags: PG_buddy (head of a free buddy
 * block), PG_pcp (on a per-CPU hot/cold list), PG_lru (on a reclaim list).  The
 * owner of a list sets and clears the flag; mm_check() verifies the invariants.
 */
#ifndef MMEMU_PAGE_H
#define MMEMU_PAGE_H

#include <assert.h>
#include <stdbool.h>
#include <stdint.h>

#define PFN_NONE UINT32_MAX

/* Page flag bits (bit numbers in page->flags).  Keep NR_PG_FLAGS <= 32. */
enum pg_flag {
	PG_locked,      /* I/O in progress on the page */
	PG_referenced,  /* referenced since last scan (mark_page_accessed) */
	PG_dirty,
	PG_lru,         /* on a reclaim list (lru_prev/lru_next in use) */
	PG_active,      /* on the active list (2-list LRU) */
	PG_writeback,
	PG_reserved,    /* never allocatable: kernel image, mem_map, bootmem */
	PG_buddy,       /* free, head of a buddy block of 2^order pages */
	PG_pcp,         /* free, on a per-CPU hot/cold list */
	PG_slab,        /* allocated to the slab allocator */
	PG_anon,        /* anonymous page (mapping is an anon object id) */
	PG_swapcache,
	PG_reclaim,     /* to be reclaimed when writeback completes */
	PG_hot,         /* CLOCK-Pro: hot page */
	PG_test,        /* CLOCK-Pro: cold page in its test period */
	PG_highmem,     /* lives in a highmem zone (needs kmap on i386) */
	PG_mappedtodisk,
	PG_uptodate,
	PG_journal,     /* a buffer of the page is held by ext3's journal (BH_JBD; jbd.c) */
	NR_PG_FLAGS
};
static_assert(NR_PG_FLAGS <= 32, "page flags must fit in 32 bits");

/* Allocation types for anti-fragmentation (kernel-mechanisms.md 4.1). */
enum mm_alloc_type {
	MM_RCLM_NORCLM, /* kernel, not reclaimable (default) */
	MM_RCLM_KERN,   /* kernel, reclaimable on demand (__GFP_KERNRCLM) */
	MM_RCLM_EASY,   /* user / easily reclaimable (__GFP_EASYRCLM) */
	MM_NR_RCLM
};

struct page {
	uint32_t flags;      /* bit set of enum pg_flag */
	uint32_t lru_prev;   /* list links by pfn (PFN_NONE at the ends) */
	uint32_t lru_next;
	uint32_t mapping;    /* file / anon-object id, 0 = none */
	uint32_t index;      /* page offset in the mapping */
	int32_t count;       /* reference count (0 = free) */
	int16_t mapcount;    /* number of page-table mappings (rmap); -1 style not used */
	uint8_t order;       /* order of the block this page heads (free or allocated) */
	uint8_t zone;        /* zone index (enum mm_zone_idx) */
	/* alloc_type and a small owner-defined list id share one byte: */
	uint8_t alloc_type;  /* enum mm_alloc_type of the allocation */
	uint8_t list_id;     /* owner-defined: which list of the owner (hot/cold, active..) */
	uint16_t aux;        /* owner-defined (e.g. CLOCK-Pro test-period age) */
};
static_assert(sizeof(struct page) <= 32, "struct page must stay <= 32 bytes");

static inline bool page_test(const struct page *p, enum pg_flag f)
{
	return (p->flags >> f) & 1u;
}
static inline void page_set(struct page *p, enum pg_flag f)
{
	p->flags |= 1u << f;
}
static inline void page_clear(struct page *p, enum pg_flag f)
{
	p->flags &= ~(1u << f);
}
/* Returns: the old value of flag @f, which is now set. */
static inline bool page_test_set(struct page *p, enum pg_flag f)
{
	bool old = page_test(p, f);
	page_set(p, f);
	return old;
}
/* Returns: the old value of flag @f, which is now clear. */
static inline bool page_test_clear(struct page *p, enum pg_flag f)
{
	bool old = page_test(p, f);
	page_clear(p, f);
	return old;
}

/*
 * struct plist - intrusive doubly-linked list of pages over a page array.
 * All operations are O(1) and take the page array base; the list holds pfns.
 * "head" is where LIFO lists add and take (list_add / list->next in Linux);
 * "tail" is list->prev.
 */
struct plist {
	uint32_t head, tail, nr;
};

static inline void plist_init(struct plist *l)
{
	l->head = l->tail = PFN_NONE;
	l->nr = 0;
}

static inline bool plist_empty(const struct plist *l)
{
	return l->head == PFN_NONE;
}

static inline void plist_add_head(struct page *pages, struct plist *l, uint32_t pfn)
{
	struct page *p = &pages[pfn];
	p->lru_prev = PFN_NONE;
	p->lru_next = l->head;
	if (l->head != PFN_NONE)
		pages[l->head].lru_prev = pfn;
	else
		l->tail = pfn;
	l->head = pfn;
	l->nr++;
}

static inline void plist_add_tail(struct page *pages, struct plist *l, uint32_t pfn)
{
	struct page *p = &pages[pfn];
	p->lru_next = PFN_NONE;
	p->lru_prev = l->tail;
	if (l->tail != PFN_NONE)
		pages[l->tail].lru_next = pfn;
	else
		l->head = pfn;
	l->tail = pfn;
	l->nr++;
}

/* plist_del() - unlink @pfn, which must be on @l. */
static inline void plist_del(struct page *pages, struct plist *l, uint32_t pfn)
{
	struct page *p = &pages[pfn];
	if (p->lru_prev != PFN_NONE)
		pages[p->lru_prev].lru_next = p->lru_next;
	else
		l->head = p->lru_next;
	if (p->lru_next != PFN_NONE)
		pages[p->lru_next].lru_prev = p->lru_prev;
	else
		l->tail = p->lru_prev;
	p->lru_prev = p->lru_next = PFN_NONE;
	l->nr--;
}

/* Returns: the pfn taken from the head, or PFN_NONE if @l is empty. */
static inline uint32_t plist_pop_head(struct page *pages, struct plist *l)
{
	uint32_t pfn = l->head;
	if (pfn != PFN_NONE)
		plist_del(pages, l, pfn);
	return pfn;
}

/* Returns: the pfn taken from the tail, or PFN_NONE if @l is empty. */
static inline uint32_t plist_pop_tail(struct page *pages, struct plist *l)
{
	uint32_t pfn = l->tail;
	if (pfn != PFN_NONE)
		plist_del(pages, l, pfn);
	return pfn;
}

/* plist_move_head() - move @pfn (on @from) to the head of @to. */
static inline void plist_move_head(struct page *pages, struct plist *from, struct plist *to,
				   uint32_t pfn)
{
	plist_del(pages, from, pfn);
	plist_add_head(pages, to, pfn);
}

#endif
