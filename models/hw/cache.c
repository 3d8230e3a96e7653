/*
 * cache.c - the cache hierarchy and data TLB (see cache.h).
 *
 * Hardware, not kernel source: a set-associative cache with LRU replacement in
 * each set, as the Alpha 21264's caches (kernel-mechanisms.md 5.1, 6.4): the L1 D
 * (64 KB, 2-way, 64-byte lines) is indexed with virtual-address bits above the
 * 8 KB page offset, the 2 MB direct-mapped B-cache (L2) with physical ones, so
 * only the L2 sees page colours (pfn mod size / (ways x page)).  The page table
 * the TLB refills from is the task's (the caller's translate callback, which reads
 * models/mm/proc.c's ptes).
 *
 * Each set keeps its tags most recently used first, so a hit in way 0 (the common
 * case of a stream) costs one compare and a direct-mapped level has no ordering
 * work at all.  A fully associative TLB of more than 8 entries (the 21264's 128)
 * is an LRU list found through a hash (O(1) per look-up, exact LRU).  Costs: per
 * reference O(levels x ways) in the worst case; per page change one TLB look-up
 * and, on a TLB miss, one callback.
 */
#include "models/hw/cache.h"

#include <stdlib.h>
#include <string.h>

static const char *const indexing_names[] = { "physical", "virtual", NULL };

const struct mm_param cache_level_params[] = {
	MM_PARAM(struct cache_level_cfg, name, "name", MM_P_STRING, 1, 0, "\"L\"",
		 "name of the level in reports (L1d, L2, ...)"),
	MM_PARAM(struct cache_level_cfg, size, "size", MM_P_SIZE, 64, 1ull << 32, "\"64KiB\"",
		 "capacity in bytes (a power of two)"),
	MM_PARAM(struct cache_level_cfg, line, "line", MM_P_SIZE, 8, 4096, "64",
		 "line size in bytes (a power of two)"),
	MM_PARAM(struct cache_level_cfg, assoc, "assoc", MM_P_INT, 0, 1024, "1",
		 "ways per set; 1 = direct-mapped, 0 = fully associative"),
	MM_PARAM_ENUM(struct cache_level_cfg, indexing, "indexing", indexing_names, "\"physical\"",
		      "set index from the physical address, or from the virtual address "
		      "(only the bits below the page offset are then the same in both)"),
	MM_PARAM(struct cache_level_cfg, latency, "latency", MM_P_TIME, 0, 1e-3, "\"5ns\"",
		 "load-to-use time of a load this level serves (lmbench lat_mem_rd plateau)"),
	MM_PARAM(struct cache_level_cfg, bandwidth, "bandwidth", MM_P_RATE, 1e6, 1e13, "\"4GB/s\"",
		 "bytes/s of a stream of line fills this level serves (calibration)"),
	MM_PARAM_END
};

const struct mm_param cache_params[] = {
	MM_PARAM(struct cache_cfg, mem_bandwidth, "memory_bandwidth", MM_P_RATE, 1e6, 1e13,
		 "\"1GB/s\"", "bytes/s of a stream of line fills from memory (calibration); the "
		 "latency is machine.costs.mem_latency"),
	MM_PARAM_END
};

static const struct mm_param tlb_params[] = {
	MM_PARAM(struct cache_cfg, tlb_entries, "entries", MM_P_INT, 0, 65536, "0",
		 "data TLB entries; 0 = no TLB modelled"),
	MM_PARAM(struct cache_cfg, tlb_assoc, "assoc", MM_P_INT, 0, 65536, "0",
		 "TLB ways per set; 0 = fully associative"),
	MM_PARAM(struct cache_cfg, tlb_page, "page_size", MM_P_SIZE, 0, 1ull << 30, "0",
		 "bytes mapped by one entry; 0 = the machine's page size"),
	MM_PARAM(struct cache_cfg, tlb_refill, "refill", MM_P_TIME, 0, 1e-3, "\"30ns\"",
		 "time to refill one entry from the page table (PALcode / hardware walk)"),
	MM_PARAM_END
};

static bool pow2(uint64_t x)
{
	return x && !(x & (x - 1));
}

static const char *const top_skip[] = { "levels", "tlb", NULL };

int cache_cfg_load(struct cache_cfg *c, json_t *obj, const char *file, const char *path,
		   struct mm_err *e)
{
	char sub[256];
	double mem_latency = c->mem_latency;
	memset(c, 0, sizeof *c);
	c->mem_latency = mem_latency;
	if (!obj)
		return 0;
	if (!json_is_object(obj))
		return mm_errf(e, file, path, "expected an object {\"levels\": [...], "
			       "\"memory_bandwidth\": ..., \"tlb\": {...}}");
	if (mm_params_load(cache_params, c, obj, file, path, top_skip, e))
		return -1;
	json_t *tlb = json_object_get(obj, "tlb");
	snprintf(sub, sizeof sub, "%s.tlb", path);
	if (tlb && !json_is_object(tlb))
		return mm_errf(e, file, sub, "expected an object");
	if (mm_params_load(tlb_params, c, tlb, file, sub, NULL, e))
		return -1;
	if (c->tlb_page && !pow2(c->tlb_page)) {
		snprintf(sub, sizeof sub, "%s.tlb.page_size", path);
		return mm_errf(e, file, sub, "expected a power of two");
	}
	if (c->tlb_entries && c->tlb_assoc &&
	    (c->tlb_entries % c->tlb_assoc || !pow2((uint64_t)(c->tlb_entries / c->tlb_assoc)))) {
		snprintf(sub, sizeof sub, "%s.tlb.assoc", path);
		return mm_errf(e, file, sub, "expected entries / assoc to be a power of two");
	}
	json_t *levels = json_object_get(obj, "levels");
	snprintf(sub, sizeof sub, "%s.levels", path);
	if (!json_is_array(levels) || json_array_size(levels) == 0)
		return mm_errf(e, file, sub, "expected a non-empty array of cache levels");
	if (json_array_size(levels) > CACHE_MAX_LEVELS)
		return mm_errf(e, file, sub, "expected at most %d levels", CACHE_MAX_LEVELS);
	size_t i;
	json_t *l;
	json_array_foreach(levels, i, l) {
		struct cache_level_cfg *lv = &c->lv[i];
		snprintf(sub, sizeof sub, "%s.levels[%zu]", path, i);
		if (!json_is_object(l))
			return mm_errf(e, file, sub, "expected an object");
		if (mm_params_load(cache_level_params, lv, l, file, sub, NULL, e))
			return -1;
		char f[300];
		if (!pow2(lv->size)) {
			snprintf(f, sizeof f, "%s.size", sub);
			return mm_errf(e, file, f, "expected a power of two");
		}
		if (!pow2(lv->line) || lv->line > lv->size) {
			snprintf(f, sizeof f, "%s.line", sub);
			return mm_errf(e, file, f, "expected a power of two no larger than the size");
		}
		uint64_t lines = lv->size / lv->line;
		if (lv->assoc && ((uint64_t)lv->assoc > lines || !pow2((uint64_t)lv->assoc))) {
			snprintf(f, sizeof f, "%s.assoc", sub);
			return mm_errf(e, file, f, "expected a power of two no larger than size / line (%llu)",
				       (unsigned long long)lines);
		}
		if (i && lv->line < c->lv[0].line) {
			snprintf(f, sizeof f, "%s.line", sub);
			return mm_errf(e, file, f, "expected at least the L1 line (%llu bytes)",
				       (unsigned long long)c->lv[0].line);
		}
		c->nlevels++;
	}
	return 0;
}

json_t *cache_cfg_dump(const struct cache_cfg *c)
{
	json_t *o = mm_params_dump(cache_params, c);
	json_t *a = json_array();
	for (int i = 0; i < c->nlevels; i++)
		json_array_append_new(a, mm_params_dump(cache_level_params, &c->lv[i]));
	json_object_set_new(o, "levels", a);
	json_object_set_new(o, "tlb", mm_params_dump(tlb_params, c));
	return o;
}

void cache_params_doc(FILE *out)
{
	fprintf(out, "machine.caches (the cache hierarchy and TLB, models/hw/cache.h):\n");
	mm_params_doc(cache_params, out);
	fprintf(out, "machine.caches.levels[] (from L1 outwards):\n");
	mm_params_doc(cache_level_params, out);
	fprintf(out, "machine.caches.tlb:\n");
	mm_params_doc(tlb_params, out);
}

uint32_t cache_colors(const struct cache_cfg *c, uint64_t page_size)
{
	uint64_t best = 1;
	for (int i = 0; i < c->nlevels; i++) {
		const struct cache_level_cfg *l = &c->lv[i];
		if (l->indexing != CACHE_PHYSICAL)
			continue;
		uint64_t way = l->assoc ? l->size / (uint64_t)l->assoc : l->line;
		if (way / page_size > best)
			best = way / page_size;
	}
	return best > UINT32_MAX ? UINT32_MAX : (uint32_t)best;
}

#define FA_NONE UINT32_MAX

static inline uint32_t fa_hash(const struct cache_fa *f, uint64_t k)
{
	return (uint32_t)((k * 0x9E3779B97F4A7C15ull) >> 40) & f->hmask;
}

/* Returns: the entry holding @k or -1; *@pos: its hash slot, or the empty slot
 * where it would go. */
static int32_t fa_find(const struct cache_fa *f, uint64_t k, uint32_t *pos)
{
	uint32_t h = fa_hash(f, k);
	while (f->slot[h] >= 0) {
		if (f->key[f->slot[h]] == k)
			break;
		h = (h + 1) & f->hmask;
	}
	*pos = h;
	return f->slot[h];
}

/* Empty hash slot @s, shifting later entries of its probe run back. */
static void fa_unhash(struct cache_fa *f, uint32_t s)
{
	for (uint32_t j = s;;) {
		j = (j + 1) & f->hmask;
		if (f->slot[j] < 0)
			break;
		uint32_t k = fa_hash(f, f->key[f->slot[j]]);
		/* move the entry at j to s unless its home k lies cyclically in (s, j] */
		if (j > s ? (k <= s || k > j) : (k <= s && k > j)) {
			f->slot[s] = f->slot[j];
			s = j;
		}
	}
	f->slot[s] = -1;
}

static void fa_unlink(struct cache_fa *f, uint32_t e)
{
	if (f->prev[e] != FA_NONE)
		f->next[f->prev[e]] = f->next[e];
	else
		f->head = f->next[e];
	if (f->next[e] != FA_NONE)
		f->prev[f->next[e]] = f->prev[e];
	else
		f->tail = f->prev[e];
}

static void fa_push(struct cache_fa *f, uint32_t e)
{
	f->prev[e] = FA_NONE;
	f->next[e] = f->head;
	if (f->head != FA_NONE)
		f->prev[f->head] = e;
	else
		f->tail = e;
	f->head = e;
}

/* Look @k up, make it the most recently used, insert it on a miss (replacing
 * the least recently used).  Returns: true on a hit. */
static bool fa_access(struct cache_fa *f, uint64_t k)
{
	/* the two most recent entries first: butterflies alternate two pages */
	uint32_t h = f->head;
	if (h != FA_NONE && f->key[h] == k)
		return true;
	if (h != FA_NONE && f->next[h] != FA_NONE && f->key[f->next[h]] == k) {
		uint32_t e = f->next[h];
		fa_unlink(f, e);
		fa_push(f, e);
		return true;
	}
	uint32_t pos;
	int32_t e = fa_find(f, k, &pos);
	if (e >= 0) {
		if ((uint32_t)e != f->head) {
			fa_unlink(f, (uint32_t)e);
			fa_push(f, (uint32_t)e);
		}
		return true;
	}
	uint32_t v;
	if (f->used < f->n) {
		v = f->used++;
	} else {
		v = f->tail;
		uint32_t old;
		fa_find(f, f->key[v], &old);
		fa_unhash(f, old);
		fa_unlink(f, v);
		fa_find(f, k, &pos);   /* the shift may have moved the empty slot */
	}
	f->key[v] = k;
	f->slot[pos] = (int32_t)v;
	fa_push(f, v);
	return false;
}

static void fa_clear(struct cache_fa *f)
{
	f->used = 0;
	f->head = f->tail = FA_NONE;
	memset(f->slot, 0xff, ((size_t)f->hmask + 1) * sizeof *f->slot);
}

static void fa_free(struct cache_fa *f)
{
	if (!f)
		return;
	free(f->key);
	free(f->prev);
	free(f->next);
	free(f->slot);
	free(f);
}

/* Returns: a fully associative set of @n ways, or NULL (out of memory). */
static struct cache_fa *fa_new(uint32_t n)
{
	struct cache_fa *f = calloc(1, sizeof *f);
	if (!f)
		return NULL;
	uint32_t h = 16;
	while (h < 2 * n)
		h <<= 1;
	f->n = n;
	f->hmask = h - 1;
	f->key = malloc(n * sizeof *f->key);
	f->prev = malloc(n * sizeof *f->prev);
	f->next = malloc(n * sizeof *f->next);
	f->slot = malloc(h * sizeof *f->slot);
	if (!f->key || !f->prev || !f->next || !f->slot) {
		fa_free(f);
		return NULL;
	}
	fa_clear(f);
	return f;
}

static uint32_t log2u(uint64_t x)
{
	uint32_t s = 0;
	while ((1ull << s) < x)
		s++;
	return s;
}

int cache_sim_init(struct cache_sim *s, const struct cache_cfg *c, double clock,
		   uint64_t page_size, struct mm_err *e)
{
	memset(s, 0, sizeof *s);
	s->n = c->nlevels;
	s->page_shift = log2u(c->tlb_page ? c->tlb_page : page_size);
	s->issue = 1.0 / clock;
	s->tlb_refill = c->tlb_refill;
	s->mem_lat = c->mem_latency;
	uint64_t l1 = c->nlevels ? c->lv[0].line : 64;
	s->mem_fill = (double)l1 / c->mem_bandwidth;
	for (int i = 0; i < c->nlevels; i++) {
		const struct cache_level_cfg *l = &c->lv[i];
		struct cache_level *v = &s->lv[i];
		uint64_t lines = l->size / l->line;
		v->ways = l->assoc ? (uint32_t)l->assoc : (uint32_t)lines;
		v->sets = (uint32_t)(lines / v->ways);
		v->set_mask = v->sets - 1;
		v->ways_shift = log2u(v->ways);
		v->line_shift = log2u(l->line);
		v->virt = l->indexing == CACHE_VIRTUAL;
		v->lat = l->latency;
		v->fill = (double)l1 / l->bandwidth;
		v->tag = calloc(lines, sizeof *v->tag);
		if (!v->tag) {
			cache_sim_fini(s);
			return mm_errf(e, NULL, NULL, "out of memory for the %s cache tags", l->name);
		}
	}
	if (c->tlb_entries) {
		s->tways = c->tlb_assoc ? (uint32_t)c->tlb_assoc : (uint32_t)c->tlb_entries;
		s->tsets = (uint32_t)c->tlb_entries / s->tways;
		if (s->tsets == 1 && s->tways > 8)
			s->tlb_fa = fa_new(s->tways);
		else
			s->tlb = calloc((size_t)c->tlb_entries, sizeof *s->tlb);
		if (!s->tlb && !s->tlb_fa) {
			cache_sim_fini(s);
			return mm_errf(e, NULL, NULL, "out of memory for the TLB");
		}
	}
	s->last_vpn = UINT64_MAX;
	return 0;
}

void cache_sim_fini(struct cache_sim *s)
{
	for (int i = 0; i < s->n; i++) {
		free(s->lv[i].tag);
		s->lv[i].tag = NULL;
	}
	free(s->tlb);
	s->tlb = NULL;
	fa_free(s->tlb_fa);
	s->tlb_fa = NULL;
}

void cache_flush(struct cache_sim *s)
{
	for (int i = 0; i < s->n; i++)
		memset(s->lv[i].tag, 0, (size_t)s->lv[i].sets * s->lv[i].ways * sizeof(uint64_t));
	if (s->tlb)
		memset(s->tlb, 0, (size_t)s->tsets * s->tways * sizeof(uint64_t));
	if (s->tlb_fa)
		fa_clear(s->tlb_fa);
	s->last_vpn = UINT64_MAX;
}

/* Look @key up in the @ways tags at @t (MRU first) and make it the MRU.
 * Returns: true on a hit. */
static inline bool lru_access(uint64_t *t, uint32_t ways, uint64_t key)
{
	if (t[0] == key)
		return true;
	uint32_t j = 1;
	while (j < ways && t[j] != key)
		j++;
	bool hit = j < ways;
	if (!hit)
		j = ways - 1;   /* the LRU way is replaced */
	memmove(t + 1, t, j * sizeof *t);
	t[0] = key;
	return hit;
}

/* One level: look the line of @a / @pa up and fill it on a miss.
 * Returns: true on a hit. */
static inline bool level_access(struct cache_level *l, uint64_t a, uint64_t pa)
{
	uint64_t ix = (l->virt ? a : pa) >> l->line_shift;
	uint64_t key = (pa >> l->line_shift) + 1;
	uint64_t *set = l->tag + ((size_t)(ix & l->set_mask) << l->ways_shift);
	if (set[0] == key)
		return true;
	if (l->ways == 1) {
		set[0] = key;
		return false;
	}
	if (l->ways == 2) {
		bool hit = set[1] == key;
		set[1] = set[0];
		set[0] = key;
		return hit;
	}
	return lru_access(set, l->ways, key);
}

#define DIRTY (1ull << 63)   /* in a last-level tag: the line is dirty */

/* The last level, with dirty bits: look the line up, fill it on a miss (the
 * evicted LRU line, if dirty, is counted in @wb) and mark it dirty on a store.
 * Returns: true on a hit. */
static inline bool last_access(struct cache_level *l, uint64_t a, uint64_t pa, bool wr,
			       uint64_t *wb)
{
	uint64_t ix = (l->virt ? a : pa) >> l->line_shift;
	uint64_t key = (pa >> l->line_shift) + 1;
	uint64_t *t = l->tag + ((size_t)(ix & l->set_mask) << l->ways_shift);
	uint32_t j = 0;
	while (j < l->ways && (t[j] & ~DIRTY) != key)
		j++;
	bool hit = j < l->ways;
	uint64_t d = wr ? DIRTY : 0;
	if (hit) {
		d |= t[j] & DIRTY;
	} else {
		j = l->ways - 1;   /* the LRU way is replaced */
		*wb += (t[j] & DIRTY) != 0;
	}
	memmove(t + 1, t, j * sizeof *t);
	t[0] = key | d;
	return hit;
}

double cache_run(struct cache_sim *s, const uint64_t *va, size_t n, unsigned flags,
		 cache_xlate_fn xlate, void *ctx)
{
	const uint32_t ps = s->page_shift;
	const uint64_t pmask = (1ull << ps) - 1;
	uint64_t hits[CACHE_MAX_LEVELS + 1] = { 0 };   /* [n] = memory */
	uint64_t refs = 0, tlb_miss = 0, wb = 0;
	const int nl = s->n;

	/* translations are remembered within one batch only: between batches the
	 * page table may change (reclaim, exit) */
	s->last_vpn = s->prev_vpn = UINT64_MAX;

	for (size_t r = 0; r < n; r++) {
		const bool wr = va[r] & CACHE_WRITE;
		uint64_t a = va[r] & ~(CACHE_WRITE | CACHE_PHYS);
		uint64_t vpn = a >> ps;
		uint64_t pa;
		if (va[r] & CACHE_PHYS) {
			pa = a;   /* the direct map: no TLB, the same index bits */
		} else if (vpn != s->last_vpn) {
			if (s->tlb_fa) {
				tlb_miss += !fa_access(s->tlb_fa, vpn);
			} else if (s->tlb) {
				uint64_t *set = s->tlb + (size_t)(vpn & (s->tsets - 1)) * s->tways;
				tlb_miss += !lru_access(set, s->tways, vpn + 1);
			}
			uint64_t base;
			if (vpn == s->prev_vpn) {
				base = s->prev_base;   /* the translation before the last one */
			} else {
				uint32_t pfn = xlate(ctx, vpn);
				if (pfn == CACHE_NO_PFN)
					continue;
				base = (uint64_t)pfn << ps;
			}
			s->prev_vpn = s->last_vpn;
			s->prev_base = s->last_base;
			s->last_vpn = vpn;
			s->last_base = base;
			pa = base | (a & pmask);
		} else {
			pa = s->last_base | (a & pmask);
		}
		refs++;
		int i = 0;
		while (i < nl - 1 && !level_access(&s->lv[i], a, pa))
			i++;
		if (i == nl - 1 && !last_access(&s->lv[i], a, pa, wr, &wb))
			i++;
		hits[i]++;
	}
	/* the time from the counts: dependent loads wait each level's latency,
	 * independent ones issue one a cycle plus the line fill of their level */
	const bool dep = flags & CACHE_DEPENDENT;
	double t = (double)tlb_miss * s->tlb_refill + (double)wb * s->mem_fill;
	for (int i = 0; i <= nl; i++) {
		double lat = i < nl ? s->lv[i].lat : s->mem_lat;
		double fill = i == 0 ? 0 : i < nl ? s->lv[i].fill : s->mem_fill;
		t += (double)hits[i] * (dep ? lat : fill + s->issue);
		if (i < nl)
			s->st.hits[i] += hits[i];
	}
	s->st.mem += hits[nl];
	s->st.refs += refs;
	s->st.tlb_misses += tlb_miss;
	s->st.writebacks += wb;
	return t;
}

/* The word loop of cache_copy() and cache_read(): per first-level line one load of
 * @src and, when @copy, one store of @dst through cache_run(); the other 8-byte
 * words of the line hit the first level at their issue cycle (a load, and a store
 * when @copy).  Returns: seconds. */
static double word_loop(struct cache_sim *s, uint64_t dst, uint64_t src, uint64_t n, bool copy,
			cache_xlate_fn xlate, void *ctx)
{
	enum { LOOP_BATCH = 512 };
	uint64_t refs[LOOP_BATCH];
	const uint64_t line = s->n ? 1ull << s->lv[0].line_shift : 64;
	size_t k = 0;
	uint64_t lines = 0;
	double t = 0;
	for (uint64_t o = 0; o < n; o += line) {
		refs[k++] = src + o;
		if (copy)
			refs[k++] = (dst + o) | CACHE_WRITE;
		lines++;
		if (k == LOOP_BATCH) {
			t += cache_run(s, refs, k, 0, xlate, ctx);
			k = 0;
		}
	}
	if (k)
		t += cache_run(s, refs, k, 0, xlate, ctx);
	uint64_t words = (n + 7) / 8;
	if (words > lines)
		t += (double)((copy ? 2 : 1) * (words - lines)) * s->issue;
	return t;
}

double cache_copy(struct cache_sim *s, uint64_t dst, uint64_t src, uint64_t n,
		  cache_xlate_fn xlate, void *ctx)
{
	return word_loop(s, dst, src, n, true, xlate, ctx);
}

double cache_read(struct cache_sim *s, uint64_t src, uint64_t n, cache_xlate_fn xlate, void *ctx)
{
	return word_loop(s, 0, src, n, false, xlate, ctx);
}

json_t *cache_stats_json(const struct cache_sim *s)
{
	json_t *o = json_object();
	json_object_set_new(o, "refs", json_integer((json_int_t)s->st.refs));
	for (int i = 0; i < s->n; i++) {
		char k[32];
		snprintf(k, sizeof k, "hits_l%d", i + 1);
		json_object_set_new(o, k, json_integer((json_int_t)s->st.hits[i]));
	}
	json_object_set_new(o, "memory", json_integer((json_int_t)s->st.mem));
	json_object_set_new(o, "tlb_misses", json_integer((json_int_t)s->st.tlb_misses));
	json_object_set_new(o, "writebacks", json_integer((json_int_t)s->st.writebacks));
	return o;
}
