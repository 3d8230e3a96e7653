/*
 * params.c - the one loader and dumper for declarative parameter tables
 * (see params.h).  Defaults are JSON text parsed through the same path as user
 * values, so a default can never bypass validation.
 */
#include "emu/core/params.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct unit {
	const char *suffix;
	double mult;
};

/* Binary prefixes for sizes, decimal for MB/GB as storage vendors and the seeds
 * use them; single letters (K, M, G, m, k, g) follow the kernel's mem= (binary). */
static const struct unit size_units[] = {
	{ "B", 1 },	       { "KiB", 1024.0 },    { "MiB", 1048576.0 },
	{ "GiB", 1073741824.0 }, { "TiB", 1099511627776.0 },
	{ "kB", 1e3 },	       { "KB", 1e3 },	      { "MB", 1e6 }, { "GB", 1e9 }, { "TB", 1e12 },
	{ "K", 1024.0 },       { "k", 1024.0 },       { "M", 1048576.0 }, { "m", 1048576.0 },
	{ "G", 1073741824.0 }, { "g", 1073741824.0 }, { "", 1 },	     { NULL, 0 }
};
static const struct unit time_units[] = {
	{ "ns", 1e-9 }, { "us", 1e-6 }, { "ms", 1e-3 }, { "s", 1 }, { "min", 60 }, { "h", 3600 },
	{ "", 1 },	{ NULL, 0 }
};
static const struct unit freq_units[] = {
	{ "Hz", 1 }, { "kHz", 1e3 }, { "MHz", 1e6 }, { "GHz", 1e9 }, { "", 1 }, { NULL, 0 }
};

static int match_unit(const struct unit *u, const char *s, double *mult)
{
	for (; u->suffix; u++)
		if (strcmp(s, u->suffix) == 0) {
			*mult = u->mult;
			return 0;
		}
	return -1;
}

int mm_parse_unit(enum mm_ptype type, const char *s, double *out)
{
	char *end;
	while (isspace((unsigned char)*s))
		s++;
	/* a plain decimal number: no sign, no hex ("0x10"), no "inf"/"nan" */
	if (!isdigit((unsigned char)s[0]) && !(s[0] == '.' && isdigit((unsigned char)s[1])))
		return -1;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		return -1;
	errno = 0;
	double v = strtod(s, &end);
	if (end == s || errno || !isfinite(v) || v < 0)
		return -1;
	while (*end == ' ')
		end++;
	char suf[16];
	size_t n = strlen(end);
	if (n >= sizeof suf)
		return -1;
	memcpy(suf, end, n + 1);
	double mult = 1;
	switch (type) {
	case MM_P_SIZE:
		if (match_unit(size_units, suf, &mult))
			return -1;
		break;
	case MM_P_RATE:
		if (n < 2 || strcmp(suf + n - 2, "/s") != 0) {
			if (n != 0)
				return -1;
		} else {
			suf[n - 2] = '\0';
		}
		if (match_unit(size_units, suf, &mult))
			return -1;
		break;
	case MM_P_TIME:
		if (match_unit(time_units, suf, &mult))
			return -1;
		break;
	case MM_P_FREQ:
		if (match_unit(freq_units, suf, &mult))
			return -1;
		break;
	default:
		return -1;
	}
	*out = v * mult;
	return 0;
}

const char *mm_ptype_name(enum mm_ptype type)
{
	switch (type) {
	case MM_P_BOOL: return "a boolean";
	case MM_P_INT: return "an integer";
	case MM_P_DOUBLE: return "a number";
	case MM_P_STRING: return "a string";
	case MM_P_ENUM: return "one of the listed names";
	case MM_P_SIZE: return "a size such as \"1008MiB\" or a number of bytes";
	case MM_P_RATE: return "a rate such as \"60MB/s\" or a number of bytes/s";
	case MM_P_TIME: return "a time such as \"8ms\" or a number of seconds";
	case MM_P_FREQ: return "a frequency such as \"700MHz\" or a number of Hz";
	case MM_P_INTLIST: return "an array of integers";
	}
	return "?";
}

static int in_range(const struct mm_param *p, double v)
{
	return p->min > p->max || (v >= p->min && v <= p->max);
}

/* @v in the largest unit of @u (a table from the smallest up) that divides it exactly. */
static void fmt_units(const struct unit *const *u, double v, const char *tail, char *buf,
		      size_t len)
{
	const struct unit *best = NULL;
	for (; *u; u++)
		if (v >= (*u)->mult && fmod(v, (*u)->mult) == 0)
			best = *u;
	if (best)
		snprintf(buf, len, "%.15g%s%s", v / best->mult, best->suffix, tail);
	else
		snprintf(buf, len, "%.15g%s", v, tail);
}

/* A range bound of @p as a user would write it ("1MiB", "100ms", "700MHz", "16384"). */
static void fmt_bound(const struct mm_param *p, double v, char *buf, size_t len)
{
	static const struct unit bu[] = { { "B", 1 }, { "KiB", 1024.0 }, { "MiB", 1048576.0 },
					  { "GiB", 1073741824.0 }, { "TiB", 1099511627776.0 } };
	static const struct unit du[] = { { "B", 1 }, { "kB", 1e3 }, { "MB", 1e6 }, { "GB", 1e9 },
					  { "TB", 1e12 } };
	static const struct unit tu[] = { { "ns", 1e-9 }, { "us", 1e-6 }, { "ms", 1e-3 }, { "s", 1 } };
	static const struct unit fu[] = { { "Hz", 1 }, { "kHz", 1e3 }, { "MHz", 1e6 }, { "GHz", 1e9 } };
	const struct unit *const sizes[] = { &bu[0], &bu[1], &bu[2], &bu[3], &bu[4], NULL };
	const struct unit *const rates[] = { &du[0], &du[1], &du[2], &du[3], &du[4], NULL };
	const struct unit *const freqs[] = { &fu[0], &fu[1], &fu[2], &fu[3], NULL };

	if (v == 0 && p->type != MM_P_TIME) {
		snprintf(buf, len, "0");
		return;
	}
	switch (p->type) {
	case MM_P_INT:
	case MM_P_INTLIST:
		snprintf(buf, len, "%.0f", v);
		return;
	case MM_P_SIZE: {
		/* binary ("64GiB") unless decimal is shorter ("1000TB" for 1e15) */
		char dec[48];
		fmt_units(sizes, v, "", buf, len);
		fmt_units(rates, v, "", dec, sizeof dec);
		if (strlen(dec) < strlen(buf))
			snprintf(buf, len, "%s", dec);
		return;
	}
	case MM_P_RATE:
		fmt_units(rates, v, "/s", buf, len);
		return;
	case MM_P_FREQ:
		fmt_units(freqs, v, "", buf, len);
		return;
	case MM_P_TIME: {
		/* times are rarely exact binary fractions: pick the unit by magnitude */
		const struct unit *t = &tu[3];
		for (int i = 3; i > 0 && v < tu[i].mult && v != 0; i--)
			t = &tu[i - 1];
		snprintf(buf, len, "%.6g%s", v / t->mult, t->suffix);
		return;
	}
	default:
		snprintf(buf, len, "%g", v);
		return;
	}
}

static int range_err(const struct mm_param *p, struct mm_err *e, const char *file,
		     const char *path)
{
	char lo[48], hi[48];
	fmt_bound(p, p->min, lo, sizeof lo);
	fmt_bound(p, p->max, hi, sizeof hi);
	return mm_errf(e, file, path, "expected a value in [%s, %s]", lo, hi);
}

static int is_skipped(const char *key, const char *const *skip)
{
	for (; skip && *skip; skip++)
		if (strcmp(key, *skip) == 0)
			return 1;
	return 0;
}

/* Store one JSON value into the field of @cfg that @p names. */
static int load_one(const struct mm_param *p, void *cfg, json_t *v, const char *file,
		    const char *path, struct mm_err *e)
{
	char *field = (char *)cfg + p->offset;
	double d;

	switch (p->type) {
	case MM_P_BOOL:
		if (!json_is_boolean(v))
			return mm_errf(e, file, path, "expected true or false");
		*(bool *)field = json_is_true(v);
		return 0;
	case MM_P_INT: {
		if (!json_is_integer(v))
			return mm_errf(e, file, path, "expected an integer");
		json_int_t x = json_integer_value(v);
		if (!in_range(p, (double)x))
			return range_err(p, e, file, path);
		*(int64_t *)field = x;
		return 0;
	}
	case MM_P_DOUBLE:
		if (!json_is_number(v))
			return mm_errf(e, file, path, "expected a number");
		d = json_number_value(v);
		if (!in_range(p, d))
			return range_err(p, e, file, path);
		*(double *)field = d;
		return 0;
	case MM_P_STRING: {
		if (!json_is_string(v))
			return mm_errf(e, file, path, "expected a string");
		const char *s = json_string_value(v);
		if (strlen(s) >= MM_PSTR)
			return mm_errf(e, file, path, "expected a string shorter than %d bytes", MM_PSTR);
		strcpy(field, s);
		return 0;
	}
	case MM_P_ENUM: {
		if (!json_is_string(v))
			goto bad_enum;
		for (int i = 0; p->choices[i]; i++)
			if (strcmp(p->choices[i], json_string_value(v)) == 0) {
				*(int *)field = i;
				return 0;
			}
bad_enum: {
		char list[256] = "";
		for (int i = 0; p->choices[i]; i++) {
			size_t n = strlen(list);
			snprintf(list + n, sizeof list - n, "%s\"%s\"", i ? ", " : "", p->choices[i]);
		}
		return mm_errf(e, file, path, "expected one of %s", list);
	}
	}
	case MM_P_SIZE:
	case MM_P_RATE:
	case MM_P_TIME:
	case MM_P_FREQ:
		if (json_is_number(v)) {
			d = json_number_value(v);
			if (d < 0)
				return mm_errf(e, file, path, "expected %s, not a negative number",
					       mm_ptype_name(p->type));
		} else if (!json_is_string(v) || mm_parse_unit(p->type, json_string_value(v), &d)) {
			return mm_errf(e, file, path, "expected %s", mm_ptype_name(p->type));
		}
		if (!in_range(p, d))
			return range_err(p, e, file, path);
		if (p->type == MM_P_SIZE) {
			if (d > 1.8e19 || d != floor(d))
				return mm_errf(e, file, path, "expected a whole number of bytes");
			*(uint64_t *)field = (uint64_t)d;
		} else {
			*(double *)field = d;
		}
		return 0;
	case MM_P_INTLIST: {
		struct mm_intlist *l = (struct mm_intlist *)field;
		if (!json_is_array(v))
			return mm_errf(e, file, path, "expected an array of integers");
		if (json_array_size(v) > MM_INTLIST_MAX)
			return mm_errf(e, file, path, "expected at most %d integers", MM_INTLIST_MAX);
		l->n = 0;
		size_t i;
		json_t *x;
		json_array_foreach(v, i, x) {
			char ipath[256];
			snprintf(ipath, sizeof ipath, "%s[%zu]", path, i);
			if (!json_is_integer(x))
				return mm_errf(e, file, ipath, "expected an integer");
			if (!in_range(p, (double)json_integer_value(x)))
				return range_err(p, e, file, ipath);
			l->v[l->n++] = json_integer_value(x);
		}
		return 0;
	}
	}
	return mm_errf(e, file, path, "internal: unknown parameter kind");
}

int mm_params_load(const struct mm_param *spec, void *cfg, json_t *obj, const char *file,
		   const char *path, const char *const *skip, struct mm_err *e)
{
	char sub[512];
	const char *base = path && *path ? path : "";

	if (obj && !json_is_object(obj))
		return mm_errf(e, file, base, "expected an object");
	for (const struct mm_param *p = spec; p && p->key; p++) {
		snprintf(sub, sizeof sub, "%s%s%s", base, *base ? "." : "", p->key);
		json_t *v = obj ? json_object_get(obj, p->key) : NULL;
		if (v) {
			if (load_one(p, cfg, v, file, sub, e))
				return -1;
			continue;
		}
		if (!p->def)
			return mm_errf(e, file, sub, "missing (expected %s)", mm_ptype_name(p->type));
		json_error_t je;
		json_t *d = json_loads(p->def, JSON_DECODE_ANY, &je);
		if (!d)
			return mm_errf(e, file, sub, "internal: bad default '%s'", p->def);
		int rc = load_one(p, cfg, d, file, sub, e);
		json_decref(d);
		if (rc)
			return mm_errf(e, file, sub, "internal: default '%s' rejected", p->def);
	}
	if (obj) {
		const char *key;
		json_t *v;
		json_object_foreach(obj, key, v) {
			if (is_skipped(key, skip))
				continue;
			const struct mm_param *p = spec;
			for (; p && p->key; p++)
				if (strcmp(p->key, key) == 0)
					break;
			if (!p || !p->key) {
				snprintf(sub, sizeof sub, "%s%s%s", base, *base ? "." : "", key);
				char list[400] = "";
				for (p = spec; p && p->key; p++) {
					size_t n = strlen(list);
					if (n < sizeof list - 1)
						snprintf(list + n, sizeof list - n, "%s%s", p == spec ? "" : ", ", p->key);
				}
				return mm_errf(e, file, sub, "unknown key (expected one of: %s)",
					       *list ? list : "no keys");
			}
		}
	}
	return 0;
}

json_t *mm_params_dump(const struct mm_param *spec, const void *cfg)
{
	json_t *o = json_object();
	for (const struct mm_param *p = spec; p && p->key; p++) {
		const char *field = (const char *)cfg + p->offset;
		json_t *v = NULL;
		switch (p->type) {
		case MM_P_BOOL: v = json_boolean(*(const bool *)field); break;
		case MM_P_INT: v = json_integer(*(const int64_t *)field); break;
		case MM_P_SIZE: v = json_integer((json_int_t) * (const uint64_t *)field); break;
		case MM_P_DOUBLE:
		case MM_P_RATE:
		case MM_P_TIME:
		case MM_P_FREQ: v = json_real(*(const double *)field); break;
		case MM_P_STRING: v = json_string(field); break;
		case MM_P_ENUM: v = json_string(p->choices[*(const int *)field]); break;
		case MM_P_INTLIST: {
			const struct mm_intlist *l = (const struct mm_intlist *)field;
			v = json_array();
			for (int i = 0; i < l->n; i++)
				json_array_append_new(v, json_integer(l->v[i]));
			break;
		}
		}
		json_object_set_new(o, p->key, v);
	}
	return o;
}

void mm_params_doc(const struct mm_param *spec, FILE *out)
{
	fprintf(out, "| key | kind | range | default | meaning |\n|---|---|---|---|---|\n");
	for (const struct mm_param *p = spec; p && p->key; p++) {
		char range[128] = "";
		if (p->type == MM_P_ENUM) {
			size_t n = 0;
			for (int i = 0; p->choices[i] && n < sizeof range - 1; i++)
				n += (size_t)snprintf(range + n, sizeof range - n, "%s%s", i ? ", " : "", p->choices[i]);
		} else if (p->min <= p->max && p->type != MM_P_STRING && p->type != MM_P_BOOL) {
			char lo[48], hi[48];   /* a string or boolean has no range */
			fmt_bound(p, p->min, lo, sizeof lo);
			fmt_bound(p, p->max, hi, sizeof hi);
			snprintf(range, sizeof range, "%s .. %s", lo, hi);
		}
		fprintf(out, "| `%s` | %s | %s | %s | %s |\n", p->key, mm_ptype_name(p->type), range,
			p->def ? p->def : "(required)", p->help ? p->help : "");
	}
}

json_t *mm_params_json(const struct mm_param *spec)
{
	json_t *a = json_array();
	for (const struct mm_param *p = spec; a && p && p->key; p++) {
		json_t *o = json_pack("{s:s, s:s, s:s, s:s}", "key", p->key, "kind",
				      mm_ptype_name(p->type), "default", p->def ? p->def : "(required)",
				      "help", p->help ? p->help : "");
		if (!o)
			continue;
		if (p->type == MM_P_ENUM) {
			json_t *c = json_array();
			for (int i = 0; p->choices[i]; i++)
				json_array_append_new(c, json_string(p->choices[i]));
			json_object_set_new(o, "choices", c);
		} else if (p->min <= p->max && p->type != MM_P_STRING && p->type != MM_P_BOOL) {
			char lo[48], hi[48];   /* the same bounds mm_params_doc() prints */
			fmt_bound(p, p->min, lo, sizeof lo);
			fmt_bound(p, p->max, hi, sizeof hi);
			json_object_set_new(o, "range", json_pack("[s,s]", lo, hi));
		}
		json_array_append_new(a, o);
	}
	return a;
}
