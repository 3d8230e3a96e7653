/*
 * test_zone.c - zone layout, reservations, watermarks, lowmem_reserve, per-CPU list
 * sizes, zonelists and zone_watermark_ok() against hand-computed 2.6.14 numbers.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "models/alloc/alloc.h"
#include "models/mm/mm_check.h"
#include "models/mm/zone.h"

/* Build @phys from machine JSON text; Returns: 0 or -1 (message in @e). */
static int make(struct mm_phys *phys, const char *json, struct mm_err *e)
{
	struct mm_phys_cfg cfg;
	json_error_t je;
	json_t *o = json_loads(json, 0, &je);
	assert_non_null(o);
	int rc = mm_params_load(mm_phys_params, &cfg, o, "t.json", "machine", NULL, e);
	json_decref(o);
	if (rc)
		return rc;
	return mm_phys_init(phys, &cfg, e);
}

static void test_x86_64_1008m(void **state)
{
	struct mm_phys ph;
	struct mm_err e = { "" };
	assert_int_equal(make(&ph, "{\"arch\":\"x86_64\",\"memory\":\"1008MiB\",\"cpus\":2}", &e), 0);
	struct zone *dma = &ph.zones[MM_ZONE_DMA], *d32 = &ph.zones[MM_ZONE_DMA32];
	/* 1008 MiB = 258048 pages: DMA 0..16MiB = 4096 pages, DMA32 the rest */
	assert_int_equal(ph.nr_pages, 258048);
	assert_int_equal(dma->present, 4096);
	assert_int_equal(d32->start_pfn, 4096);
	assert_int_equal(d32->present, 253952);
	assert_int_equal(ph.zones[MM_ZONE_NORMAL].present, 0);
	assert_int_equal(ph.zones[MM_ZONE_HIGHMEM].present, 0);
	/* reserved: kernel_reserved 4 MiB = 1024 pages from pfn 0 (DMA);
	 * mem_map 56 B x 258048 = 14450688 B = 3528 pages at 16 MiB (DMA32) */
	assert_int_equal(dma->reserved, 1024);
	assert_int_equal(d32->reserved, 3528);
	/* lowmem = 258048 pages x 4 kB = 1032192 kB; sqrt(16 x 1032192) = sqrt(16515072)
	 * = 4063.9 -> 4063 kB; pages_min total = 4063 >> 2 = 1015 pages */
	assert_int_equal(ph.min_free_kbytes, 4063);
	/* DMA:   1015 x 4096 / 258048 = 16.1 -> 16; low 16x5/4 = 20; high 16x6/4 = 24 */
	assert_int_equal(dma->pages_min, 16);
	assert_int_equal(dma->pages_low, 20);
	assert_int_equal(dma->pages_high, 24);
	/* DMA32: 1015 x 253952 / 258048 = 998.9 -> 998; low 4990/4 = 1247; high 5988/4 = 1497 */
	assert_int_equal(d32->pages_min, 998);
	assert_int_equal(d32->pages_low, 1247);
	assert_int_equal(d32->pages_high, 1497);
	/* lowmem_reserve {256,256,32}: DMA keeps 253952/256 = 992 from DMA32+ classes */
	assert_int_equal(dma->lowmem_reserve[MM_ZONE_DMA], 0);
	assert_int_equal(dma->lowmem_reserve[MM_ZONE_DMA32], 992);
	assert_int_equal(dma->lowmem_reserve[MM_ZONE_NORMAL], 992);
	assert_int_equal(dma->lowmem_reserve[MM_ZONE_HIGHMEM], 992);
	assert_int_equal(d32->lowmem_reserve[MM_ZONE_NORMAL], 0);
	/* pcp: DMA 4096/1024 = 4, /4 = 1, 1 << fls(1 + 0) = 2: hot 12/2, cold 4/1.
	 * DMA32 253952/1024 = 248 -> capped 128 (512 KiB), /4 = 32, 1 << fls(48) = 64:
	 * hot high 384 batch 64, cold high 128 batch 32 */
	assert_int_equal(dma->pageset[1].pcp[0].high, 12);
	assert_int_equal(dma->pageset[1].pcp[0].batch, 2);
	assert_int_equal(dma->pageset[1].pcp[1].high, 4);
	assert_int_equal(dma->pageset[1].pcp[1].batch, 1);
	assert_int_equal(d32->pageset[0].pcp[0].high, 384);
	assert_int_equal(d32->pageset[0].pcp[0].batch, 64);
	assert_int_equal(d32->pageset[0].pcp[1].high, 128);
	assert_int_equal(d32->pageset[0].pcp[1].batch, 32);
	/* zonelists: GFP_KERNEL and GFP_HIGHUSER both start at DMA32 */
	assert_ptr_equal(ph.zonelists[MM_ZONE_NORMAL][0], d32);
	assert_ptr_equal(ph.zonelists[MM_ZONE_NORMAL][1], dma);
	assert_null(ph.zonelists[MM_ZONE_NORMAL][2]);
	assert_ptr_equal(ph.zonelists[MM_ZONE_HIGHMEM][0], d32);
	assert_ptr_equal(ph.zonelists[MM_ZONE_DMA][0], dma);
	assert_null(ph.zonelists[MM_ZONE_DMA][1]);
	assert_int_equal(mm_check(&ph, &e), 0);
	mm_phys_fini(&ph);
}

static void test_x86_64_1024m(void **state)
{
	struct mm_phys ph;
	struct mm_err e = { "" };
	assert_int_equal(make(&ph, "{\"arch\":\"x86_64\",\"memory\":\"1024MiB\"}", &e), 0);
	/* 262144 pages = 1048576 kB; sqrt(16777216) = 4096 kB -> 1024 pages;
	 * DMA 1024 x 4096 / 262144 = 16 (20, 24); DMA32 1024 x 258048 / 262144 = 1008,
	 * low 5040/4 = 1260, high 6048/4 = 1512; DMA reserve 258048/256 = 1008 */
	assert_int_equal(ph.min_free_kbytes, 4096);
	assert_int_equal(ph.zones[MM_ZONE_DMA].pages_min, 16);
	assert_int_equal(ph.zones[MM_ZONE_DMA32].pages_min, 1008);
	assert_int_equal(ph.zones[MM_ZONE_DMA32].pages_low, 1260);
	assert_int_equal(ph.zones[MM_ZONE_DMA32].pages_high, 1512);
	assert_int_equal(ph.zones[MM_ZONE_DMA].lowmem_reserve[MM_ZONE_DMA32], 1008);
	mm_phys_fini(&ph);
}

static void test_i386_4g(void **state)
{
	struct mm_phys ph;
	struct mm_err e = { "" };
	assert_int_equal(make(&ph, "{\"arch\":\"i386\",\"memory\":\"4GiB\",\"cpus\":8}", &e), 0);
	struct zone *dma = &ph.zones[MM_ZONE_DMA], *nor = &ph.zones[MM_ZONE_NORMAL],
		    *hi = &ph.zones[MM_ZONE_HIGHMEM];
	/* DMA 4096, Normal (896-16) MiB = 225280, HighMem (4096-896) MiB = 819200 pages */
	assert_int_equal(dma->present, 4096);
	assert_int_equal(ph.zones[MM_ZONE_DMA32].present, 0);
	assert_int_equal(nor->present, 225280);
	assert_int_equal(hi->present, 819200);
	assert_true(page_test(&ph.pages[hi->start_pfn], PG_highmem));
	assert_false(page_test(&ph.pages[nor->start_pfn], PG_highmem));
	/* mem_map 32 B x 1048576 = 32 MiB = 8192 pages in Normal; image 1024 in DMA:
	 * LowTotal = 229376 - 9216 = 220160 pages = 860 MiB, as [H5] */
	assert_int_equal(dma->reserved, 1024);
	assert_int_equal(nor->reserved, 8192);
	assert_int_equal(dma->present - dma->reserved + nor->present - nor->reserved, 220160);
	/* lowmem 229376 pages = 917504 kB; sqrt(14680064) = 3831.4 -> 3831 kB -> 957 pages */
	assert_int_equal(ph.min_free_kbytes, 3831);
	/* DMA 957 x 4096 / 229376 = 17.09 -> 17, low 85/4 = 21, high 102/4 = 25 */
	assert_int_equal(dma->pages_min, 17);
	assert_int_equal(dma->pages_low, 21);
	assert_int_equal(dma->pages_high, 25);
	/* Normal 957 x 225280 / 229376 = 939.9 -> 939, low 4695/4 = 1173, high 5634/4 = 1408 */
	assert_int_equal(nor->pages_min, 939);
	assert_int_equal(nor->pages_low, 1173);
	assert_int_equal(nor->pages_high, 1408);
	/* HighMem 819200/1024 = 800, clamped to 128; low 160, high 192 */
	assert_int_equal(hi->pages_min, 128);
	assert_int_equal(hi->pages_low, 160);
	assert_int_equal(hi->pages_high, 192);
	/* lowmem_reserve: DMA[Normal] = 225280/256 = 880; Normal[HighMem] = 819200/32 =
	 * 25600; DMA[HighMem] = (819200 + 225280)/256 = 4080 */
	assert_int_equal(dma->lowmem_reserve[MM_ZONE_NORMAL], 880);
	assert_int_equal(nor->lowmem_reserve[MM_ZONE_HIGHMEM], 25600);
	assert_int_equal(dma->lowmem_reserve[MM_ZONE_HIGHMEM], 4080);
	assert_int_equal(hi->lowmem_reserve[MM_ZONE_HIGHMEM], 0);
	/* zonelist HighMem -> Normal -> DMA */
	assert_ptr_equal(ph.zonelists[MM_ZONE_HIGHMEM][0], hi);
	assert_ptr_equal(ph.zonelists[MM_ZONE_HIGHMEM][1], nor);
	assert_ptr_equal(ph.zonelists[MM_ZONE_HIGHMEM][2], dma);
	assert_null(ph.zonelists[MM_ZONE_HIGHMEM][3]);
	assert_int_equal(ph.ncpus, 8);
	assert_int_equal(nor->pageset[7].pcp[0].batch, 64);
	mm_phys_fini(&ph);
}

static void test_alpha_24(void **state)
{
	struct mm_phys ph;
	struct mm_err e = { "" };
	assert_int_equal(make(&ph, "{\"arch\":\"alpha\",\"memory\":\"128MiB\","
				   "\"watermark_style\":\"2.4\"}", &e), 0);
	/* 8 KiB pages: 16384 pages, all ZONE_DMA; 2.4: min 16384/128 = 128, low 256, high 384 */
	assert_int_equal(ph.page_size, 8192);
	assert_int_equal(ph.zones[MM_ZONE_DMA].present, 16384);
	assert_int_equal(ph.zones[MM_ZONE_NORMAL].present, 0);
	assert_int_equal(ph.zones[MM_ZONE_DMA].pages_min, 128);
	assert_int_equal(ph.zones[MM_ZONE_DMA].pages_low, 256);
	assert_int_equal(ph.zones[MM_ZONE_DMA].pages_high, 384);
	assert_int_equal(ph.zones[MM_ZONE_DMA].pageset[0].pcp[0].high, 0); /* no pcp in 2.4 */
	/* kernel 4 MiB = 512 pages; mem_map 56 x 16384 = 917504 B = 112 pages after it */
	assert_int_equal(ph.zones[MM_ZONE_DMA].reserved, 512 + 112);
	assert_true(page_test(&ph.pages[512], PG_reserved));
	assert_false(page_test(&ph.pages[512 + 112], PG_reserved));
	/* every GFP class falls back to the DMA zone */
	assert_ptr_equal(ph.zonelists[MM_ZONE_HIGHMEM][0], &ph.zones[MM_ZONE_DMA]);
	mm_phys_fini(&ph);
	/* 2.4 clamps: 1 GiB alpha = 131072 pages -> 1024 -> 255 */
	assert_int_equal(make(&ph, "{\"arch\":\"alpha\",\"memory\":\"1GiB\","
				   "\"watermark_style\":\"2.4\"}", &e), 0);
	assert_int_equal(ph.zones[MM_ZONE_DMA].pages_min, 255);
	mm_phys_fini(&ph);
}

static void test_mem_cut(void **state)
{
	struct mm_phys ph;
	struct mm_err e = { "" };
	/* mem= drops memory above it, and a partial page */
	assert_int_equal(make(&ph, "{\"arch\":\"x86_64\",\"memory\":1000001000}", &e), 0);
	assert_int_equal(ph.nr_pages, 244140); /* floor(1000001000 / 4096) */
	assert_int_equal(ph.zones[MM_ZONE_DMA32].start_pfn + ph.zones[MM_ZONE_DMA32].spanned,
			 244140);
	mm_phys_fini(&ph);
	/* i386 below 896 MiB: no highmem */
	assert_int_equal(make(&ph, "{\"arch\":\"i386\",\"memory\":\"512MiB\"}", &e), 0);
	assert_int_equal(ph.zones[MM_ZONE_HIGHMEM].present, 0);
	assert_int_equal(ph.zones[MM_ZONE_NORMAL].present, 131072 - 4096);
	assert_ptr_equal(ph.zonelists[MM_ZONE_HIGHMEM][0], &ph.zones[MM_ZONE_NORMAL]);
	mm_phys_fini(&ph);
	/* kernelcore: 1.5 GiB i386, kernelcore 512 MiB -> Normal ends at 512 MiB, the rest
	 * is EasyRclm (highmem, min = 262144/1024 = 256 -> 128) */
	assert_int_equal(make(&ph, "{\"arch\":\"i386\",\"memory\":\"1536MiB\","
				   "\"kernelcore\":\"512MiB\"}", &e), 0);
	assert_int_equal(ph.zones[MM_ZONE_NORMAL].present, 131072 - 4096);
	assert_int_equal(ph.zones[MM_ZONE_HIGHMEM].present, 0);
	assert_int_equal(ph.zones[MM_ZONE_EASYRCLM].present, 262144);
	assert_int_equal(ph.zones[MM_ZONE_EASYRCLM].pages_min, 128);
	assert_ptr_equal(ph.zonelists[MM_ZONE_EASYRCLM][0], &ph.zones[MM_ZONE_EASYRCLM]);
	assert_ptr_equal(ph.zonelists[MM_ZONE_EASYRCLM][1], &ph.zones[MM_ZONE_NORMAL]);
	assert_ptr_equal(ph.zonelists[MM_ZONE_HIGHMEM][0], &ph.zones[MM_ZONE_NORMAL]);
	mm_phys_fini(&ph);
}

/* idle_footprint: reserved right after mem_map (DMA32), DMA untouched; the
 * watermarks stay those of the box's memory; too large a footprint is refused. */
static void test_idle_footprint(void **state)
{
	struct mm_phys ph;
	struct mm_err e = { "" };
	assert_int_equal(make(&ph, "{\"arch\":\"x86_64\",\"memory\":\"1008MiB\",\"cpus\":2,"
				   "\"idle_footprint\":\"32MiB\"}", &e), 0);
	struct zone *dma = &ph.zones[MM_ZONE_DMA], *d32 = &ph.zones[MM_ZONE_DMA32];
	assert_int_equal(ph.reserved_idle, 8192);
	assert_int_equal(dma->reserved, 1024);
	assert_int_equal(d32->reserved, 3528 + 8192);
	/* pfns 4096 .. 4096 + 3528 + 8192 are reserved, the next one is free */
	assert_true(page_test(&ph.pages[4096 + 3528 + 8191], PG_reserved));
	assert_false(page_test(&ph.pages[4096 + 3528 + 8192], PG_reserved));
	assert_int_equal(d32->pages_high, 1497);
	assert_int_equal(mm_check(&ph, &e), 0);
	mm_phys_fini(&ph);
	assert_int_equal(make(&ph, "{\"arch\":\"x86_64\",\"memory\":\"64MiB\","
				   "\"idle_footprint\":\"60MiB\"}", &e), -1);
	assert_non_null(strstr(e.msg, "machine.memory"));
	assert_non_null(strstr(e.msg, "idle_footprint (15360 pages)"));
	mm_phys_fini(&ph);
}

static void test_invalid(void **state)
{
	struct mm_phys ph;
	struct mm_err e = { "" };
	assert_int_equal(make(&ph, "{\"arch\":\"sparc\"}", &e), -1);
	assert_non_null(strstr(e.msg, "machine.arch"));
	assert_int_equal(make(&ph, "{\"memory\":\"512KiB\"}", &e), -1);
	assert_non_null(strstr(e.msg, "machine.memory"));
	/* 1 MiB: the 4 MiB kernel reservation leaves nothing */
	assert_int_equal(make(&ph, "{\"memory\":\"1MiB\"}", &e), -1);
	assert_non_null(strstr(e.msg, "machine.memory"));
	mm_phys_fini(&ph);
	assert_int_equal(make(&ph, "{\"memory\":\"64MiB\",\"page_size\":3000}", &e), -1);
	assert_non_null(strstr(e.msg, "machine.page_size"));
	assert_int_equal(make(&ph, "{\"memory\":\"64MiB\",\"lowmem_reserve_ratio\":[256,32]}", &e),
			 -1);
	assert_non_null(strstr(e.msg, "machine.lowmem_reserve_ratio"));
	assert_int_equal(make(&ph, "{\"memory\":\"64MiB\",\"bogus\":1}", &e), -1);
	assert_non_null(strstr(e.msg, "machine.bogus"));
	struct mm_phys_cfg cfg;
	assert_int_equal(mm_params_load(mm_phys_params, &cfg, NULL, NULL, "machine", NULL, &e), 0);
	cfg.arch = 42;
	assert_int_equal(mm_phys_init(&ph, &cfg, &e), -1);
	assert_non_null(strstr(e.msg, "machine.arch"));
	mm_phys_fini(&ph);
}

/* Lay out @phys from machine JSON text without the page array. Returns: 0 or -1. */
static int layout(struct mm_phys *phys, const char *json, struct mm_err *e)
{
	struct mm_phys_cfg cfg;
	json_error_t je;
	json_t *o = json_loads(json, 0, &je);
	assert_non_null(o);
	int rc = mm_params_load(mm_phys_params, &cfg, o, "t.json", "machine", NULL, e);
	json_decref(o);
	if (rc)
		return rc;
	return mm_phys_layout(phys, &cfg, e);
}

/* A 2 TiB x86_64 box (issue 17, big machines): zones, reservations, watermarks,
 * lowmem_reserve and per-CPU lists, computed by hand.  mm_phys_layout() is the
 * arithmetic of mm_phys_init() without the 16 GiB page array. */
static void test_x86_64_2t(void **state)
{
	struct mm_phys ph;
	struct mm_err e = { "" };
	assert_int_equal(layout(&ph, "{\"arch\":\"x86_64\",\"memory\":\"2TiB\",\"cpus\":4}", &e), 0);
	assert_null(ph.pages);
	struct zone *dma = &ph.zones[MM_ZONE_DMA], *d32 = &ph.zones[MM_ZONE_DMA32],
		    *nor = &ph.zones[MM_ZONE_NORMAL];
	/* 2^41 B / 4 KiB = 2^29 = 536870912 pages: DMA [0, 16 MiB) = 4096,
	 * DMA32 [16 MiB, 4 GiB) = 1048576 - 4096 = 1044480, Normal the rest =
	 * 536870912 - 1048576 = 535822336 */
	assert_int_equal(ph.nr_pages, 536870912);
	assert_int_equal(dma->present, 4096);
	assert_int_equal(d32->start_pfn, 4096);
	assert_int_equal(d32->present, 1044480);
	assert_int_equal(nor->start_pfn, 1048576);
	assert_int_equal(nor->present, 535822336);
	assert_int_equal(ph.zones[MM_ZONE_HIGHMEM].present, 0);
	assert_int_equal(ph.zones[MM_ZONE_EASYRCLM].present, 0);
	/* image 4 MiB = 1024 pages in DMA; mem_map 56 B x 2^29 = 28 GiB = 7340032 pages
	 * from 16 MiB (pfn 4096): all of DMA32 (1044480), then 7340032 - 1044480 =
	 * 6295552 pages of Normal */
	assert_int_equal(ph.reserved_memmap, 7340032);
	assert_int_equal(dma->reserved, 1024);
	assert_int_equal(d32->reserved, 1044480);
	assert_int_equal(nor->reserved, 6295552);
	/* lowmem = every page (no highmem): 2^29 pages x 4 kB = 2^31 kB;
	 * int_sqrt(16 x 2^31) = int_sqrt(2^35) = 185363 kB, capped at 65536 kB [KM 0.1]
	 * -> pages_min total 65536 >> 2 = 16384 pages */
	assert_int_equal(ph.min_free_kbytes, 65536);
	/* DMA: 16384 x 4096 / 2^29 = 0.125 -> 0, so low = high = 0 (as the kernel) */
	assert_int_equal(dma->pages_min, 0);
	assert_int_equal(dma->pages_low, 0);
	assert_int_equal(dma->pages_high, 0);
	/* DMA32: 16384 x 1044480 / 2^29 = 31.875 -> 31; low 31 x 5/4 = 38; high 31 x 6/4 = 46 */
	assert_int_equal(d32->pages_min, 31);
	assert_int_equal(d32->pages_low, 38);
	assert_int_equal(d32->pages_high, 46);
	/* Normal: 16384 x (2^29 - 2^20) / 2^29 = 16384 - 32 = 16352; low 20440; high 24528 */
	assert_int_equal(nor->pages_min, 16352);
	assert_int_equal(nor->pages_low, 20440);
	assert_int_equal(nor->pages_high, 24528);
	/* lowmem_reserve {256, 256, 32}: DMA keeps 1044480/256 = 4080 from DMA32
	 * allocations and (1044480 + 535822336)/256 = 2097136 from Normal ones; DMA32
	 * keeps 535822336/256 = 2093056 from Normal ones */
	assert_int_equal(dma->lowmem_reserve[MM_ZONE_DMA32], 4080);
	assert_int_equal(dma->lowmem_reserve[MM_ZONE_NORMAL], 2097136);
	assert_int_equal(dma->lowmem_reserve[MM_ZONE_HIGHMEM], 2097136);
	assert_int_equal(d32->lowmem_reserve[MM_ZONE_NORMAL], 2093056);
	assert_int_equal(nor->lowmem_reserve[MM_ZONE_HIGHMEM], 0);
	/* pcp: Normal 535822336/1024 capped at 128 (512 KiB), /4 = 32, 1 << fls(48) = 64 */
	assert_int_equal(nor->pageset[3].pcp[0].high, 384);
	assert_int_equal(nor->pageset[3].pcp[0].batch, 64);
	assert_int_equal(nor->pageset[3].pcp[1].high, 128);
	assert_int_equal(nor->pageset[3].pcp[1].batch, 32);
	assert_ptr_equal(ph.zonelists[MM_ZONE_NORMAL][0], nor);
	assert_ptr_equal(ph.zonelists[MM_ZONE_NORMAL][1], d32);
	assert_ptr_equal(ph.zonelists[MM_ZONE_NORMAL][2], dma);
	assert_null(ph.zonelists[MM_ZONE_NORMAL][3]);
	mm_phys_fini(&ph);

	/* 8 KiB pages: 2^28 pages; DMA 2048, DMA32 524288 - 2048, Normal 2^28 - 2^19 */
	assert_int_equal(layout(&ph, "{\"arch\":\"x86_64\",\"memory\":\"2TiB\","
				     "\"page_size\":\"8KiB\"}", &e), 0);
	assert_int_equal(ph.nr_pages, 268435456);
	assert_int_equal(ph.zones[MM_ZONE_DMA].present, 2048);
	assert_int_equal(ph.zones[MM_ZONE_DMA32].present, 522240);
	assert_int_equal(ph.zones[MM_ZONE_NORMAL].present, 267911168);
	mm_phys_fini(&ph);
}

/* alpha and flat at 2 TiB, and the first size above each limit refused in one line. */
static void test_big_limits(void **state)
{
	struct mm_phys ph;
	struct mm_err e = { "" };
	/* alpha, 8 KiB pages: 2^28 pages, all ZONE_DMA; image 512 pages, mem_map
	 * 56 x 2^28 / 8192 = 1835008 pages right after it; lowmem 2^28 x 8 kB = 2^31 kB
	 * -> 65536 kB again, 65536 >> 3 = 8192 pages, all of them the DMA zone's */
	assert_int_equal(layout(&ph, "{\"arch\":\"alpha\",\"memory\":\"2TiB\"}", &e), 0);
	assert_int_equal(ph.nr_pages, 268435456);
	assert_int_equal(ph.zones[MM_ZONE_DMA].present, 268435456);
	assert_int_equal(ph.zones[MM_ZONE_DMA].reserved, 512 + 1835008);
	assert_int_equal(ph.min_free_kbytes, 65536);
	assert_int_equal(ph.zones[MM_ZONE_DMA].pages_min, 8192);
	assert_int_equal(ph.zones[MM_ZONE_DMA].pages_low, 10240);
	assert_int_equal(ph.zones[MM_ZONE_DMA].pages_high, 12288);
	mm_phys_fini(&ph);
	/* flat: one Normal zone of 2^29 pages, 16384 / 20480 / 24576 */
	assert_int_equal(layout(&ph, "{\"arch\":\"flat\",\"memory\":\"2TiB\"}", &e), 0);
	assert_int_equal(ph.zones[MM_ZONE_NORMAL].present, 536870912);
	assert_int_equal(ph.zones[MM_ZONE_NORMAL].pages_min, 16384);
	assert_int_equal(ph.zones[MM_ZONE_NORMAL].pages_low, 20480);
	assert_int_equal(ph.zones[MM_ZONE_NORMAL].pages_high, 24576);
	mm_phys_fini(&ph);
	/* i386 keeps PAE's 64 GiB */
	assert_int_equal(layout(&ph, "{\"arch\":\"i386\",\"memory\":\"64GiB\"}", &e), 0);
	assert_int_equal(ph.zones[MM_ZONE_HIGHMEM].present, 16777216 - 229376);
	mm_phys_fini(&ph);

	/* one page more: the scenario loader's range, one line */
	assert_int_equal(layout(&ph, "{\"arch\":\"x86_64\",\"memory\":2199023259648}", &e), -1);
	assert_string_equal(e.msg, "t.json: machine.memory: expected a value in [1MiB, 2TiB]");
	assert_int_equal(layout(&ph, "{\"arch\":\"i386\",\"memory\":68719480832}", &e), -1);
	assert_string_equal(e.msg, "machine.memory: expected at most 64GiB on i386 (PAE)");
	/* and mm_phys_init's own check, for callers that fill the configuration */
	struct mm_phys_cfg cfg;
	assert_int_equal(mm_params_load(mm_phys_params, &cfg, NULL, NULL, "machine", NULL, &e), 0);
	cfg.arch = MM_ARCH_ALPHA;
	cfg.memory = MM_MAX_MEMORY + 8192;   /* the next 8 KiB page */
	assert_int_equal(mm_phys_init(&ph, &cfg, &e), -1);
	assert_string_equal(e.msg, "machine.memory: expected at most 2TiB");
	assert_null(strchr(e.msg, '\n'));
	mm_phys_fini(&ph);
}

/* Reservations that cross a zone boundary, counted by zone without the page array
 * (mm_phys_layout) and flagged on the pages (mm_phys_init): mm_check agrees. */
static void test_reserved_across_zones(void **state)
{
	struct mm_phys ph;
	struct mm_err e = { "" };
	/* 20 MiB image = 5120 pages: all 4096 of DMA and 1024 of DMA32; mem_map
	 * 56 x 16384 / 4096 = 224 pages right after it (the goal, 16 MiB, is inside
	 * the image) */
	assert_int_equal(make(&ph, "{\"arch\":\"x86_64\",\"memory\":\"64MiB\","
				   "\"kernel_reserved\":\"20MiB\"}", &e), 0);
	assert_int_equal(ph.zones[MM_ZONE_DMA].reserved, 4096);
	assert_int_equal(ph.zones[MM_ZONE_DMA32].reserved, 1024 + 224);
	assert_true(page_test(&ph.pages[5120 + 223], PG_reserved));
	assert_false(page_test(&ph.pages[5120 + 224], PG_reserved));
	assert_int_equal(mm_check(&ph, &e), 0);
	mm_phys_fini(&ph);
}

static void test_watermark_ok(void **state)
{
	struct zone z;
	memset(&z, 0, sizeof z);
	/* 60 order-0 + 20 order-1 = 100 free pages */
	z.free_pages = 100;
	z.nr_free[0] = 60;
	z.nr_free[1] = 20;
	/* order 2, mark 10: free 100-4+1 = 97 > 10; o0: 97-60 = 37 > 5;
	 * o1: 37-40 = -3 <= 2 -> fail (nothing of order >= 2) */
	assert_false(zone_watermark_ok(&z, 2, 10, 0, false, false));
	assert_true(zone_watermark_ok(&z, 1, 10, 0, false, false)); /* 99>10; 39>5 */
	/* add 5 order-2 blocks: 120 pages; order 2: 117; 57 > 5; 17 > 2 -> ok */
	z.free_pages = 120;
	z.nr_free[2] = 5;
	assert_true(zone_watermark_ok(&z, 2, 10, 0, false, false));
	/* order 3: 113; 53 > 5; 13 > 2; 13-20 = -7 <= 1 -> fail */
	assert_false(zone_watermark_ok(&z, 3, 10, 0, false, false));
	/* lowmem_reserve: 100 order-0 pages, mark 10, reserve 90 for class 2 */
	memset(&z, 0, sizeof z);
	z.free_pages = 100;
	z.nr_free[0] = 100;
	z.lowmem_reserve[2] = 90;
	assert_false(zone_watermark_ok(&z, 0, 10, 2, false, false)); /* 100 <= 10 + 90 */
	assert_true(zone_watermark_ok(&z, 0, 10, 0, false, false));
	/* gfp_high halves, can_try_harder takes a quarter: 30 free, mark 40 */
	z.free_pages = 30;
	assert_false(zone_watermark_ok(&z, 0, 40, 0, false, false));
	assert_true(zone_watermark_ok(&z, 0, 40, 0, false, true));  /* min 20 */
	assert_false(zone_watermark_ok(&z, 0, 40, 0, true, false)); /* min 30: 30 <= 30 */
	assert_true(zone_watermark_ok(&z, 0, 40, 0, true, true));   /* 20 - 5 = 15 */
}

static void test_zoneinfo_json(void **state)
{
	struct mm_phys ph;
	struct mm_err e = { "" };
	assert_int_equal(make(&ph, "{\"arch\":\"i386\",\"memory\":\"4GiB\"}", &e), 0);
	json_t *zi = mm_phys_zoneinfo(&ph);
	assert_int_equal(json_array_size(zi), 3);
	json_t *n = json_array_get(zi, 1);
	assert_string_equal(json_string_value(json_object_get(n, "name")), "Normal");
	assert_int_equal(json_integer_value(json_object_get(n, "min")), 939);
	assert_int_equal(json_integer_value(json_object_get(n, "managed")), 225280 - 8192);
	assert_int_equal(json_integer_value(
				 json_array_get(json_object_get(n, "lowmem_reserve"), MM_ZONE_HIGHMEM)),
			 25600);
	json_decref(zi);
	json_t *bi = alloc_buddyinfo(&ph); /* no allocator: all zero */
	assert_int_equal(json_array_size(json_object_get(bi, "HighMem")), MM_MAX_ORDER);
	json_decref(bi);
	mm_phys_fini(&ph);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_x86_64_1008m), cmocka_unit_test(test_x86_64_1024m),
		cmocka_unit_test(test_i386_4g),      cmocka_unit_test(test_alpha_24),
		cmocka_unit_test(test_mem_cut),      cmocka_unit_test(test_invalid),
		cmocka_unit_test(test_idle_footprint),
		cmocka_unit_test(test_watermark_ok), cmocka_unit_test(test_zoneinfo_json),
		cmocka_unit_test(test_x86_64_2t),    cmocka_unit_test(test_big_limits),
		cmocka_unit_test(test_reserved_across_zones),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
