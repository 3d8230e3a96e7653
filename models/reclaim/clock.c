/*
 * clock.c - CLOCK (second chance): a hand sweeps the frames in a circle and
 * evicts the first page whose reference bit is clear, clearing set bits as it
 * passes (a referenced page gets a second chance).
 *
 * Design: one flag byte per frame (PRESENT, REFERENCED) and the hand, a frame
 * index.  The circle is the frame order 0..nframes-1, as in the kernel's
 * physical-page clocks; with the replay loop filling free frames in order 0,1,2...
 * and loading each new page into its victim's frame, this is exactly the textbook
 * circular queue of pages.  access() sets the bit; add() marks the frame present
 * with the bit set only if new_page_referenced is true (textbooks differ: false
 * makes a new page the first candidate after one revolution, true gives it a
 * second chance immediately).  evict() skips absent frames and stops after two
 * revolutions (no page at all).  1 byte per frame, no allocation after init().
 */
#include "models/reclaim/reclaim.h"

#include <stdbool.h>
#include <stdlib.h>

enum { CLK_PRESENT = 1, CLK_REF = 2 };

struct clock_cfg {
	bool new_page_referenced;
};

struct clock {
	uint8_t *flags;   /* per frame: CLK_PRESENT | CLK_REF */
	uint32_t hand;
	uint8_t add_flags;
};

static const struct mm_param clock_params[] = {
	MM_PARAM(struct clock_cfg, new_page_referenced, "new_page_referenced", MM_P_BOOL, 1, 0,
		 "false", "whether a newly loaded page starts with its reference bit set"),
	MM_PARAM_END,
};

static int clock_init(struct reclaim *r, struct mm_err *e)
{
	struct clock *c = r->priv;
	const struct clock_cfg *cfg = r->cfg;
	c->flags = calloc(r->nframes, 1);
	if (!c->flags)
		return mm_errf(e, NULL, NULL, "clock: out of memory for %u frames", r->nframes);
	c->hand = 0;
	c->add_flags = CLK_PRESENT | (cfg->new_page_referenced ? CLK_REF : 0);
	return 0;
}

static void clock_fini(struct reclaim *r)
{
	struct clock *c = r->priv;
	free(c->flags);
}

static void clock_add(struct reclaim *r, uint32_t fr)
{
	struct clock *c = r->priv;
	c->flags[fr] = c->add_flags;
}

static void clock_access(struct reclaim *r, uint32_t fr)
{
	struct clock *c = r->priv;
	c->flags[fr] |= CLK_REF;
}

static void clock_remove(struct reclaim *r, uint32_t fr)
{
	struct clock *c = r->priv;
	c->flags[fr] = 0;
}

static uint32_t clock_evict(struct reclaim *r)
{
	struct clock *c = r->priv;
	uint8_t *fl = c->flags;
	uint32_t n = r->nframes, h = c->hand;
	/* at most two revolutions: the first may only clear bits */
	for (uint64_t steps = 2 * (uint64_t)n; steps; steps--) {
		uint8_t f = fl[h];
		uint32_t cur = h;
		if (++h == n)
			h = 0;
		if (f == CLK_PRESENT) {
			fl[cur] = 0;
			c->hand = h;
			return cur;
		}
		if (f & CLK_REF)
			fl[cur] = f & (uint8_t)~CLK_REF;
	}
	c->hand = h;
	return RECLAIM_NO_FRAME;
}

/* "ref_bits": each frame's reference bit (null: free frame), "hand": the frame
 * the next eviction looks at first. */
static void clock_describe(const struct reclaim *r, json_t *out)
{
	const struct clock *c = r->priv;
	json_t *bits = json_array();
	for (uint32_t f = 0; f < r->nframes; f++)
		json_array_append_new(bits, c->flags[f] & CLK_PRESENT
					    ? json_integer(!!(c->flags[f] & CLK_REF)) : json_null());
	json_object_set_new(out, "ref_bits", bits);
	json_object_set_new(out, "hand", json_integer(c->hand));
}

const struct reclaim_ops reclaim_clock = {
	.version = 2,
	.name = "clock",
	.desc = "CLOCK / second chance: sweep frames, evict the first unreferenced page",
	.params = clock_params,
	.cfg_size = sizeof(struct clock_cfg),
	.priv_size = sizeof(struct clock),
	.init = clock_init,
	.fini = clock_fini,
	.add = clock_add,
	.access = clock_access,
	.remove = clock_remove,
	.evict = clock_evict,
	.describe = clock_describe,
};
