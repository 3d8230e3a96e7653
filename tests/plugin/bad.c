/*
 * bad.c - plugins that mmemu must refuse, one per -DBAD_x (tests/plugin/check_plugins.sh):
 *   BAD_ABI       built for another plugin ABI version
 *   BAD_UNDEF     calls reclaim_create(), which the executable does not export
 *   BAD_NOENTRY   exports no mmemu_plugin_init()
 *   BAD_DUP       registers a reclaim module called "lru" (a built-in name)
 *   BAD_VERSION   a reclaim ops struct of an interface version from the future
 *   BAD_NONE      registers nothing
 *   BAD_UNCHECKED registers without checking the ABI
 * and, with none of them, KINDS: one module of each of the four kinds, each doing
 * nothing, for `mmemu list`.
 */
#include <mmemu-plugin.h>

static void nop_add(struct reclaim *r, uint32_t f) { (void)r; (void)f; }
static uint32_t nop_evict(struct reclaim *r) { (void)r; return RECLAIM_NO_FRAME; }

static const struct reclaim_ops ops __attribute__((unused)) = {
	.version = RECLAIM_OPS_VERSION,
#if defined BAD_DUP
	.name = "lru",
#else
	.name = "plugtest",
#endif
	.desc = "does nothing (tests/plugin/bad.c)",
	.add = nop_add, .access = nop_add, .evict = nop_evict,
};

#if defined BAD_ABI
#undef MMEMU_PLUGIN_ABI
#define MMEMU_PLUGIN_ABI 99
#endif

#if defined BAD_NOENTRY
__attribute__((visibility("default"))) int mmemu_plugin_start(struct mmemu_plugin *p);
int mmemu_plugin_start(struct mmemu_plugin *p)
{
	return mmemu_plugin_reclaim(p, &ops);
}
#elif defined BAD_UNCHECKED
__attribute__((visibility("default"))) int mmemu_plugin_init(struct mmemu_plugin *p);
int mmemu_plugin_init(struct mmemu_plugin *p)
{
	return mmemu_plugin_reclaim(p, &ops);
}
#else
#if !defined BAD_ANY
static int nop_kmap_init(struct kmap *m, struct mm_kernel *k, struct mm_err *e)
{
	(void)m; (void)k; (void)e;
	return 0;
}
static void nop_map(struct kmap *m, struct mm_task *t, uint32_t pfn) { (void)m; (void)t; (void)pfn; }
static const struct kmap_ops kmap = { .version = 1, .name = "plugkmap", .desc = "does nothing",
				      .init = nop_kmap_init, .map = nop_map, .unmap = nop_map };
static int nop_pick(struct coloring *c, struct mm_task *t) { (void)c; (void)t; return -1; }
static const struct coloring_ops coloring = { .version = 1, .name = "plugcolor",
					      .desc = "does nothing", .pick = nop_pick };
static int nop_init(struct alloc *a, struct mm_err *e) { (void)a; (void)e; return 0; }
static uint32_t nop_alloc(struct alloc *a, struct zone *z, unsigned order, int type, int cpu,
			  bool cold)
{
	(void)a; (void)z; (void)order; (void)type; (void)cpu; (void)cold;
	return PFN_NONE;
}
static void nop_free(struct alloc *a, uint32_t pfn, unsigned order, int cpu, bool cold)
{
	(void)a; (void)pfn; (void)order; (void)cpu; (void)cold;
}
static const struct alloc_ops alloc = { .version = 1, .name = "plugalloc", .desc = "does nothing",
					.init = nop_init, .alloc = nop_alloc, .free = nop_free };
#endif
#if defined BAD_VERSION
static const struct reclaim_ops future = { .version = RECLAIM_OPS_VERSION + 1, .name = "future",
					   .add = nop_add, .access = nop_add, .evict = nop_evict };
#endif

MMEMU_PLUGIN(bad_init)
{
#if defined BAD_UNDEF
	struct reclaim *r = reclaim_create("lru", NULL, 1, NULL, NULL, NULL, NULL);
	return r ? mmemu_plugin_reclaim(p, &ops) : -1;
#elif defined BAD_VERSION
	return mmemu_plugin_reclaim(p, &future);
#elif defined BAD_NONE
	(void)p;
	return 0;
#elif defined BAD_ANY
	return mmemu_plugin_reclaim(p, &ops);
#else
	return mmemu_plugin_reclaim(p, &ops) || mmemu_plugin_kmap(p, &kmap) ||
	       mmemu_plugin_coloring(p, &coloring) || mmemu_plugin_alloc(p, &alloc) ? -1 : 0;
#endif
}
#endif
