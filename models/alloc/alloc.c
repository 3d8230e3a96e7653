/*
 * alloc.c - allocator registry, counting wrappers, and the zoned allocation core.
 *
 * mm_alloc_pages() is __alloc_pages() of 2.6.14 [K2614 mm/page_alloc.c] cut at the
 * points where the kernel would sleep or reclaim: the caller (the reclaim core)
 * gets MM_ALLOC_NEED_RECLAIM / MM_ALLOC_NEED_OOM, does the work, and calls back with
 * MM_ALLOC_AFTER_RECLAIM / MM_ALLOC_LAST_TRY, so the same watermark logic serves the
 * kswapd and direct-reclaim models built on top.  The 2.4.17 "incremental min"
 * variant is selected by the machine's watermark_style [K2417 __alloc_pages].
 * Cost: one pass is O(zones in the zonelist) watermark checks, each O(order).
 */
#include "models/alloc/alloc.h"

#include <stddef.h>

#include "emu/core/module.h"

#include <stdlib.h>
#include <string.h>

extern const struct alloc_ops buddy_alloc_ops;
extern const struct alloc_ops mbuddy_alloc_ops;
extern const struct alloc_ops zbuddy_alloc_ops;

/* The registry: add new modules here (mbuddy, zbuddy, ...). */
static const struct alloc_ops *const registry[] = {
	&buddy_alloc_ops,
	&mbuddy_alloc_ops,
	&zbuddy_alloc_ops,
	NULL,
};

/* the built-in modules above, then those plugins registered (emu/plugin) */
static struct module_registry modules = { .kind = "alloc",
					  .builtin = (const void *const *)registry,
					  .name_offset = offsetof(struct alloc_ops, name) };

const struct alloc_ops *const *alloc_modules(void)
{
	return (const struct alloc_ops *const *)module_all(&modules);
}

/* Returns: 0 if @ops has a version this build calls and the methods it needs,
 * else -1 with @e set. */
static int alloc_check_ops(const struct alloc_ops *ops, const char *file, const char *path,
			   struct mm_err *e)
{
	if (ops->version < 1 || ops->version > ALLOC_OPS_VERSION)
		return mm_errf(e, file, path, "allocator \"%s\": unsupported interface version %d "
			       "(this build supports 1..%d)", ops->name, ops->version,
			       ALLOC_OPS_VERSION);
	if (!ops->init || !ops->alloc || !ops->free)
		return mm_errf(e, file, path, "allocator \"%s\" lacks a required method "
			       "(init, alloc, free)", ops->name);
	return 0;
}

int alloc_register(const struct alloc_ops *ops, struct mm_err *e)
{
	if (!ops->name)
		return mm_errf(e, NULL, NULL, "an alloc module without a name");
	return alloc_check_ops(ops, NULL, NULL, e) ? -1 : module_add(&modules, ops, e);
}

const struct alloc_ops *alloc_find(const char *name)
{
	for (const struct alloc_ops *const *o = alloc_modules(); *o; o++)
		if (name && strcmp((*o)->name, name) == 0)
			return *o;
	return NULL;
}

struct alloc *alloc_create(const char *name, json_t *params, struct mm_phys *phys,
			   struct mm_vmstat *vs, const char *file, const char *path,
			   struct mm_err *e)
{
	static const char *const skip[] = { "module", NULL };
	const struct alloc_ops *ops = alloc_find(name);
	if (!ops) {
		char list[256] = "";
		const struct alloc_ops *const *all = alloc_modules();
		for (const struct alloc_ops *const *o = all; *o; o++) {
			size_t n = strlen(list);
			snprintf(list + n, sizeof list - n, "%s%s", o == all ? "" : ", ", (*o)->name);
		}
		mm_errf(e, file, path, "unknown allocator \"%s\" (expected one of: %s)",
			name ? name : "", list);
		return NULL;
	}
	if (alloc_check_ops(ops, file, path, e))
		return NULL;
	if (!phys || !phys->pages) {
		mm_errf(e, file, path, "internal: allocator needs initialised memory");
		return NULL;
	}
	if (phys->alloc) {
		mm_errf(e, file, path, "internal: memory already has an allocator");
		return NULL;
	}
	struct alloc *a = calloc(1, sizeof *a);
	if (!a)
		goto oom;
	a->ops = ops;
	a->phys = phys;
	a->vs = vs;
	a->max_order = MM_MAX_ORDER;
	a->cfg = calloc(1, ops->cfg_size ? ops->cfg_size : 1);
	a->priv = calloc(1, ops->priv_size ? ops->priv_size : 1);
	if (!a->cfg || !a->priv)
		goto oom_free;
	if (mm_params_load(ops->params, a->cfg, params, file, path, skip, e))
		goto err_free;
	phys->alloc = a;
	if (ops->init(a, e)) {
		phys->alloc = NULL;
		goto err_free;
	}
	return a;

oom_free:
	mm_errf(e, file, path, "out of host memory");
err_free:
	if (a) {
		free(a->cfg);
		free(a->priv);
		free(a);
	}
	return NULL;
oom:
	mm_errf(e, file, path, "out of host memory");
	return NULL;
}

void alloc_destroy(struct alloc *a)
{
	if (!a)
		return;
	if (a->ops->fini)
		a->ops->fini(a);
	if (a->phys && a->phys->alloc == a)
		a->phys->alloc = NULL;
	free(a->cfg);
	free(a->priv);
	free(a);
}

json_t *alloc_params_json(const struct alloc *a)
{
	json_t *o = mm_params_dump(a->ops->params, a->cfg);
	json_object_set_new(o, "module", json_string(a->ops->name));
	return o;
}

json_t *alloc_stats_json(const struct alloc *a)
{
	json_t *locks = json_object();
	for (int j = 0; j < MM_NR_ZONES; j++)
		if (a->phys->zones[j].present)
			json_object_set_new(locks, a->phys->zones[j].name,
					    json_integer((json_int_t)a->st.zone_lock[j]));
	return json_pack("{s:o, s:I, s:I, s:I, s:I, s:I, s:I, s:I}", "zone_lock", locks,
			 "locked_pages", (json_int_t)a->st.locked_pages, "pcp_refill",
			 (json_int_t)a->st.pcp_refill, "pcp_drain", (json_int_t)a->st.pcp_drain,
			 "pcp_alloc", (json_int_t)a->st.pcp_alloc, "pcp_free",
			 (json_int_t)a->st.pcp_free, "splits", (json_int_t)a->st.splits, "merges",
			 (json_int_t)a->st.merges);
}

uint32_t alloc_free_count(const struct alloc *a, const struct zone *z, unsigned order)
{
	if (order >= MM_MAX_ORDER)
		return 0;
	if (a->ops->free_count)
		return a->ops->free_count(a, z, order);
	return z->nr_free[order];
}

double alloc_frag_index_generic(const struct alloc *a, const struct zone *z, unsigned order)
{
	uint64_t blocks = 0, pages = 0, suitable = 0;
	for (unsigned o = 0; o < a->max_order; o++) {
		uint64_t n = alloc_free_count(a, z, o);
		blocks += n;
		pages += n << o;
		if (o >= order)
			suitable += n;
	}
	if (!blocks)
		return 0.0;
	if (suitable)
		return -1.0;
	return 1.0 - (1.0 + (double)pages / (double)(1ull << order)) / (double)blocks;
}

double alloc_frag_index(const struct alloc *a, const struct zone *z, unsigned order)
{
	if (a->ops->frag_index)
		return a->ops->frag_index(a, z, order);
	return alloc_frag_index_generic(a, z, order);
}

void alloc_drain(struct alloc *a, int cpu)
{
	if (a->ops->drain)
		a->ops->drain(a, cpu);
}

int alloc_zone_class(const struct alloc *a, int cls, int alloc_type)
{
	if (!a || a->ops->version < 3 || !a->ops->zone_class)
		return cls;
	int c = a->ops->zone_class(a, cls, alloc_type);
	return c >= 0 && c < MM_NR_ZONES ? c : cls;
}

int alloc_check(const struct alloc *a, struct mm_err *e)
{
	return a->ops->check ? a->ops->check(a, e) : 0;
}

/* The 2^@order pages at @pfn as plain memory: no flags but PG_highmem, no
 * references, mapping, list or order. */
static void reset_block(struct page *pages, uint32_t pfn, unsigned order)
{
	for (uint32_t i = 0; i < (1u << order); i++) {
		struct page *p = &pages[pfn + i];
		p->flags &= 1u << PG_highmem;
		p->count = 0;
		p->mapcount = 0;
		p->mapping = 0;
		p->index = 0;
		p->order = 0;
		p->list_id = 0;
		p->aux = 0;
	}
}

/* prep_new_page(): a fresh allocated block. */
bool alloc_free_check(struct alloc *a, uint32_t pfn, unsigned order, int cpu)
{
	const struct mm_phys *phys = a->phys;
	if (pfn >= phys->nr_pages || order >= a->max_order || (pfn & ((1u << order) - 1)) ||
	    pfn + (1u << order) > phys->nr_pages || cpu < 0 || (uint32_t)cpu >= phys->ncpus ||
	    (phys->pages[pfn].flags & ((1u << PG_buddy) | (1u << PG_pcp) | (1u << PG_reserved) |
					(1u << PG_lru)))) {
		a->st.bad_free++;
		return false;
	}
	return true;
}

struct mm_pcp *alloc_pcp_add(struct alloc *a, struct zone *z, uint32_t pfn, int cpu, bool cold)
{
	struct page *p = &a->phys->pages[pfn];
	struct mm_pcp *pcp = &z->pageset[cpu].pcp[cold ? 1 : 0];
	page_set(p, PG_pcp);
	p->list_id = cold ? 1 : 0;
	plist_add_head(a->phys->pages, &pcp->list, pfn);
	pcp->count++;
	z->nr_pcp++;
	a->st.pcp_free++;
	if (pcp->count < pcp->high)
		return NULL;
	a->st.zone_lock[z->idx]++;
	a->st.pcp_drain++;
	return pcp;
}

void alloc_for_each_pcp(struct alloc *a, int cpu,
			void (*fn)(struct alloc *a, struct zone *z, struct mm_pcp *pcp, void *arg),
			void *arg)
{
	struct mm_phys *phys = a->phys;
	for (int j = 0; j < MM_NR_ZONES; j++) {
		struct zone *z = &phys->zones[j];
		if (!z->pageset)
			continue;
		for (uint32_t c = 0; c < phys->ncpus; c++) {
			if (cpu >= 0 && (uint32_t)cpu != c)
				continue;
			for (int k = 0; k < 2; k++) {
				struct mm_pcp *pcp = &z->pageset[c].pcp[k];
				if (!pcp->count)
					continue;
				a->st.zone_lock[j]++;
				a->st.pcp_drain++;
				fn(a, z, pcp, arg);
			}
		}
	}
}

void alloc_prep_block(struct alloc *a, uint32_t pfn, unsigned order, int type)
{
	struct page *pages = a->phys->pages;
	reset_block(pages, pfn, order);
	for (uint32_t i = 0; i < (1u << order); i++)
		pages[pfn + i].alloc_type = (uint8_t)type;
	pages[pfn].count = 1;
	pages[pfn].order = (uint8_t)order;
}

/* free_pages_check() + reset: the block becomes plain free memory. */
void alloc_clear_block(struct alloc *a, uint32_t pfn, unsigned order)
{
	reset_block(a->phys->pages, pfn, order);
}

/* ---- __alloc_pages ---- */

static bool take(struct mm_phys *phys, struct zone *z, unsigned order, int type, int cpu,
		 unsigned flags, struct mm_alloc_result *res)
{
	uint32_t pfn = alloc_rmqueue(phys->alloc, z, order, type, cpu, flags & MM_GFP_COLD);
	if (pfn == PFN_NONE)
		return false;
	res->status = MM_ALLOC_OK;
	res->pfn = pfn;
	res->zone = z;
	mm_count(phys->vs, MM_PGALLOC, 1ull << order);
	return true;
}

/* One zonelist pass at a 2.6 watermark. Returns: true on success. */
static bool pass26(struct mm_phys *phys, struct zone *const *zl, unsigned order, int type,
		   int cpu, unsigned flags, int which, bool harder, bool high,
		   struct mm_alloc_result *res)
{
	for (int i = 0; zl[i]; i++) {
		struct zone *z = zl[i];
		uint32_t mark = which == 0 ? z->pages_low : which == 1 ? z->pages_min
								       : z->pages_high;
		res->wmark_checks++;
		if (!zone_watermark_ok(z, order, mark, res->classzone_idx, harder, high))
			continue;
		if (take(phys, z, order, type, cpu, flags, res))
			return true;
	}
	return false;
}

/* One zonelist pass with the 2.4 incremental min. @which 0 = low, 1 = min. */
static bool pass24(struct mm_phys *phys, struct zone *const *zl, unsigned order, int type,
		   int cpu, unsigned flags, int which, bool shift_min,
		   struct mm_alloc_result *res)
{
	uint64_t min = 1ull << order;
	for (int i = 0; zl[i]; i++) {
		struct zone *z = zl[i];
		uint64_t local = which == 0 ? z->pages_low : z->pages_min;
		if (shift_min)
			local >>= 2;
		min += local;
		res->wmark_checks++;
		if (z->free_pages > min && take(phys, z, order, type, cpu, flags, res))
			return true;
	}
	return false;
}

static bool pass_nomin(struct mm_phys *phys, struct zone *const *zl, unsigned order, int type,
		       int cpu, unsigned flags, struct mm_alloc_result *res)
{
	for (int i = 0; zl[i]; i++)
		if (take(phys, zl[i], order, type, cpu, flags, res))
			return true;
	return false;
}

static bool would_retry(unsigned order, unsigned flags)
{
	if (flags & MM_GFP_NORETRY)
		return false;
	return order <= 3 || (flags & (MM_GFP_REPEAT | MM_GFP_NOFAIL));
}

enum mm_alloc_status mm_alloc_pages(struct mm_phys *phys, int cls, unsigned order,
				    int alloc_type, int cpu, unsigned flags,
				    struct mm_alloc_result *res)
{
	memset(res, 0, sizeof *res);
	res->pfn = PFN_NONE;
	res->status = MM_ALLOC_FAIL;
	if (!phys->alloc || cls < 0 || cls >= MM_NR_ZONES || cpu < 0 ||
	    (uint32_t)cpu >= phys->ncpus || order >= phys->alloc->max_order ||
	    alloc_type < 0 || alloc_type >= MM_NR_RCLM)
		return res->status;
	cls = alloc_zone_class(phys->alloc, cls, alloc_type);
	struct zone *const *zl = phys->zonelists[cls];
	struct zone *nodma[MM_NR_ZONES + 1];
	if (flags & MM_GFP_NODMA) {
		int n = 0;
		for (int i = 0; zl[i]; i++)
			if (zl[i]->idx != MM_ZONE_DMA)
				nodma[n++] = zl[i];
		nodma[n] = NULL;
		zl = nodma;
	}
	if (!zl[0])
		return res->status;
	res->classzone_idx = zl[0]->idx;

	const bool wait = flags & MM_GFP_WAIT;
	const bool high = flags & MM_GFP_HIGH;
	const bool harder = (flags & MM_ALLOC_RT) || !wait; /* can_try_harder */
	const bool v24 = phys->cfg.watermark_style == MM_WMARK_24;

	if (flags & MM_ALLOC_LAST_TRY) {
		/* catch a parallel OOM kill: must fail if still under heavy pressure */
		bool ok = v24 ? pass24(phys, zl, order, alloc_type, cpu, flags, 1, false, res)
			      : pass26(phys, zl, order, alloc_type, cpu, flags, 2, false, false, res);
		if (!ok)
			res->status = MM_ALLOC_NEED_OOM;
		return res->status;
	}
	if (flags & MM_ALLOC_AFTER_RECLAIM) {
		bool ok = v24 ? pass24(phys, zl, order, alloc_type, cpu, flags, 1, false, res)
			      : pass26(phys, zl, order, alloc_type, cpu, flags, 1, harder, high, res);
		if (!ok) {
			res->status = MM_ALLOC_NEED_RECLAIM;
			res->should_retry = would_retry(order, flags);
		}
		return res->status;
	}

	/* pass 1: pages_low */
	if (v24 ? pass24(phys, zl, order, alloc_type, cpu, flags, 0, false, res)
		: pass26(phys, zl, order, alloc_type, cpu, flags, 0, false, false, res))
		return res->status;

	/* wake kswapd: 2.6 per zone below pages_low (wakeup_kswapd); 2.4 the classzone */
	res->kswapd_order = order;
	if (v24) {
		res->wake_kswapd = 1u << zl[0]->idx;
	} else {
		for (int i = 0; zl[i]; i++)
			if (!zone_watermark_ok(zl[i], order, zl[i]->pages_low, 0, false, false))
				res->wake_kswapd |= 1u << zl[i]->idx;
	}

	/* pass 2: pages_min, deeper for __GFP_HIGH / RT / atomic; a high-order
	 * failure lets the module give back what it parks (mbuddy's drain) once */
	for (int again = 0; again < 2; again++) {
		if (v24 ? pass24(phys, zl, order, alloc_type, cpu, flags, 1, !wait, res)
			: pass26(phys, zl, order, alloc_type, cpu, flags, 1, harder, high, res))
			return res->status;
		if (again || order == 0 || !phys->alloc->ops->alloc_failed ||
		    !phys->alloc->ops->alloc_failed(phys->alloc, order, cpu))
			break;
	}

	if (flags & MM_ALLOC_MEMALLOC) {
		if (!(flags & MM_GFP_NOMEMALLOC) &&
		    pass_nomin(phys, zl, order, alloc_type, cpu, flags, res))
			return res->status;
		return res->status = MM_ALLOC_FAIL;
	}
	if (!wait)
		return res->status = MM_ALLOC_FAIL;
	res->status = MM_ALLOC_NEED_RECLAIM;
	res->should_retry = would_retry(order, flags);
	return res->status;
}

void mm_free_pages(struct mm_phys *phys, uint32_t pfn, unsigned order, int cpu, bool cold)
{
	if (!phys->alloc || pfn >= phys->nr_pages)
		return;
	mm_count(phys->vs, MM_PGFREE, 1ull << order);
	alloc_free(phys->alloc, pfn, order, cpu, cold);
}

json_t *alloc_buddyinfo(const struct mm_phys *phys)
{
	json_t *o = json_object();
	for (int j = 0; j < MM_NR_ZONES; j++) {
		const struct zone *z = &phys->zones[j];
		if (!z->present)
			continue;
		json_t *a = json_array();
		unsigned max = phys->alloc ? alloc_max_order(phys->alloc) : MM_MAX_ORDER;
		for (unsigned k = 0; k < max; k++)
			json_array_append_new(
				a, json_integer(phys->alloc ? alloc_free_count(phys->alloc, z, k)
							    : z->nr_free[k]));
		json_object_set_new(o, z->name, a);
	}
	return o;
}
