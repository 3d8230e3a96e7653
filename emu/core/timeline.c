/*
 * timeline.c - sorted disjoint busy intervals of a shared resource (see
 * timeline.h).  The intervals live in one array from index h: pruning moves h,
 * and the array is compacted when it fills, so a booking near the end (the usual
 * case: requests come almost in time order) moves few entries.  Lookups are a
 * binary search for the first interval that ends after the time asked.
 */
#include "emu/core/timeline.h"

#include <stdlib.h>
#include <string.h>

void tl_init(struct timeline *tl)
{
	memset(tl, 0, sizeof *tl);
}

void tl_destroy(struct timeline *tl)
{
	free(tl->iv);
	tl_init(tl);
}

/* the index (from h) of the first interval whose end is after @t (or at @t when
 * @touch); n if none */
static size_t first_after(const struct timeline *tl, double t, int touch)
{
	size_t lo = 0, hi = tl->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		double e = tl->iv[tl->h + mid].e;
		if (touch ? e >= t : e > t)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* the last interval, or NULL */
static inline const struct tl_iv *last(const struct timeline *tl)
{
	return tl->n ? &tl->iv[tl->h + tl->n - 1] : NULL;
}

void tl_prune(struct timeline *tl, double before)
{
	if (tl->n == 0 || tl->iv[tl->h].e > before)
		return;   /* the usual case: nothing to forget */
	size_t k = first_after(tl, before, 0);
	tl->h += k;
	tl->n -= k;
	if (tl->n == 0)
		tl->h = 0;
}

double tl_free_at(const struct timeline *tl, double t)
{
	const struct tl_iv *z = last(tl);
	if (!z || t >= z->e)
		return t;   /* after everything booked: the usual case */
	/* through touching intervals (of different tags) */
	for (size_t k = first_after(tl, t, 0); k < tl->n && tl->iv[tl->h + k].s <= t; k++)
		t = tl->iv[tl->h + k].e;
	return t;
}

double tl_fit(const struct timeline *tl, double t, double len)
{
	const struct tl_iv *z = last(tl);
	if (!z || t >= z->e)
		return t;
	double cur = t;
	for (size_t k = first_after(tl, t, 0); k < tl->n; k++) {
		const struct tl_iv *iv = &tl->iv[tl->h + k];
		if (iv->s >= cur + len)
			break;
		if (iv->e > cur)
			cur = iv->e;
	}
	return cur;
}

/* room for one more entry at the end of the array; 0 on success */
static int grow(struct timeline *tl)
{
	if (tl->h + tl->n < tl->cap)
		return 0;
	if (tl->h > 0) {   /* compact first */
		memmove(tl->iv, tl->iv + tl->h, tl->n * sizeof *tl->iv);
		tl->h = 0;
		if (tl->n < tl->cap)
			return 0;
	}
	size_t cap = tl->cap ? tl->cap * 2 : 16;
	struct tl_iv *iv = realloc(tl->iv, cap * sizeof *iv);
	if (!iv)
		return -1;
	tl->iv = iv;
	tl->cap = cap;
	return 0;
}

void tl_book(struct timeline *tl, double s, double e, int tag)
{
	if (!(e > s))
		return;
	if (tl->n && s > tl->iv[tl->h + tl->n - 1].e && tl->h + tl->n < tl->cap) {
		tl->iv[tl->h + tl->n++] = (struct tl_iv){ s, e, tag };   /* append */
		return;
	}
	/* [i, j): the intervals that overlap [s, e), or touch it with our tag */
	size_t i = first_after(tl, s, 1), j;
	if (i < tl->n && tl->iv[tl->h + i].e == s && tl->iv[tl->h + i].tag != tag)
		i++;
	for (j = i; j < tl->n; j++) {
		const struct tl_iv *v = &tl->iv[tl->h + j];
		if (v->s > e || (v->s == e && v->tag != tag))
			break;
	}
	if (j > i) {   /* merge them into entry i */
		struct tl_iv *m = &tl->iv[tl->h + i];
		if (m->s < s)
			s = m->s;
		if (tl->iv[tl->h + j - 1].e > e)
			e = tl->iv[tl->h + j - 1].e;
		m->s = s;
		m->e = e;
		m->tag = tag;
		memmove(tl->iv + tl->h + i + 1, tl->iv + tl->h + j, (tl->n - j) * sizeof *tl->iv);
		tl->n -= j - i - 1;
		return;
	}
	if (grow(tl) < 0) {   /* no memory: widen a neighbour (gaps lost, time not) */
		tl->oom = 1;
		if (tl->n == 0)
			return;
		struct tl_iv *m = &tl->iv[tl->h + (i < tl->n ? i : tl->n - 1)];
		if (s < m->s)
			m->s = s;
		if (e > m->e)
			m->e = e;
		return;
	}
	memmove(tl->iv + tl->h + i + 1, tl->iv + tl->h + i, (tl->n - i) * sizeof *tl->iv);
	tl->iv[tl->h + i] = (struct tl_iv){ s, e, tag };
	tl->n++;
}

const struct tl_iv *tl_next(const struct timeline *tl, double t)
{
	const struct tl_iv *z = last(tl);
	if (!z || t > z->s)
		return NULL;
	size_t k = first_after(tl, t, 1);
	while (k < tl->n && tl->iv[tl->h + k].s < t)
		k++;
	return k < tl->n ? &tl->iv[tl->h + k] : NULL;
}

int tl_tag_before(const struct timeline *tl, double t, int def)
{
	const struct tl_iv *z = last(tl);
	if (z && t >= z->s)
		return z->tag;
	size_t k = first_after(tl, t, 0);   /* intervals before k end at or before t */
	if (k < tl->n && tl->iv[tl->h + k].s <= t)
		return tl->iv[tl->h + k].tag;
	return k > 0 ? tl->iv[tl->h + k - 1].tag : def;
}
