/*
 * dcache.c - dentries and inodes with 2.6.16's unused lists and shrinkers
 * (fs/dcache.c: d_alloc, dput, prune_dcache, shrink_dcache_memory; fs/inode.c:
 * iput_final, prune_icache, shrink_icache_memory; kernel-mechanisms.md 4.1, 4.3a).
 *
 * A cached file has a dentry and an inode, objects of the "dentry_cache" and
 * "ext3_inode_cache" slab caches (kobj.c, __GFP_KERNRCLM).  A dentry holds a
 * reference on its parent directory's dentry while it lives (d_alloc's dget,
 * released when it is freed), so a directory with cached children is in use.
 * dentry_unused is lazy, as in 2.6.16: dput of a dentry not on it (d_lru empty)
 * sets DCACHE_REFERENCED and adds it at the head; a lookup of a cached dentry
 * does not move it (__d_lookup only takes a reference), and a directory that
 * gains children stays where it is.  prune_dcache(nr) looks at nr dentries from
 * the tail: one in use (a directory with children) is taken off the list (its
 * last child's dput puts it back at the head, referenced), a referenced one
 * loses the flag and goes back to the head, any other is freed, its parent
 * released, and its inode (iput_final of a linked inode, the super block
 * active) goes to the head of inode_unused.  prune_icache(nr) frees inodes from
 * the tail of inode_unused.  The shrinkers report (nr_unused / 100) *
 * vfs_cache_pressure (100) objects and are called by shrink_slab (vmscan.c)
 * under memory pressure.  A lookup of a file whose dentry was pruned makes it
 * again (its parents first, and its inode if that was pruned too).  Slab pages
 * are freed only when their last object goes (kobj.c).
 * Dirty inodes (fs/fs-writeback.c __mark_inode_dirty, sync_sb_inodes,
 * __sync_single_inode; fs/inode.c generic_forget_inode): an atime, mtime or
 * ctime update (2.6.16 has no relatime) or a new inode makes a clean inode
 * dirty, stamped with its dirtied_when, at the head of s_dirty.  A dirty
 * inode whose dentry is pruned is kept off inode_unused (still counted in
 * nr_unused, which the shrinker reports), so prune_icache cannot free it, until
 * writeback cleans it: every writeback_inodes() pass (writeback.c: pdflush's
 * background pass, a throttled writer, wb_kupdate with the inodes 30 s old)
 * walks s_dirty from its oldest end and puts an unused cleaned inode at the
 * head of inode_unused.  Only with vm.dirty_writeback (no writeback would clean
 * them otherwise).
 * An open file's reference (mm_dentry_get/put) keeps its dentry in use as a
 * child's does.
 * A negative dentry (a name a lookup did not find: gcc's include search) is a
 * dentry without an inode; pruned, it is simply gone until looked up again.
 * prune_icache invalidates an unused inode's clean page cache first (through
 * the creator's mm_dcache_set_pages hook) and frees the inode only when no
 * page is left: dirty, mapped or busy pages keep it.
 * Not modelled: the __GFP_FS test (every reclaimer here may enter the file system), I_LOCK
 * (an inode under write is cleaned at once: ext3 writes no inode without wait).
 * Costs: one page_op per object allocated or freed (kobj.c), one atomic per
 * dentry or inode looked at by a prune or a writeback (the dcache_lock /
 * inode_lock walk).
 */
#include "models/fs/dcache.h"
#include "models/fs/fs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/core/sim.h"
#include "models/mm/vmscan.h"

enum { D_FREE, D_CACHED, D_INODE, D_GONE, D_BUSY };

/* Add @id at the head of list @l, on its links @w (MM_DL_*). */
static void list_add_head(struct mm_dcache *d, struct mm_dlist *l, int w, uint32_t id)
{
	struct mm_dent *e = &d->e[id];
	e->prev[w] = MM_DENT_NONE;
	e->next[w] = l->head;
	if (l->head != MM_DENT_NONE)
		d->e[l->head].prev[w] = id;
	else
		l->tail = id;
	l->head = id;
	l->n++;
}

static void list_del(struct mm_dcache *d, struct mm_dlist *l, int w, uint32_t id)
{
	struct mm_dent *e = &d->e[id];
	if (e->prev[w] != MM_DENT_NONE)
		d->e[e->prev[w]].next[w] = e->next[w];
	else
		l->head = e->next[w];
	if (e->next[w] != MM_DENT_NONE)
		d->e[e->next[w]].prev[w] = e->prev[w];
	else
		l->tail = e->prev[w];
	e->prev[w] = e->next[w] = MM_DENT_NONE;
	l->n--;
}

#define U MM_DL_UNUSED

/* dput of @id's last reference: it goes at the head of dentry_unused,
 * referenced, unless it is still there (lazy LRU). */
static void dput_last(struct mm_dcache *d, uint32_t id)
{
	struct mm_dent *e = &d->e[id];
	if (!e->children && !e->users && e->state == D_CACHED && !e->lru) {
		e->referenced = true;
		list_add_head(d, &d->dunused, U, id);
		e->lru = true;
	}
}

/* dput of a child's reference on directory @id. */
static void put_parent(struct mm_dcache *d, uint32_t id)
{
	if (d->e[id].children && --d->e[id].children == 0)
		dput_last(d, id);
}

/* One more unused dirty inode kept off inode_unused. */
static void hold(struct mm_dcache *d)
{
	if (++d->held > d->held_max)
		d->held_max = d->held;
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
		list_del(d, &d->dunused, U, id);
		e->lru = false;
		if (e->children || e->users)
			continue;   /* in use: kept off the list until its last dput */
		if (e->referenced) {
			e->referenced = false;
			list_add_head(d, &d->dunused, U, id);
			e->lru = true;
			continue;
		}
		uint32_t dent = e->dent;
		e->dent = PFN_NONE;
		if (e->negative) {
			e->state = D_GONE;   /* no inode to put */
		} else {
			e->state = D_INODE;
			if (e->dirty)
				hold(d);   /* generic_forget_inode: I_DIRTY stays on s_dirty */
			else
				list_add_head(d, &d->iunused, U, id);
		}
		d->pruned_dentries++;
		if (e->parent != MM_DENT_NONE)
			put_parent(d, e->parent);
		mm_kobj_free(k, t, &d->dentry, dent);   /* may sleep: the entry is consistent */
	}
}

/* prune_icache(@nr).  An inode with page cache (mm_dcache_set_pages) is
 * taken (__iget) and put back at the head of inode_unused by its iput while
 * its clean pages are invalidated; it is freed only if it is still there,
 * unused, with no page left (can_unuse), else it stays for a later pass.
 * Returns: nothing. */
static void prune_icache(struct mm_kernel *k, struct mm_task *t, struct mm_dcache *d, long nr)
{
	for (; nr > 0 && d->iunused.n; nr--) {
		mm_charge(t, k->costs->atomic);
		if (!d->iunused.n)
			break;
		uint32_t id = d->iunused.tail;
		struct mm_dent *e = &d->e[id];
		if (d->pages && e->owner != MM_DENT_NONE) {
			list_del(d, &d->iunused, U, id);
			list_add_head(d, &d->iunused, U, id);
			uint32_t left = d->pages(d->pages_arg, k, t, e->owner);   /* may sleep */
			e = &d->e[id];
			if (d->iunused.head != id || e->state != D_INODE || left) {
				d->kept_for_pages += left > 0;
				continue;   /* wrong inode, or it still has pages */
			}
		}
		list_del(d, &d->iunused, U, id);
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
	/* inodes_stat.nr_unused counts the dirty ones kept off the list */
	return (long)((d->iunused.n + d->held) / 100) * 100;
}

void mm_inode_dirty(struct mm_kernel *k, struct mm_task *t, struct mm_dcache *d, uint32_t id)
{
	if (!k->cfg.dirty_writeback || id >= d->n || d->e[id].state != D_CACHED || d->e[id].dirty ||
	    d->e[id].negative)
		return;
	struct mm_dent *e = &d->e[id];
	e->dirty = true;
	e->dirtied_when = mm_now(k, t);
	list_add_head(d, &d->sdirty, MM_DL_DIRTY, id);
	d->dirtied++;
}

/* sync_sb_inodes' inode part: clean the dirty inodes dirtied at or before
 * @older, oldest first (write_inode: ext3_write_inode without wait does no
 * I/O, the inode is in the journal already); an unused one goes to the head of
 * inode_unused (__sync_single_inode).  Returns: inodes cleaned. */
static uint64_t write_inodes(struct mm_kernel *k, struct mm_task *t, void *arg, double older)
{
	struct mm_dcache *d = arg;
	uint64_t n = 0;
	while (d->sdirty.n) {
		mm_charge(t, k->costs->atomic);   /* inode_lock; may pay: read the list after */
		if (!d->sdirty.n)
			break;
		uint32_t id = d->sdirty.tail;
		struct mm_dent *e = &d->e[id];
		if (e->dirtied_when > older)
			break;
		list_del(d, &d->sdirty, MM_DL_DIRTY, id);
		e->dirty = false;
		if (e->state == D_INODE) {
			d->held--;
			list_add_head(d, &d->iunused, U, id);
		}
		n++;
	}
	d->cleaned += n;
	return n;
}

const struct mm_dgeom mm_dgeom_ext3_26 = { 29, 7, "ext3_inode_cache" };
const struct mm_dgeom mm_dgeom_ext2_25 = { 30, 8, "ext2_inode_cache" };

int mm_dcache_init(struct mm_dcache *d, struct mm_kernel *k, const struct mm_dgeom *g,
		   bool shrink)
{
	memset(d, 0, sizeof *d);
	d->free = MM_DENT_NONE;
	d->dunused.head = d->dunused.tail = d->iunused.head = d->iunused.tail = MM_DENT_NONE;
	d->sdirty.head = d->sdirty.tail = MM_DENT_NONE;
	if (mm_kcache_init(&d->dentry, k, "dentry_cache", g->dent_per_slab,
			   MM_GFP_KERNEL | MM_GFP_KERNRCLM) ||
	    mm_kcache_init(&d->inode, k, g->ino_cache, g->ino_per_slab,
			   MM_GFP_KERNEL | MM_GFP_KERNRCLM))
		return -1;
	if (shrink && (mm_register_shrinker(k, MM_DEFAULT_SEEKS, shrink_dcache_memory, d) ||
		       mm_register_shrinker(k, MM_DEFAULT_SEEKS, shrink_icache_memory, d)))
		return -1;
	if (shrink && k->cfg.dirty_writeback && mm_register_inode_sb(k, write_inodes, d))
		return -1;
	return 0;
}

struct mm_dcache *mm_dcache_of(struct mm_kernel *k, const struct mm_dgeom *g, char *why,
			       size_t n)
{
	struct mm_dcache *d = k->dcache;
	if (d) {
		if (d->dentry.objs_per_slab == g->dent_per_slab &&
		    d->inode.objs_per_slab == g->ino_per_slab && !strcmp(d->inode.name, g->ino_cache))
			return d;
		snprintf(why, n,
			 "the kernel's dentry and inode caches already hold %u dentries and %u %s "
			 "objects a page (made by an earlier step)",
			 (unsigned)d->dentry.objs_per_slab, (unsigned)d->inode.objs_per_slab,
			 d->inode.name);
		return NULL;
	}
	snprintf(why, n, "out of memory for the dentry and inode caches");
	if (!(d = calloc(1, sizeof *d)))
		return NULL;
	k->dcache = d;   /* registered shrinkers point at it: it stays until mm_kernel_fini */
	if (mm_dcache_init(d, k, g, true))
		return NULL;
	struct mm_kcache *cc[2] = { &d->dentry, &d->inode };
	for (int i = 0; i < 2; i++) {   /* enable_cpucache at kmem_cache_create */
		mm_kcache_tune(cc[i], k->phys.ncpus);
		if (mm_kcache_arrays(cc[i], k->phys.ncpus))
			return NULL;
	}
	return d;
}

void mm_dcache_metrics(const struct mm_dcache *d, struct sim *s)
{
	if (!d)
		return;
	sim_metric(s, "dentries", (double)d->dentry.objs);
	sim_metric(s, "inodes", (double)d->inode.objs);
	sim_metric(s, "dcache_slab_pages", (double)(d->dentry.slabs + d->inode.slabs));
	sim_metric(s, "dentries_pruned", (double)d->pruned_dentries);
	sim_metric(s, "inodes_pruned", (double)d->pruned_inodes);
}

void mm_dcache_free_all(struct mm_kernel *k)
{
	if (!k->dcache)
		return;
	mm_dcache_fini(k->dcache);
	free(k->dcache);
	k->dcache = NULL;
}

void mm_dcache_fini(struct mm_dcache *d)
{
	mm_kcache_fini(&d->dentry);
	mm_kcache_fini(&d->inode);
	free(d->e);
	d->e = NULL;
	d->n = d->cap = 0;
}

static int make(struct mm_kernel *k, struct mm_task *t, struct mm_dcache *d, uint32_t id,
		int depth);

/* Path lookup of @id (made again if pruned).  Returns: 0, or -1. */
static int lookup(struct mm_kernel *k, struct mm_task *t, struct mm_dcache *d, uint32_t id,
		  int depth)
{
	if (id >= d->n || depth > 64)
		return -1;
	switch (d->e[id].state) {
	case D_CACHED:
		return 0;   /* __d_lookup: a reference, no move on dentry_unused */
	case D_INODE:   /* iget finds the inode in the hash: off inode_unused */
		if (d->e[id].dirty)
			d->held--;
		else
			list_del(d, &d->iunused, U, id);
		d->recreated++;
		return make(k, t, d, id, depth);
	case D_GONE:
		d->recreated++;
		return make(k, t, d, id, depth);
	default:
		return -1;   /* free, or being made by another task */
	}
}

/* d_alloc of entry @id in its parent (made again first if pruned: its
 * reference is taken before anything sleeps), then what it lacks; its dentry
 * goes on dentry_unused, referenced (the creator's dput).  The entry is off
 * every list meanwhile.  Returns: 0, or -1 (the entry is left with what it got,
 * off the lists, D_GONE, its parent released). */
static int make(struct mm_kernel *k, struct mm_task *t, struct mm_dcache *d, uint32_t id,
		int depth)
{
	d->e[id].state = D_BUSY;
	uint32_t parent = d->e[id].parent;
	if (parent != MM_DENT_NONE) {
		if (lookup(k, t, d, parent, depth + 1)) {
			d->e[id].state = D_GONE;
			return -1;
		}
		d->e[parent].children++;   /* dget(parent) */
	}
	/* an allocation may sleep and another task's mm_dentry_new move d->e:
	 * index it again after each */
	if (d->e[id].ino == PFN_NONE && !d->e[id].negative) {
		uint32_t ino = mm_kobj_alloc(k, t, &d->inode);
		d->e[id].ino = ino;
	}
	if (d->e[id].dent == PFN_NONE) {
		uint32_t dent = mm_kobj_alloc(k, t, &d->dentry);
		d->e[id].dent = dent;
	}
	struct mm_dent *e = &d->e[id];
	if ((e->ino == PFN_NONE && !e->negative) || e->dent == PFN_NONE) {
		e->state = D_GONE;
		if (e->dent != PFN_NONE) {   /* keep the invariant: a dentry-less entry holds no parent */
			uint32_t dent = e->dent;
			e->dent = PFN_NONE;
			if (parent != MM_DENT_NONE)
				put_parent(d, parent);
			mm_kobj_free(k, t, &d->dentry, dent);
		} else if (parent != MM_DENT_NONE) {
			put_parent(d, parent);
		}
		return -1;
	}
	e->state = D_CACHED;
	e->referenced = true;
	list_add_head(d, &d->dunused, U, id);
	e->lru = true;
	if (e->negative)
		d->negatives++;
	return 0;
}

/* A new entry in @parent, a negative one with @negative, made (make()).
 * Returns: its id, or MM_DENT_NONE. */
static uint32_t new_entry(struct mm_kernel *k, struct mm_task *t, struct mm_dcache *d,
			  uint32_t parent, bool negative)
{
	if (parent != MM_DENT_NONE && parent >= d->n)
		return MM_DENT_NONE;
	uint32_t id = d->free;
	if (id != MM_DENT_NONE) {
		d->free = d->e[id].next[U];
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
	e->prev[U] = e->next[U] = e->prev[MM_DL_DIRTY] = e->next[MM_DL_DIRTY] = MM_DENT_NONE;
	e->parent = parent;
	e->owner = MM_DENT_NONE;
	e->children = e->users = 0;
	e->dirtied_when = 0;
	e->referenced = e->lru = e->dirty = false;
	e->negative = negative;
	if (make(k, t, d, id, 0)) {
		mm_dentry_delete(k, t, d, id);
		return MM_DENT_NONE;
	}
	return id;
}

uint32_t mm_dentry_new(struct mm_kernel *k, struct mm_task *t, struct mm_dcache *d,
		       uint32_t parent)
{
	return new_entry(k, t, d, parent, false);
}

void mm_dcache_set_pages(struct mm_dcache *d,
			 uint32_t (*pages)(void *arg, struct mm_kernel *k, struct mm_task *t,
					   uint32_t owner),
			 void *arg)
{
	d->pages = pages;
	d->pages_arg = arg;
	for (uint32_t i = 0; !pages && i < d->n; i++)
		d->e[i].owner = MM_DENT_NONE;
}

void mm_dentry_set_owner(struct mm_dcache *d, uint32_t id, uint32_t owner)
{
	if (id < d->n)
		d->e[id].owner = owner;
}

int mm_dentry_use(struct mm_kernel *k, struct mm_task *t, struct mm_dcache *d, uint32_t *id,
		  uint32_t parent)
{
	if (*id == MM_DENT_NONE) {
		uint32_t n = mm_dentry_new(k, t, d, parent);
		if (n == MM_DENT_NONE)
			return -1;
		*id = n;
	} else if (mm_dentry_lookup(k, t, d, *id)) {
		return -1;
	}
	mm_inode_dirty(k, t, d, *id);
	return 0;
}

uint32_t mm_dentry_negative(struct mm_kernel *k, struct mm_task *t, struct mm_dcache *d,
			    uint32_t parent)
{
	return new_entry(k, t, d, parent, true);
}

int mm_dentry_lookup(struct mm_kernel *k, struct mm_task *t, struct mm_dcache *d, uint32_t id)
{
	return lookup(k, t, d, id, 0);
}

int mm_dentry_get(struct mm_kernel *k, struct mm_task *t, struct mm_dcache *d, uint32_t id)
{
	if (lookup(k, t, d, id, 0))
		return -1;
	d->e[id].users++;
	return 0;
}

void mm_dentry_put(struct mm_dcache *d, uint32_t id)
{
	if (id < d->n && d->e[id].users && --d->e[id].users == 0)
		dput_last(d, id);
}

void mm_dentry_delete(struct mm_kernel *k, struct mm_task *t, struct mm_dcache *d, uint32_t id)
{
	if (id >= d->n)
		return;
	struct mm_dent *e = &d->e[id];
	if (e->state == D_FREE || e->state == D_BUSY || e->children || e->users)
		return;
	if (e->lru)
		list_del(d, &d->dunused, U, id);
	else if (e->state == D_INODE && e->dirty)
		d->held--;
	else if (e->state == D_INODE)
		list_del(d, &d->iunused, U, id);
	if (e->dirty)   /* generic_delete_inode: off s_dirty, freed */
		list_del(d, &d->sdirty, MM_DL_DIRTY, id);
	e->lru = e->dirty = false;
	uint32_t dent = e->dent, ino = e->ino;
	e->dent = e->ino = PFN_NONE;
	e->state = D_FREE;
	e->next[U] = d->free;
	d->free = id;
	if (dent != PFN_NONE && e->parent != MM_DENT_NONE)
		put_parent(d, e->parent);
	if (dent != PFN_NONE)
		mm_kobj_free(k, t, &d->dentry, dent);
	if (ino != PFN_NONE)
		mm_kobj_free(k, t, &d->inode, ino);
}
