/*
 * judgement.c - a scenario's judgement constants (judgement.h).
 *
 * Design: the declaration lives in the scenario beside the constant it
 * qualifies ("judgement": [{path, range, source}]) but is not part of the model:
 * scenario.c checks it here and leaves it out of the scenario's hash, so
 * declaring a constant never invalidates kept simulations.  Paths are dotted,
 * with array elements as decimal indices; an override of an element inside an
 * array is expressed as an override of the whole array (the form
 * scenario_load_set() understands), so the rerun is validated like any --set.
 * A `*` component stands for every member of an object ("kernels.*.vm.swap":
 * one constant that every kernel of the scenario shares, as a judgement about
 * the machine must be): its value is the members' common value, and setting it
 * sets every member's, so the kernels compared never differ in it.
 */
#include "emu/engine/judgement.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The child @tok of @v: an object's key or an array's decimal index. */
static json_t *child(json_t *v, const char *tok)
{
	if (json_is_object(v))
		return json_object_get(v, tok);
	if (!json_is_array(v) || !*tok)
		return NULL;
	for (const char *p = tok; *p; p++)
		if (!isdigit((unsigned char)*p))
			return NULL;
	return json_array_get(v, strtoul(tok, NULL, 10));
}

/* The value at @path below @v (a `*` component: every member of an object,
 * all with the same value).  Returns: it (borrowed), or NULL. */
static json_t *value_at(json_t *v, const char *path, int depth)
{
	while (*path == '.')
		path++;
	if (!*path || !v)
		return v;
	if (depth > 32)
		return NULL;
	const char *dot = strchr(path, '.');
	size_t len = dot ? (size_t)(dot - path) : strlen(path);
	char tok[256];
	if (len >= sizeof tok)
		return NULL;
	memcpy(tok, path, len);
	tok[len] = 0;
	const char *rest = path + len;
	if (strcmp(tok, "*"))
		return value_at(child(v, tok), rest, depth + 1);
	if (!json_is_object(v) || !json_object_size(v))
		return NULL;
	json_t *first = NULL, *c;
	const char *key;
	json_object_foreach(v, key, c) {
		json_t *x = value_at(c, rest, depth + 1);
		if (!x || (first && !json_equal(first, x)))
			return NULL;
		if (!first)
			first = x;
	}
	return first;
}

json_t *judgement_value(json_t *root, const char *path)
{
	if (!path || strlen(path) >= 256)
		return NULL;
	return value_at(root, path, 0);
}

int judgement_check(json_t *root, const char *file, struct mm_err *e)
{
	json_t *j = json_object_get(root, "judgement"), *d;
	size_t i;
	char sub[64];
	if (!j)
		return 0;
	if (!json_is_array(j))
		return mm_errf(e, file, "judgement", "expected an array of {path, range, source}");
	json_array_foreach(j, i, d) {
		json_t *p = json_object_get(d, "path"), *r = json_object_get(d, "range");
		json_t *s = json_object_get(d, "source");
		snprintf(sub, sizeof sub, "judgement.%zu", i);
		if (!json_is_object(d) || json_object_size(d) != 3 || !p || !r || !s)
			return mm_errf(e, file, sub, "expected an object with exactly path, range and source");
		snprintf(sub, sizeof sub, "judgement.%zu.path", i);
		json_t *v = json_is_string(p) ? judgement_value(root, json_string_value(p)) : NULL;
		if (!v || !(json_is_number(v) || json_is_string(v)))
			return mm_errf(e, file, sub, "expected the dotted path of a number or string the scenario sets (with *, the same in every member)");
		snprintf(sub, sizeof sub, "judgement.%zu.range", i);
		json_t *lo = json_array_get(r, 0), *hi = json_array_get(r, 1);
		if (json_array_size(r) != 2 || (json_is_number(v) ? !json_is_number(lo) || !json_is_number(hi)
								  : !json_is_string(lo) || !json_is_string(hi)))
			return mm_errf(e, file, sub, "expected [lo, hi] of the constant's type (%s)",
				       json_is_number(v) ? "numbers" : "strings");
		if (json_is_number(v) && !(json_number_value(lo) <= json_number_value(v) &&
					   json_number_value(v) <= json_number_value(hi)))
			return mm_errf(e, file, sub, "expected lo <= the scenario's value <= hi");
		snprintf(sub, sizeof sub, "judgement.%zu.source", i);
		if (!json_is_string(s) || !*json_string_value(s))
			return mm_errf(e, file, sub, "expected a non-empty string: where the range comes from");
	}
	return 0;
}

/* judgement_set() of a path with a `*` component: each member's override,
 * keyed from @root.  Returns: a new object, or NULL. */
static json_t *set_each(json_t *root, const char *path, const char *star, json_t *v)
{
	char prefix[256];
	snprintf(prefix, sizeof prefix, "%.*s", (int)(star - path), path);   /* "a.b." or "" */
	size_t pl = strlen(prefix);
	if (pl && prefix[pl - 1] == '.')
		prefix[--pl] = 0;
	const char *rest = star[1] == '.' ? star + 2 : star + 1;
	json_t *obj = pl ? judgement_value(root, prefix) : root;
	json_t *out = json_object(), *c;
	const char *key;
	json_object_foreach(obj, key, c) {
		json_t *sub = *rest ? judgement_set(c, rest, v) : json_pack("{s:O}", "", v);
		const char *k2;
		json_t *x;
		if (!sub) {
			json_decref(out);
			return NULL;
		}
		json_object_foreach(sub, k2, x) {
			char full[768];
			snprintf(full, sizeof full, "%s%s%s%s%s", prefix, pl ? "." : "", key, *k2 ? "." : "", k2);
			json_object_set(out, full, x);
		}
		json_decref(sub);
	}
	return out;
}

json_t *judgement_set(json_t *root, const char *path, json_t *v)
{
	char buf[256], prefix[256] = "";
	if (!judgement_value(root, path) || snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf)
		return NULL;
	const char *star = strstr(path, "*");
	if (star && (star == path || star[-1] == '.') && (star[1] == 0 || star[1] == '.')) {
		/* no array before the star: the override of an array element is the whole array */
		char pre[256];
		snprintf(pre, sizeof pre, "%.*s", (int)(star - path), path);
		json_t *cur = root;
		char *s0, *t0 = strtok_r(pre, ".", &s0);
		for (; t0 && cur; t0 = strtok_r(NULL, ".", &s0)) {
			if (json_is_array(cur))
				return NULL;
			cur = child(cur, t0);
		}
		return json_is_object(cur) ? set_each(root, path, star, v) : NULL;
	}
	json_t *cur = root;
	char *save, *tok = strtok_r(buf, ".", &save);
	size_t pl = 0;
	while (tok) {
		json_t *next = child(cur, tok);
		pl += (size_t)snprintf(prefix + pl, sizeof prefix - pl, "%s%s", pl ? "." : "", tok);
		if (json_is_array(next) && path[pl] == '.') {
			/* the rest of the path is inside this array: override it whole */
			json_t *copy = json_deep_copy(next);
			const char *rest = path + pl + 1;
			json_t *holder = copy;
			char rb[256];
			snprintf(rb, sizeof rb, "%s", rest);
			char *s2, *t = strtok_r(rb, ".", &s2), *last = NULL;
			json_t *parent;
			while (t) {
				char *n2 = strtok_r(NULL, ".", &s2);
				if (!n2) {
					last = t;
					break;
				}
				holder = child(holder, t);
				t = n2;
			}
			parent = holder;
			if (json_is_array(parent))
				json_array_set(parent, strtoul(last, NULL, 10), v);
			else
				json_object_set(parent, last, v);
			return json_pack("{s:o}", prefix, copy);
		}
		cur = next;
		tok = strtok_r(NULL, ".", &save);
	}
	return json_pack("{s:O}", path, v);
}
