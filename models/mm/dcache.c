/*
 * dcache.c - dentries and inodes with 2.6.16's unused lists and shrinkers
 * (fs/dcache.c: dput, prune_dcache, shrink_dcache_memory; fs/inode.c: iput_final,
 * prune_icache, shrink_icache_memory; kernel-mechanisms.md 4.1, 4.3a).
 *
 * A cached file has a dentry and an inode, objects of the "dentry_cache" and
 * "ext3_inode_cache" slab caches (kobj.c, __GFP_KERNRCLM).  An unused dentry (no
 * reference: every file here between lookups) sits on dentry_unused: added at
 * the head by its first dput with DCACHE_REFERENCED, and a lookup sets
 * DCACHE_REFERENCED again without moving it.  prune_dcache(nr) takes nr
 * dentries from the tail: a referenced one loses the flag and goes back to the
 * head, an unreferenced one is freed and its inode (iput_final of a linked
 * inode, the super block active) goes to the head of inode_unused.
 * prune_icache(nr) frees inodes from the tail of inode_unused.  The shrinkers
 * report (nr_unused / 100) * vfs_cache_pressure (100) objects and are called by
 * shrink_slab (vmscan.c) under memory pressure.  A lookup of a file whose dentry
 * was pruned allocates it again (and its inode, if that was pruned too).
 * Slab pages are freed only when their last object goes (kobj.c): pruning in
 * LRU order leaves most pages partly used.
 * Not modelled: directories (the parent of a cached dentry is pinned),
 * prune_icache's invalidation of a pruned inode's clean page cache, dirty inodes
 * (I_DIRTY keeps an inode on the list), the __GFP_FS test (every reclaimer here
 * may enter the file system).
 * Costs: one page_op per object allocated or freed (kobj.c), one atomic per
 * dentry or inode looked at by a prune (the dcache_lock / inode_lock walk).
 */
#include "models/mm/dcache.h"

#include <stdlib.h>
#include <string.h>

#include "models/mm/vmscan.h"

enum { D_FREE, D_CACHED, D_INODE, D_GONE, D_BUSY };

static void list_add_head(struct mm_dcache *d, struct mm_dlist *l, uint32_t id)
{
	struct mm_dent *e = &d->e[id];
	e->prev = MM_DENT_NONE;
	e->next = l->head;
	if (l->head != MM_DENT_NONE)
		d->e[l->head].prev = id;
	else
		l->tail = id;
	l->head = id;
	l->n++;
}

static void list_del(struct mm_dcache *d, struct mm_dlist *l, uint32_t id)
{
	struct mm_dent *e = &d->e[id];
	if (e->prev != MM_DENT_NONE)
		d->e[e->prev].next = e->next;
	else
		l->head = e->next;
	if (e->next != MM_DENT_NONE)
		d->e[e->next].prev = e->prev;
	else
		l->tail = e->prev;
	e->prev = e->next = MM_DENT_NONE;
	l->n--;
}

/* prune_dcache(@nr).  Returns: nothing. */
static void prune_dcache(struct mm_kernel *k, struct mm_task *t, struct mm_dcache *d, long nr)
{
	for (; nr > 0 && d->dunused.n; nr--) {
		mm_charge(t, k->costs->atomic);   /* may pay: read the list after */
		if (!d->dunused.n)
			break;
		uint32_t id = d->dunused.tail;
		struct mm_dent *e = &d->e[id];
		list_del(d, &d->dunused, id);
		if (e->referenced) {
			e->referenced = false;
			list_add_head(d, &d->dunused, id);
			continue;
		}
		uint32_t dent = e->dent;
		e->dent = PFN_NONE;
		e->state = D_INODE;
		list_add_head(d, &d->iunused, id);
		d->pruned_dentries++;
		mm_kobj_free(k, t, &d->dentry, dent);   /* may sleep: the entry is consistent */
	}
}

/* prune_icache(@nr).  Returns: nothing. */
static void prune_icache(struct mm_kernel *k, struct mm_task *t, struct mm_dcache *d, long nr)
{
	for (; nr > 0 && d->iunused.n; nr--) {
		mm_charge(t, k->costs->atomic);
		if (!d->iunused.n)
			break;
		uint32_t id = d->iunused.tail;
		struct mm_dent *e = &d->e[id];
		list_del(d, &d->iunused, id);
		uint32_t ino = e->ino;
		e->ino = PFN_NONE;
		e->state = D_GONE;
		d->pruned_inodes++;
		mm_kobj_free(k, t, &d->inode, ino);
	}
}

/* The shrinkers: nr 0 asks for the count, else prune nr first. */
static long shrink_dcache_memory(struct mm_kernel *k, struct mm_task *t, void *arg, long nr)
{
	struct mm_dcache *d = arg;
	if (nr)
		prune_dcache(k, t, d, nr);
	return (long)(d->dunused.n / 100) * 100;   /* sysctl_vfs_cache_pressure 100 */
}

static long shrink_icache_memory(struct mm_kernel *k, struct mm_task *t, void *arg, long nr)
{
	struct mm_dcache *d = arg;
	if (nr)
		prune_icache(k, t, d, nr);
	return (long)(d->iunused.n / 100) * 100;
}

int mm_dcache_init(struct mm_dcache *d, struct mm_kernel *k, uint32_t dent_per_slab,
		   uint32_t ino_per_slab, bool shrink)
{
	memset(d, 0, sizeof *d);
	d->free = MM_DENT_NONE;
	d->dunused.head = d->dunused.tail = d->iunused.head = d->iunused.tail = MM_DENT_NONE;
	if (mm_kcache_init(&d->dentry, k, "dentry_cache", dent_per_slab,
			   MM_GFP_KERNEL | MM_GFP_KERNRCLM) ||
	    mm_kcache_init(&d->inode, k, "ext3_inode_cache", ino_per_slab,
			   MM_GFP_KERNEL | MM_GFP_KERNRCLM))
		return -1;
	if (shrink && (mm_register_shrinker(k, MM_DEFAULT_SEEKS, shrink_dcache_memory, d) ||
		       mm_register_shrinker(k, MM_DEFAULT_SEEKS, shrink_icache_memory, d)))
		return -1;
	return 0;
}

void mm_dcache_fini(struct mm_dcache *d)
{
	mm_kcache_fini(&d->dentry);
	mm_kcache_fini(&d->inode);
	free(d->e);
	d->e = NULL;
	d->n = d->cap = 0;
}

/* Allocate what entry @id lacks (it is off every list meanwhile), then put its
 * dentry on dentry_unused, referenced.  Returns: 0, or -1 (the entry is left
 * with what it got, off the lists, D_GONE). */
static int make(struct mm_kernel *k, struct mm_task *t, struct mm_dcache *d, uint32_t id)
{
	d->e[id].state = D_BUSY;
	/* an allocation may sleep and another task's mm_dentry_new move d->e:
	 * index it again after each */
	if (d->e[id].ino == PFN_NONE) {
		uint32_t ino = mm_kobj_alloc(k, t, &d->inode);
		d->e[id].ino = ino;
	}
	if (d->e[id].dent == PFN_NONE) {
		uint32_t dent = mm_kobj_alloc(k, t, &d->dentry);
		d->e[id].dent = dent;
	}
	struct mm_dent *e = &d->e[id];
	if (e->ino == PFN_NONE || e->dent == PFN_NONE) {
		e->state = D_GONE;
		return -1;
	}
	e->state = D_CACHED;
	e->referenced = true;
	list_add_head(d, &d->dunused, id);
	return 0;
}

uint32_t mm_dentry_new(struct mm_kernel *k, struct mm_task *t, struct mm_dcache *d)
{
	uint32_t id = d->free;
	if (id != MM_DENT_NONE) {
		d->free = d->e[id].next;
	} else {
		if (d->n == d->cap) {
			uint32_t cap = d->cap ? 2 * d->cap : 1024;
			struct mm_dent *n = realloc(d->e, cap * sizeof *n);
			if (!n)
				return MM_DENT_NONE;
			d->e = n;
			d->cap = cap;
		}
		id = d->n++;
	}
	struct mm_dent *e = &d->e[id];
	e->dent = e->ino = PFN_NONE;
	e->prev = e->next = MM_DENT_NONE;
	e->referenced = false;
	if (make(k, t, d, id)) {
		mm_dentry_delete(k, t, d, id);
		return MM_DENT_NONE;
	}
	return id;
}

int mm_dentry_lookup(struct mm_kernel *k, struct mm_task *t, struct mm_dcache *d, uint32_t id)
{
	if (id >= d->n)
		return -1;
	struct mm_dent *e = &d->e[id];
	switch (e->state) {
	case D_CACHED:
		e->referenced = true;
		return 0;
	case D_INODE:   /* iget finds the inode in the hash: off inode_unused */
		list_del(d, &d->iunused, id);
		d->recreated++;
		return make(k, t, d, id);
	case D_GONE:
		d->recreated++;
		return make(k, t, d, id);
	default:
		return -1;   /* free, or being made by another task */
	}
}

void mm_dentry_delete(struct mm_kernel *k, struct mm_task *t, struct mm_dcache *d, uint32_t id)
{
	if (id >= d->n)
		return;
	struct mm_dent *e = &d->e[id];
	if (e->state == D_FREE || e->state == D_BUSY)
		return;
	if (e->state == D_CACHED)
		list_del(d, &d->dunused, id);
	else if (e->state == D_INODE)
		list_del(d, &d->iunused, id);
	uint32_t dent = e->dent, ino = e->ino;
	e->dent = e->ino = PFN_NONE;
	e->state = D_FREE;
	e->next = d->free;
	d->free = id;
	if (dent != PFN_NONE)
		mm_kobj_free(k, t, &d->dentry, dent);
	if (ino != PFN_NONE)
		mm_kobj_free(k, t, &d->inode, ino);
}
