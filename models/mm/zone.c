/*
 * zone.c - physical memory at boot: zone layout, reservations, watermarks, pcp sizes.
 *
 * Mirrors what Linux 2.6.14/2.6.15 does between paging_init() and
 * init_per_zone_pages_min() [K2614 mm/page_alloc.c; kernel-mechanisms.md 0.1]:
 *   1. zone boundaries from the architecture and mem= (section "layout" below);
 *   2. every page starts reserved-or-unowned; the kernel image / bootmem
 *      (kernel_reserved, from pfn 0) and mem_map (struct_page_bytes x pages, from
 *      the bootmem goal MAX_DMA_ADDRESS = 16 MiB on i386/x86-64) stay PG_reserved;
 *   3. min_free_kbytes = int_sqrt(16 x lowmem_kB) clamped [128, 65536];
 *      setup_per_zone_pages_min(); setup_per_zone_lowmem_reserve();
 *   4. zone_batchsize() / setup_pageset() for the per-CPU lists;
 *   5. zonelists as build_zonelists() (non-NUMA): for class c, the non-empty zones
 *      of index <= c, highest first.
 * The 2.4 watermark variant (per zone realsize/128 clamped [20, 255], low 2x,
 * high 3x, no lowmem_reserve, no per-CPU lists) is selected by watermark_style.
 * mm_phys_layout() does all of this arithmetically (reserved pages are counted
 * per zone from the two reserved ranges), in O(zones): it is what a 2 TiB machine
 * is checked and unit-tested with.  mm_phys_init() adds the page array, O(pages),
 * allocated on the host's huge pages (emu/core/hostmem.c) and written once; the
 * machine sizes it accepts are MM_MAX_MEMORY (zone.h) and 64 GiB on i386.
 */
#include "models/mm/zone.h"

#include <stdlib.h>
#include <string.h>

#include "emu/core/hostmem.h"

#define KiB 1024ull
#define MiB (1024ull * 1024)
#define GiB (1024ull * 1024 * 1024)

const char *const mm_arch_names[] = { "i386", "x86_64", "alpha", "flat", NULL };
static const char *const wmark_names[] = { "2.6", "2.4", NULL };
static const char *const zone_names[MM_NR_ZONES] = { "DMA", "DMA32", "Normal", "HighMem",
						     "EasyRclm" };

const struct mm_param mm_phys_params[] = {
	MM_PARAM_ENUM(struct mm_phys_cfg, arch, "arch", mm_arch_names, "\"i386\"",
		      "zone layout: i386 DMA<16MiB, Normal<896MiB, HighMem; x86_64 DMA<16MiB, "
		      "DMA32<4GiB, Normal; alpha one DMA zone (2.4.17 asm-alpha/dma.h); "
		      "flat one Normal zone, no reservations by default (tests, teaching)"),
	MM_PARAM(struct mm_phys_cfg, memory, "memory", MM_P_SIZE, 1.0 * MiB, (double)MM_MAX_MEMORY,
		 "\"1GiB\"",
		 "usable memory (mem=): memory above this is ignored; at most 64GiB on i386 (PAE)"),
	MM_PARAM(struct mm_phys_cfg, page_size, "page_size", MM_P_SIZE, 0, 65536, "0",
		 "page size; 0 = arch default (4KiB; 8KiB on alpha)"),
	MM_PARAM(struct mm_phys_cfg, kernel_reserved, "kernel_reserved", MM_P_SIZE, 0,
		 (double)MM_MAX_MEMORY, "\"4MiB\"",
		 "reserved from physical 0: BIOS area, kernel image, bootmem (calibration: 4MiB "
		 "+ mem_map gives LowTotal 860MB on 4GB i386 [H5])"),
	MM_PARAM(struct mm_phys_cfg, idle_footprint, "idle_footprint", MM_P_SIZE, 0,
		 (double)MM_MAX_MEMORY, "0",
		 "what a booted, idle box holds outside the page cache (boot-time hash tables, "
		 "slab at idle, page tables, the daemons' anonymous memory): reserved right "
		 "after mem_map, above ZONE_DMA, where the page allocator serves kernel "
		 "allocations from the highest zone first; 0: none (calibration)"),
	MM_PARAM(struct mm_phys_cfg, struct_page_bytes, "struct_page_bytes", MM_P_INT, -1, 256, "-1",
		 "sizeof(struct page) charged for mem_map; -1 = arch (32 on i386, 56 on 64-bit, "
		 "0 on flat) [K2614 include/linux/mm.h]"),
	MM_PARAM(struct mm_phys_cfg, cpus, "cpus", MM_P_INT, 1, MM_MAX_CPUS, "1",
		 "CPUs (one hot and one cold per-CPU list per zone each)"),
	MM_PARAM(struct mm_phys_cfg, min_free_kbytes, "min_free_kbytes", MM_P_INT, 0, 4194304, "0",
		 "vm.min_free_kbytes; 0 = computed sqrt(16 x lowmem kB) clamped [128, 65536]"),
	MM_PARAM_ENUM(struct mm_phys_cfg, watermark_style, "watermark_style", wmark_names,
		      "\"2.6\"",
		      "2.6: 2.6.14 watermarks + lowmem_reserve + per-CPU lists; 2.4: "
		      "realsize/128 clamped [20,255], low 2x, high 3x, incremental min"),
	MM_PARAM(struct mm_phys_cfg, lowmem_reserve_ratio, "lowmem_reserve_ratio", MM_P_INTLIST, 1,
		 1e9, "[256, 256, 32, 32]",
		 "vm.lowmem_reserve_ratio for DMA, DMA32, Normal, HighMem (2.6.15 {256,256,32}; "
		 "32 for HighMem from the ZONE_EASYRCLM patch [A3])"),
	MM_PARAM(struct mm_phys_cfg, kernelcore, "kernelcore", MM_P_SIZE, 0, (double)MM_MAX_MEMORY,
		 "0",
		 "kernelcore= of the zone-based series [A3]: memory above it forms ZONE_EASYRCLM; "
		 "0 = no EasyRclm zone"),
	MM_PARAM_END
};

static unsigned fls32(uint32_t x)
{
	return x ? 32u - (unsigned)__builtin_clz(x) : 0u;
}

static uint64_t int_sqrt(uint64_t x)
{
	uint64_t r = 0, b = 1ull << 62;
	while (b > x)
		b >>= 2;
	while (b) {
		if (x >= r + b) {
			x -= r + b;
			r = (r >> 1) + b;
		} else {
			r >>= 1;
		}
		b >>= 2;
	}
	return r;
}

/* zone_batchsize() of 2.6.14. */
static uint32_t zone_batchsize(const struct mm_phys *phys, const struct zone *z)
{
	uint32_t batch = z->present / 1024;
	if ((uint64_t)batch * phys->page_size > 512 * KiB)
		batch = (uint32_t)(512 * KiB / phys->page_size);
	batch /= 4;
	if (batch < 1)
		batch = 1;
	batch = 1u << fls32(batch + batch / 2);
	if (fls32(batch) >= phys->page_shift + MM_MAX_ORDER - 2)
		batch = phys->page_shift + ((MM_MAX_ORDER - 1 - phys->page_shift) / 2);
	return batch;
}

static void setup_pageset(struct mm_phys *phys, struct zone *z)
{
	uint32_t b = zone_batchsize(phys, z);
	for (uint32_t c = 0; c < phys->ncpus; c++) {
		struct mm_pcp *hot = &z->pageset[c].pcp[0], *cold = &z->pageset[c].pcp[1];
		hot->low = cold->low = 0;
		if (phys->cfg.watermark_style == MM_WMARK_24) {
			/* 2.4 has no per-CPU lists [K2417] */
			hot->high = hot->batch = cold->high = cold->batch = 0;
			continue;
		}
		hot->high = 6 * b;
		hot->batch = b > 1 ? b : 1;
		cold->high = 2 * b;
		cold->batch = b / 2 > 1 ? b / 2 : 1;
	}
}

void mm_phys_setup_watermarks(struct mm_phys *phys)
{
	struct zone *zs = phys->zones;

	if (phys->cfg.watermark_style == MM_WMARK_24) {
		/* free_area_init_core of 2.4.17: ratio 128, min 20, max 255 per zone */
		phys->min_free_kbytes = 0;
		for (int j = 0; j < MM_NR_ZONES; j++) {
			uint32_t m = zs[j].present / 128;
			if (m < 20)
				m = 20;
			if (m > 255)
				m = 255;
			if (!zs[j].present)
				m = 0;
			zs[j].pages_min = m;
			zs[j].pages_low = 2 * m;
			zs[j].pages_high = 3 * m;
			memset(zs[j].lowmem_reserve, 0, sizeof zs[j].lowmem_reserve);
		}
		return;
	}

	/* init_per_zone_pages_min(): lowmem = nr_free_buffer_pages() at boot = present
	 * pages of the GFP_USER zonelist (all !highmem zones; pages_high is still 0). */
	uint64_t lowmem_pages = 0;
	for (int j = 0; j < MM_NR_ZONES; j++)
		if (!zs[j].highmem)
			lowmem_pages += zs[j].present;
	uint64_t mfk = (uint64_t)phys->cfg.min_free_kbytes;
	if (!mfk) {
		mfk = int_sqrt(lowmem_pages * (phys->page_size >> 10) * 16);
		if (mfk < 128)
			mfk = 128;
		if (mfk > 65536)
			mfk = 65536;
	}
	phys->min_free_kbytes = (uint32_t)mfk;

	/* setup_per_zone_pages_min() */
	uint64_t pages_min = mfk >> (phys->page_shift - 10);
	for (int j = 0; j < MM_NR_ZONES; j++) {
		struct zone *z = &zs[j];
		if (z->highmem) {
			uint32_t m = z->present / 1024;
			if (m < MM_SWAP_CLUSTER_MAX)
				m = MM_SWAP_CLUSTER_MAX;
			if (m > 128)
				m = 128;
			z->pages_min = m;
		} else {
			z->pages_min = lowmem_pages ? (uint32_t)(pages_min * z->present / lowmem_pages) : 0;
		}
		if (!z->present)
			z->pages_min = 0;
		z->pages_low = z->pages_min * 5 / 4;
		z->pages_high = z->pages_min * 6 / 4;
	}

	/* setup_per_zone_lowmem_reserve() */
	for (int j = 0; j < MM_NR_ZONES; j++) {
		uint64_t present = zs[j].present;
		zs[j].lowmem_reserve[j] = 0;
		for (int idx = j - 1; idx >= 0; idx--) {
			int64_t ratio = idx < phys->cfg.lowmem_reserve_ratio.n
						? phys->cfg.lowmem_reserve_ratio.v[idx]
						: 1;
			if (ratio < 1)
				ratio = 1;
			zs[idx].lowmem_reserve[j] = (uint32_t)(present / (uint64_t)ratio);
			present += zs[idx].present;
		}
	}
}

/* ---- layout ---- */

/* Zone end addresses in bytes (exclusive) per arch, before mem= and kernelcore cuts. */
static void arch_zone_ends(int arch, uint64_t ends[MM_NR_ZONES])
{
	for (int j = 0; j < MM_NR_ZONES; j++)
		ends[j] = 0;
	switch (arch) {
	case MM_ARCH_I386:
		/* MAX_DMA_ADDRESS 16 MiB; MAXMEM = 1 GiB - 128 MiB vmalloc reserve */
		ends[MM_ZONE_DMA] = 16 * MiB;
		ends[MM_ZONE_DMA32] = 16 * MiB;
		ends[MM_ZONE_NORMAL] = 896 * MiB;
		ends[MM_ZONE_HIGHMEM] = UINT64_MAX;
		break;
	case MM_ARCH_X86_64:
		ends[MM_ZONE_DMA] = 16 * MiB;
		ends[MM_ZONE_DMA32] = 4 * GiB;
		ends[MM_ZONE_NORMAL] = UINT64_MAX;
		ends[MM_ZONE_HIGHMEM] = UINT64_MAX;
		break;
	case MM_ARCH_ALPHA:
		/* 2.4.17 ALPHA_MAX_DMA_ADDRESS = ~0UL on the DS10 (Tsunami): all memory DMA */
		for (int j = 0; j < MM_ZONE_EASYRCLM; j++)
			ends[j] = UINT64_MAX;
		break;
	default: /* flat */
		ends[MM_ZONE_DMA] = 0;
		ends[MM_ZONE_DMA32] = 0;
		ends[MM_ZONE_NORMAL] = UINT64_MAX;
		ends[MM_ZONE_HIGHMEM] = UINT64_MAX;
		break;
	}
	ends[MM_ZONE_EASYRCLM] = UINT64_MAX;
}

int mm_phys_check_memory(const struct mm_phys_cfg *cfg, const char *file, const char *path,
			 struct mm_err *e)
{
	if (cfg->arch == MM_ARCH_I386 && cfg->memory > MM_MAX_MEMORY_I386)
		return mm_errf(e, file, path, "expected at most 64GiB on i386 (PAE)");
	if (cfg->memory > MM_MAX_MEMORY)
		return mm_errf(e, file, path, "expected at most 2TiB");
	return 0;
}

/* Count the pages of [@from, @from + @n) in the zones they fall in (reserved). */
static void count_reserved(struct mm_phys *phys, uint64_t from, uint64_t n)
{
	for (int j = 0; j < MM_NR_ZONES; j++) {
		struct zone *z = &phys->zones[j];
		uint64_t lo = from > z->start_pfn ? from : z->start_pfn;
		uint64_t hi = from + n < (uint64_t)z->start_pfn + z->spanned
				      ? from + n : (uint64_t)z->start_pfn + z->spanned;
		if (hi > lo)
			z->reserved += (uint32_t)(hi - lo);
	}
}

/* The reserved ranges: the kernel image and bootmem from pfn 0, mem_map at the
 * bootmem goal.  Returns: the first pfn of mem_map (phys->reserved_memmap pages). */
static uint32_t memmap_start(const struct mm_phys *phys)
{
	const struct mm_phys_cfg *cfg = &phys->cfg;
	uint64_t goal = (cfg->arch == MM_ARCH_I386 || cfg->arch == MM_ARCH_X86_64)
				? (16 * MiB) >> phys->page_shift : 0;
	if (goal < phys->reserved_image)
		goal = phys->reserved_image;
	if (goal + phys->reserved_memmap + phys->reserved_idle > phys->nr_pages)
		goal = phys->reserved_image;
	return (uint32_t)goal;
}

int mm_phys_layout(struct mm_phys *phys, const struct mm_phys_cfg *cfg, struct mm_err *e)
{
	memset(phys, 0, sizeof *phys);
	phys->cfg = *cfg;

	if (cfg->arch < 0 || cfg->arch >= MM_NR_ARCH)
		return mm_errf(e, NULL, "machine.arch", "expected one of i386, x86_64, alpha, flat");
	if (cfg->watermark_style != MM_WMARK_26 && cfg->watermark_style != MM_WMARK_24)
		return mm_errf(e, NULL, "machine.watermark_style", "expected \"2.6\" or \"2.4\"");
	uint64_t ps = cfg->page_size ? cfg->page_size : (cfg->arch == MM_ARCH_ALPHA ? 8192 : 4096);
	if (ps < 4096 || ps > 65536 || (ps & (ps - 1)))
		return mm_errf(e, NULL, "machine.page_size",
			       "expected a power of two from 4KiB to 64KiB, got %llu",
			       (unsigned long long)ps);
	if (cfg->cpus < 1 || cfg->cpus > MM_MAX_CPUS)
		return mm_errf(e, NULL, "machine.cpus", "expected 1..%d", MM_MAX_CPUS);
	if (cfg->lowmem_reserve_ratio.n != MM_NR_ZONES - 1)
		return mm_errf(e, NULL, "machine.lowmem_reserve_ratio",
			       "expected %d integers (DMA, DMA32, Normal, HighMem)", MM_NR_ZONES - 1);
	if (mm_phys_check_memory(cfg, NULL, "machine.memory", e))
		return -1;

	phys->page_size = (uint32_t)ps;
	phys->page_shift = (unsigned)__builtin_ctzll(ps);
	phys->ncpus = (uint32_t)cfg->cpus;
	uint64_t nr = cfg->memory >> phys->page_shift; /* mem= drops a partial page */
	if (nr < 256)
		return mm_errf(e, NULL, "machine.memory",
			       "expected at least 256 pages (%lluKiB), got %llu bytes",
			       (unsigned long long)(256 * ps / KiB), (unsigned long long)cfg->memory);
	phys->nr_pages = (uint32_t)nr;

	/* ---- zone layout: arch boundaries, cut at mem= and at kernelcore ---- */
	uint64_t ends[MM_NR_ZONES];
	arch_zone_ends(cfg->arch, ends);
	uint64_t kc_pfn = nr;
	if (cfg->kernelcore) {
		kc_pfn = cfg->kernelcore >> phys->page_shift;
		kc_pfn &= ~((1ull << (MM_MAX_ORDER - 1)) - 1); /* whole MAX_ORDER blocks */
		if (kc_pfn == 0)
			return mm_errf(e, NULL, "machine.kernelcore",
				       "expected at least one %u-page block",
				       1u << (MM_MAX_ORDER - 1));
		if (kc_pfn > nr)
			kc_pfn = nr;
	}
	uint64_t start = 0;
	for (int j = 0; j < MM_NR_ZONES; j++) {
		struct zone *z = &phys->zones[j];
		uint64_t end = ends[j] == UINT64_MAX ? nr : ends[j] >> phys->page_shift;
		if (end > nr)
			end = nr;
		if (j != MM_ZONE_EASYRCLM && end > kc_pfn)
			end = kc_pfn;
		if (end < start)
			end = start;
		z->name = zone_names[j];
		z->idx = j;
		z->phys = phys;
		z->highmem = j == MM_ZONE_HIGHMEM || j == MM_ZONE_EASYRCLM;
		z->start_pfn = (uint32_t)start;
		z->spanned = (uint32_t)(end - start);
		z->present = z->spanned;
		z->prev_priority = z->temp_priority = MM_DEF_PRIORITY;
		start = end;
		if (!z->present)
			continue;
		z->pageset = calloc(phys->ncpus, sizeof *z->pageset);
		if (!z->pageset) {
			mm_phys_fini(phys);
			return mm_errf(e, NULL, "machine.cpus", "out of host memory");
		}
		for (uint32_t c = 0; c < phys->ncpus; c++) {
			plist_init(&z->pageset[c].pcp[0].list);
			plist_init(&z->pageset[c].pcp[1].list);
		}
	}

	/* ---- reservations: kernel image/bootmem from 0, mem_map at the bootmem goal ---- */
	int64_t spb = cfg->struct_page_bytes;
	if (spb < 0)
		spb = cfg->arch == MM_ARCH_I386 ? 32 : cfg->arch == MM_ARCH_FLAT ? 0 : 56;
	uint64_t kr = cfg->kernel_reserved;
	uint64_t img = (kr + ps - 1) >> phys->page_shift;
	uint64_t mm = ((uint64_t)spb * nr + ps - 1) >> phys->page_shift;
	uint64_t idle = (cfg->idle_footprint + ps - 1) >> phys->page_shift;
	if (img + mm + idle + 256 > nr) {
		mm_phys_fini(phys);
		return mm_errf(e, NULL, "machine.memory",
			       "%llu bytes leave fewer than 256 usable pages after kernel_reserved "
			       "(%llu pages), mem_map (%llu pages) and idle_footprint (%llu pages)",
			       (unsigned long long)cfg->memory, (unsigned long long)img,
			       (unsigned long long)mm, (unsigned long long)idle);
	}
	phys->reserved_image = (uint32_t)img;
	phys->reserved_memmap = (uint32_t)mm;
	phys->reserved_idle = (uint32_t)idle;
	count_reserved(phys, 0, img);
	count_reserved(phys, memmap_start(phys), mm + idle);

	/* ---- watermarks, pcp, zonelists ---- */
	mm_phys_setup_watermarks(phys);
	for (int j = 0; j < MM_NR_ZONES; j++)
		if (phys->zones[j].present)
			setup_pageset(phys, &phys->zones[j]);
	for (int c = 0; c < MM_NR_ZONES; c++) {
		int k = 0;
		for (int j = c; j >= 0; j--)
			if (phys->zones[j].present)
				phys->zonelists[c][k++] = &phys->zones[j];
		phys->zonelists[c][k] = NULL;
	}
	return 0;
}

/* PG_reserved with a reference on [@from, @from + @n) (counted by count_reserved). */
static void mark_reserved(struct mm_phys *phys, uint32_t from, uint32_t n)
{
	for (uint32_t pfn = from; pfn < from + n; pfn++) {
		struct page *p = &phys->pages[pfn];
		page_set(p, PG_reserved);
		p->count = 1;
	}
}

int mm_phys_init(struct mm_phys *phys, const struct mm_phys_cfg *cfg, struct mm_err *e)
{
	if (mm_phys_layout(phys, cfg, e))
		return -1;
	/* mem_map: zeroed, and on the host's huge pages where it has them (hostmem.c) */
	phys->pages = mm_calloc_huge(phys->nr_pages, sizeof *phys->pages);
	if (!phys->pages) {
		unsigned n = phys->nr_pages;   /* mm_phys_fini() clears it ("for 0 pages") */
		mm_phys_fini(phys);
		return mm_errf(e, NULL, "machine.memory", "out of host memory for %u pages", n);
	}
	for (int j = 0; j < MM_NR_ZONES; j++) {
		struct zone *z = &phys->zones[j];
		for (uint32_t pfn = z->start_pfn; pfn < z->start_pfn + z->spanned; pfn++) {
			struct page *p = &phys->pages[pfn];
			p->zone = (uint8_t)j;
			p->lru_prev = p->lru_next = PFN_NONE;
			if (z->highmem && cfg->arch == MM_ARCH_I386)
				page_set(p, PG_highmem);
		}
	}
	mark_reserved(phys, 0, phys->reserved_image);
	mark_reserved(phys, memmap_start(phys), phys->reserved_memmap + phys->reserved_idle);
	return 0;
}

void mm_phys_fini(struct mm_phys *phys)
{
	if (!phys)
		return;
	for (int j = 0; j < MM_NR_ZONES; j++) {
		free(phys->zones[j].pageset);
		phys->zones[j].pageset = NULL;
	}
	free(phys->pages);
	phys->pages = NULL;
	phys->nr_pages = 0;
}

bool zone_watermark_ok(const struct zone *z, unsigned order, uint32_t mark, int classzone_idx,
		       bool can_try_harder, bool gfp_high)
{
	/* free_pages may go negative - that's OK */
	int64_t min = mark, free_pages = (int64_t)z->free_pages - (1ll << order) + 1;

	if (gfp_high)
		min -= min / 2;
	if (can_try_harder)
		min -= min / 4;
	if (free_pages <= min + (int64_t)z->lowmem_reserve[classzone_idx])
		return false;
	for (unsigned o = 0; o < order; o++) {
		/* at the next order, this order's pages become unavailable */
		free_pages -= (int64_t)z->nr_free[o] << o;
		/* require fewer higher-order pages to be free */
		min >>= 1;
		if (free_pages <= min)
			return false;
	}
	return true;
}

uint64_t mm_phys_free_pages(const struct mm_phys *phys)
{
	uint64_t n = 0;
	for (int j = 0; j < MM_NR_ZONES; j++)
		n += phys->zones[j].free_pages;
	return n;
}

json_t *mm_phys_zoneinfo(const struct mm_phys *phys)
{
	json_t *arr = json_array();
	for (int j = 0; j < MM_NR_ZONES; j++) {
		const struct zone *z = &phys->zones[j];
		if (!z->present)
			continue;
		json_t *lr = json_array();
		for (int k = 0; k < MM_NR_ZONES; k++)
			json_array_append_new(lr, json_integer(z->lowmem_reserve[k]));
		json_t *o = json_pack("{s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:o}",
				      "name", z->name, "start_pfn", (json_int_t)z->start_pfn,
				      "spanned", (json_int_t)z->spanned, "present",
				      (json_int_t)z->present, "managed",
				      (json_int_t)(z->present - z->reserved), "reserved",
				      (json_int_t)z->reserved, "free", (json_int_t)z->free_pages,
				      "pcp", (json_int_t)z->nr_pcp, "min", (json_int_t)z->pages_min,
				      "low", (json_int_t)z->pages_low, "high",
				      (json_int_t)z->pages_high, "lowmem_reserve", lr);
		if (z->pageset)
			json_object_set_new(
				o, "pcp_sizes",
				json_pack("{s:{s:I, s:I}, s:{s:I, s:I}}", "hot", "high",
					  (json_int_t)z->pageset[0].pcp[0].high, "batch",
					  (json_int_t)z->pageset[0].pcp[0].batch, "cold", "high",
					  (json_int_t)z->pageset[0].pcp[1].high, "batch",
					  (json_int_t)z->pageset[0].pcp[1].batch));
		json_array_append_new(arr, o);
	}
	return arr;
}

