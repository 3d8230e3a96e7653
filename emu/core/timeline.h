/*
 * timeline.h - the busy intervals of one shared resource (a spinlock) in
 * simulated time, for bookings that arrive out of time order.
 *
 * With engine.slack > 0 (docs/architecture.md, "Slack") an actor may run up to
 * slack seconds ahead of the others, so a resource can be asked for a time
 * earlier than one already booked.  A timeline keeps the bookings since the
 * simulated clock as sorted, disjoint intervals, each with who booked it (a CPU):
 * a late request finds the gaps the earlier bookings left, as it would have found
 * them in time order.
 */
#ifndef MMEMU_TIMELINE_H
#define MMEMU_TIMELINE_H

#include <stddef.h>

/* One booked interval [s, e) and who booked it (a CPU, or 0). */
struct tl_iv {
	double s, e;
	int tag;
};

/* One resource's bookings: n disjoint intervals, sorted, from iv[h]. */
struct timeline {
	struct tl_iv *iv;
	size_t h, n, cap;
	int oom;          /* a booking could not be stored: the interval was merged
			   * into its neighbour instead (never lost time, only gaps) */
};

/** tl_init() - an empty timeline (no allocation until the first booking). */
void tl_init(struct timeline *tl);

/** tl_destroy() - free @tl's storage; it is empty afterwards. */
void tl_destroy(struct timeline *tl);

/** tl_prune() - forget intervals that end at or before @before.  Returns: nothing. */
void tl_prune(struct timeline *tl, double before);

/**
 * tl_free_at() - Returns: the first instant at or after @t that is not inside a
 * booked interval.
 */
double tl_free_at(const struct timeline *tl, double t);

/**
 * tl_fit() - Returns: the first start at or after @t of a gap at least @len long
 * (the end of the last interval if no earlier gap is wide enough).
 */
double tl_fit(const struct timeline *tl, double t, double len);

/**
 * tl_book() - mark [@s, @e) busy for @tag, merged with the intervals it overlaps
 * and the touching ones of the same tag.  Returns: nothing.
 */
void tl_book(struct timeline *tl, double s, double e, int tag);

/**
 * tl_next() - Returns: the first interval that starts at or after @t, or NULL.
 */
const struct tl_iv *tl_next(const struct timeline *tl, double t);

/**
 * tl_tag_before() - Returns: the tag of the last interval that starts at or
 * before @t, or @def when none is kept.
 */
int tl_tag_before(const struct timeline *tl, double t, int def);

#endif
