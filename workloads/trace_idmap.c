/*
 * trace_idmap.c - dense ids for a trace's page numbers, in first-seen order.
 *
 * Ids below DIRECT_LIMIT (2^22) go through a direct table (grown on demand, in
 * huge pages; these are most real page numbers), larger ones through an
 * open-addressing hash table (linear probing, Fibonacci hashing, grown at half
 * load).  The direct-table hit is inline in traceparse.h (idmap_get()); this file
 * has the rest.
 */
#include "workloads/traceparse.h"

#include <stdlib.h>
#include <string.h>

#include "emu/core/hostmem.h"


void idmap_free(struct idmap *m)
{
	free(m->direct);
	free(m->hkeys);
	free(m->hvals);
	free(m->orig);
	memset(m, 0, sizeof *m);
}

static inline uint64_t hash_slot(uint64_t id, uint64_t cap)
{
	return (id * 0x9e3779b97f4a7c15ULL) >> (64 - __builtin_ctzll(cap));
}

static int hash_grow(struct idmap *m)
{
	uint64_t ncap = m->hcap ? m->hcap * 2 : 1024;
	uint64_t *k = malloc(ncap * sizeof *k);
	uint32_t *v = calloc(ncap, sizeof *v);
	if (!k || !v) {
		free(k);
		free(v);
		return -1;
	}
	for (uint64_t i = 0; i < m->hcap; i++) {
		if (!m->hvals[i])
			continue;
		uint64_t s = hash_slot(m->hkeys[i], ncap);
		while (v[s])
			s = (s + 1) & (ncap - 1);
		k[s] = m->hkeys[i];
		v[s] = m->hvals[i];
	}
	free(m->hkeys);
	free(m->hvals);
	m->hkeys = k;
	m->hvals = v;
	m->hcap = ncap;
	return 0;
}

/* A new dense id for @id. Returns: 0, or -1 (out of memory / too many pages). */
static int idmap_new(struct idmap *m, uint64_t id, uint32_t *out)
{
	if (m->n == UINT32_MAX - 1)
		return -1;
	if (m->n == m->ocap) {
		uint64_t nc = m->ocap ? m->ocap * 2 : 1024;
		uint64_t *o = realloc(m->orig, nc * sizeof *o);
		if (!o)
			return -1;
		m->orig = o;
		m->ocap = nc;
	}
	m->orig[m->n] = id;
	*out = m->n++;
	return 0;
}

/* idmap_get() past its look-up in the direct table: the rarer cases, kept out
 * of the parse loops. Returns: 0, or -1 (no memory). */
/* Grow the direct table to hold @id (< DIRECT_LIMIT), doubling its size.
 * Returns: 0, or -1 (out of memory). */
int idmap_reserve(struct idmap *m, uint64_t id)
{
	if (id < m->dcap)
		return 0;
	uint64_t nc = m->dcap ? m->dcap : 4096;
	while (nc <= id)
		nc *= 2;
	/* huge pages: the table is read at random, a TLB miss per look-up
	 * with 4 KiB pages once it spans megabytes */
	uint32_t *d = mm_calloc_huge(nc, sizeof *d);
	if (!d)
		return -1;
	if (m->dcap)
		memcpy(d, m->direct, m->dcap * sizeof *d);
	free(m->direct);
	m->direct = d;
	m->dcap = nc;
	return 0;
}

int idmap_get_new(struct idmap *m, uint64_t id, uint32_t *out)
{
	if (id < DIRECT_LIMIT) {
		if (idmap_reserve(m, id) < 0)
			return -1;
		uint32_t v = m->direct[id];
		if (v) {
			*out = v - 1;
			return 0;
		}
		if (idmap_new(m, id, out) < 0)
			return -1;
		m->direct[id] = *out + 1;
		return 0;
	}
	if (2 * (m->hcount + 1) > m->hcap && hash_grow(m) < 0)
		return -1;
	uint64_t mask = m->hcap - 1, s = hash_slot(id, m->hcap);
	while (m->hvals[s]) {
		if (m->hkeys[s] == id) {
			*out = m->hvals[s] - 1;
			return 0;
		}
		s = (s + 1) & mask;
	}
	if (idmap_new(m, id, out) < 0)
		return -1;
	m->hkeys[s] = id;
	m->hvals[s] = *out + 1;
	m->hcount++;
	return 0;
}

/* The dense ids of the @k page numbers @ids into @out, in order (as idmap_get()
 * each).  The direct table's pointer and size are kept in locals: the stores to
 * @out could alias the map's fields, which would otherwise be loaded again per id.
 * Returns: 0, or -1 (out of memory). */
int idmap_batch(struct idmap *m, const uint64_t *ids, int k, uint32_t *out)
{
	const uint32_t *dir = m->direct;
	uint64_t dcap = m->dcap;
	for (int i = 0; i < k; i++) {
		uint64_t v = ids[i];
		uint32_t d;
		if (v < dcap && (d = dir[v]) != 0) {
			out[i] = d - 1;
			continue;
		}
		if (idmap_get_new(m, v, &out[i]) < 0)
			return -1;
		dir = m->direct;
		dcap = m->dcap;
	}
	return 0;
}
