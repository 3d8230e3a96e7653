/*
 * test_params.c - unit tests of emu/core/params.c, the one loader of parameter tables.
 *
 * Design: a local config struct with one field of every kind and a table over it
 * (spec) exercises mm_params_load() the way scenario sections and modules use it;
 * mm_parse_unit() is checked suffix by suffix against the stored base unit.  Error
 * messages are compared in full ("FILE: PATH: what was expected"), since they are
 * the user interface of bad input.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "emu/core/params.h"

/* Equal up to rounding: "4.5ms" is 4.5 * 1e-3, not the literal 4.5e-3. */
static int near(double a, double b)
{
	return a == b || (a > b * (1 - 1e-12) && a < b * (1 + 1e-12));
}

/* ---- mm_parse_unit ---------------------------------------------------------------- */

struct unit_case {
	enum mm_ptype type;
	const char *text;
	double want;
};

static const struct unit_case good_units[] = {
	/* sizes: binary, single letters as the kernel's mem= (binary), decimal kB/MB/GB */
	{ MM_P_SIZE, "4096", 4096 },
	{ MM_P_SIZE, "512B", 512 },
	{ MM_P_SIZE, "4KiB", 4096 },
	{ MM_P_SIZE, "1008MiB", 1008.0 * 1048576 },
	{ MM_P_SIZE, "1.5GiB", 1.5 * 1073741824 },
	{ MM_P_SIZE, "2TiB", 2.0 * 1099511627776 },
	{ MM_P_SIZE, "64K", 65536 },
	{ MM_P_SIZE, "64k", 65536 },
	{ MM_P_SIZE, "1024M", 1073741824 },
	{ MM_P_SIZE, "1024m", 1073741824 },
	{ MM_P_SIZE, "1G", 1073741824 },
	{ MM_P_SIZE, "1g", 1073741824 },
	{ MM_P_SIZE, "36kB", 36e3 },
	{ MM_P_SIZE, "36KB", 36e3 },
	{ MM_P_SIZE, "36MB", 36e6 },
	{ MM_P_SIZE, "36GB", 36e9 },
	{ MM_P_SIZE, "3TB", 3e12 },
	{ MM_P_SIZE, "1 MiB", 1048576 },        /* blanks before the unit */
	{ MM_P_SIZE, "  2MiB", 2097152 },       /* and before the number */
	{ MM_P_SIZE, ".5KiB", 512 },
	{ MM_P_SIZE, "1e3", 1000 },
	/* rates: a size unit followed by /s, or a plain number of bytes/s */
	{ MM_P_RATE, "60MB/s", 60e6 },
	{ MM_P_RATE, "1GiB/s", 1073741824 },
	{ MM_P_RATE, "100kB/s", 1e5 },
	{ MM_P_RATE, "512B/s", 512 },
	{ MM_P_RATE, "4K/s", 4096 },
	{ MM_P_RATE, "1000", 1000 },
	{ MM_P_RATE, "1000/s", 1000 },
	/* times */
	{ MM_P_TIME, "250ns", 250e-9 },
	{ MM_P_TIME, "10us", 10e-6 },
	{ MM_P_TIME, "8ms", 8e-3 },
	{ MM_P_TIME, "4.5ms", 4.5e-3 },
	{ MM_P_TIME, "300s", 300 },
	{ MM_P_TIME, "5min", 300 },
	{ MM_P_TIME, "2h", 7200 },
	{ MM_P_TIME, "0.25", 0.25 },
	/* frequencies */
	{ MM_P_FREQ, "50Hz", 50 },
	{ MM_P_FREQ, "32kHz", 32e3 },
	{ MM_P_FREQ, "700MHz", 700e6 },
	{ MM_P_FREQ, "3.2GHz", 3.2e9 },
	{ MM_P_FREQ, "1000000", 1e6 },
};

static const struct unit_case bad_units[] = {
	{ MM_P_SIZE, "", 0 },
	{ MM_P_SIZE, "   ", 0 },
	{ MM_P_SIZE, "MiB", 0 },
	{ MM_P_SIZE, "-1MiB", 0 },
	{ MM_P_SIZE, "+1MiB", 0 },
	{ MM_P_SIZE, "1008XB", 0 },
	{ MM_P_SIZE, "1mib", 0 },           /* units are case-sensitive */
	{ MM_P_SIZE, "1 MiB ", 0 },         /* trailing blank */
	{ MM_P_SIZE, "1MiB/s", 0 },         /* a rate is not a size */
	{ MM_P_SIZE, "0x10MiB", 0 },        /* no hex */
	{ MM_P_SIZE, "inf", 0 },
	{ MM_P_SIZE, "nan", 0 },
	{ MM_P_SIZE, "1e400", 0 },          /* overflows a double */
	{ MM_P_SIZE, "1 averyveryverylongunit", 0 },
	{ MM_P_RATE, "60MB/h", 0 },
	{ MM_P_RATE, "60MB", 0 },           /* a size is not a rate */
	{ MM_P_RATE, "60Mb/s", 0 },
	{ MM_P_RATE, "/s", 0 },
	{ MM_P_TIME, "4.5 lightyears", 0 },
	{ MM_P_TIME, "8MS", 0 },
	{ MM_P_TIME, "1d", 0 },
	{ MM_P_TIME, "-8ms", 0 },
	{ MM_P_FREQ, "700 parsecs", 0 },
	{ MM_P_FREQ, "700mhz", 0 },
	{ MM_P_FREQ, "3.2THz", 0 },
	{ MM_P_INT, "12", 0 },              /* not a unit kind */
	{ MM_P_BOOL, "1", 0 },
};

static void parse_unit_accepts(void **state)
{
	for (size_t i = 0; i < sizeof good_units / sizeof good_units[0]; i++) {
		const struct unit_case *c = &good_units[i];
		double v = -1;
		if (mm_parse_unit(c->type, c->text, &v) != 0) {
			print_error("\"%s\" rejected\n", c->text);
			fail();
		}
		if (!near(v, c->want)) {
			print_error("\"%s\": got %.17g, want %.17g\n", c->text, v, c->want);
			fail();
		}
	}
}

static void parse_unit_rejects(void **state)
{
	for (size_t i = 0; i < sizeof bad_units / sizeof bad_units[0]; i++) {
		const struct unit_case *c = &bad_units[i];
		double v = 12345;
		if (mm_parse_unit(c->type, c->text, &v) != -1) {
			print_error("\"%s\" accepted as %g\n", c->text, v);
			fail();
		}
		assert_true(v == 12345);   /* untouched on failure */
	}
}

static void ptype_names(void **state)
{
	for (int t = MM_P_BOOL; t <= MM_P_INTLIST; t++)
		assert_string_not_equal(mm_ptype_name((enum mm_ptype)t), "?");
	assert_string_equal(mm_ptype_name(MM_P_SIZE), "a size such as \"1008MiB\" or a number of bytes");
}

/* ---- mm_params_load ------------------------------------------------------------------ */

struct cfg {
	bool flag;
	int64_t count;
	double ratio;
	char label[MM_PSTR];
	int color;
	uint64_t mem;
	double bw;
	double lat;
	double clk;
	struct mm_intlist cols;
	uint64_t need;   /* required */
};

static const char *const colors[] = { "red", "green", "blue", NULL };

static const struct mm_param spec[] = {
	MM_PARAM(struct cfg, flag, "flag", MM_P_BOOL, 1, 0, "true", "a flag"),
	MM_PARAM(struct cfg, count, "count", MM_P_INT, 1, 64, "4", "a count"),
	MM_PARAM(struct cfg, ratio, "ratio", MM_P_DOUBLE, 0, 1, "0.5", "a ratio"),
	MM_PARAM(struct cfg, label, "label", MM_P_STRING, 1, 0, "\"none\"", "a label"),
	MM_PARAM_ENUM(struct cfg, color, "color", colors, "\"green\"", "a color"),
	MM_PARAM(struct cfg, mem, "mem", MM_P_SIZE, 1 << 20, 1ULL << 40, "\"64MiB\"", "memory"),
	MM_PARAM(struct cfg, bw, "bw", MM_P_RATE, 1e5, 1e11, "\"60MB/s\"", "bandwidth"),
	MM_PARAM(struct cfg, lat, "lat", MM_P_TIME, 0, 0.1, "\"4.5ms\"", "latency"),
	MM_PARAM(struct cfg, clk, "clk", MM_P_FREQ, 1e6, 1e11, "\"1GHz\"", "clock"),
	MM_PARAM(struct cfg, cols, "cols", MM_P_INTLIST, 0, 100, "[1, 2]", "columns"),
	MM_PARAM(struct cfg, need, "need", MM_P_SIZE, 1, 0, NULL, "required size"),
	MM_PARAM_END
};

/* Load @text (a JSON object) into @c. Returns: 0 or -1; @e holds the message. */
static int load(struct cfg *c, const char *text, struct mm_err *e)
{
	json_error_t je;
	json_t *o = json_loads(text, JSON_DECODE_ANY, &je);
	if (!o) {
		print_error("bad test JSON %s: %s\n", text, je.text);
		fail();
	}
	memset(c, 0xa5, sizeof *c);
	e->msg[0] = '\0';
	int rc = mm_params_load(spec, c, o, "f.json", "sec", NULL, e);
	json_decref(o);
	return rc;
}

/* Expect @text to be rejected with exactly @msg. */
static void expect_error(const char *text, const char *msg)
{
	struct cfg c;
	struct mm_err e;
	if (load(&c, text, &e) != -1) {
		print_error("accepted: %s\n", text);
		fail();
	}
	if (strcmp(e.msg, msg) != 0) {
		print_error("%s\n  got:  %s\n  want: %s\n", text, e.msg, msg);
		fail();
	}
}

static void defaults(void **state)
{
	struct cfg c;
	struct mm_err e;
	assert_int_equal(load(&c, "{\"need\": 1}", &e), 0);
	assert_true(c.flag);
	assert_int_equal(c.count, 4);
	assert_true(near(c.ratio, 0.5));
	assert_string_equal(c.label, "none");
	assert_int_equal(c.color, 1);
	assert_int_equal(c.mem, 64ULL << 20);
	assert_true(near(c.bw, 60e6));
	assert_true(near(c.lat, 4.5e-3));
	assert_true(near(c.clk, 1e9));
	assert_int_equal(c.cols.n, 2);
	assert_int_equal(c.cols.v[0], 1);
	assert_int_equal(c.cols.v[1], 2);
	assert_int_equal(c.need, 1);
}

static void values(void **state)
{
	struct cfg c;
	struct mm_err e;
	assert_int_equal(load(&c, "{\"flag\": false, \"count\": 64, \"ratio\": 1, \"label\": \"x y\","
				  " \"color\": \"blue\", \"mem\": \"1TiB\", \"bw\": 1e11, \"lat\": \"100ms\","
				  " \"clk\": \"700MHz\", \"cols\": [], \"need\": \"1.5KiB\"}", &e), 0);
	assert_false(c.flag);
	assert_int_equal(c.count, 64);
	assert_true(near(c.ratio, 1));
	assert_string_equal(c.label, "x y");
	assert_int_equal(c.color, 2);
	assert_int_equal(c.mem, 1ULL << 40);
	assert_true(near(c.bw, 1e11));
	assert_true(near(c.lat, 0.1));
	assert_true(near(c.clk, 700e6));
	assert_int_equal(c.cols.n, 0);
	assert_int_equal(c.need, 1536);
	/* numbers are taken in the base unit; inclusive bounds */
	assert_int_equal(load(&c, "{\"mem\": 1048576, \"lat\": 0, \"clk\": 1000000, \"count\": 1,"
				  " \"ratio\": 0, \"need\": 2.0}", &e), 0);
	assert_int_equal(c.mem, 1048576);
	assert_true(c.lat == 0);
	assert_true(near(c.clk, 1e6));
	assert_int_equal(c.need, 2);
}

static void null_object_gives_defaults_or_missing(void **state)
{
	struct cfg c;
	struct mm_err e = { "" };
	assert_int_equal(mm_params_load(spec, &c, NULL, "f.json", "sec", NULL, &e), -1);
	assert_string_equal(e.msg, "f.json: sec.need: missing (expected a size such as \"1008MiB\" or a number of bytes)");
	/* no path: keys are named at the top level */
	assert_int_equal(mm_params_load(spec, &c, NULL, "f.json", NULL, NULL, &e), -1);
	assert_string_equal(e.msg, "f.json: need: missing (expected a size such as \"1008MiB\" or a number of bytes)");
	assert_int_equal(mm_params_load(spec, &c, NULL, "f.json", "", NULL, &e), -1);
	assert_string_equal(e.msg, "f.json: need: missing (expected a size such as \"1008MiB\" or a number of bytes)");
	/* an empty table accepts NULL and {} */
	static const struct mm_param none[] = { MM_PARAM_END };
	json_t *empty = json_object();
	assert_int_equal(mm_params_load(none, &c, NULL, "f.json", "x", NULL, &e), 0);
	assert_int_equal(mm_params_load(none, &c, empty, "f.json", "x", NULL, &e), 0);
	json_decref(empty);
}

static void not_an_object(void **state)
{
	expect_error("[1]", "f.json: sec: expected an object");
	expect_error("\"x\"", "f.json: sec: expected an object");
}

static void unknown_keys(void **state)
{
	expect_error("{\"need\": 1, \"colour\": \"red\"}",
		     "f.json: sec.colour: unknown key (expected one of: flag, count, ratio, label, "
		     "color, mem, bw, lat, clk, cols, need)");
	static const struct mm_param none[] = { MM_PARAM_END };
	json_t *o = json_pack("{s:i}", "x", 1);
	struct cfg c;
	struct mm_err e;
	assert_int_equal(mm_params_load(none, &c, o, "f.json", "m", NULL, &e), -1);
	assert_string_equal(e.msg, "f.json: m.x: unknown key (expected one of: no keys)");
	json_decref(o);
}

static void skip_list(void **state)
{
	static const char *const skip[] = { "module", "type", NULL };
	json_t *o = json_pack("{s:s,s:s,s:i}", "module", "clock", "type", "trace", "need", 8);
	struct cfg c;
	struct mm_err e = { "" };
	assert_int_equal(mm_params_load(spec, &c, o, "f.json", "k", skip, &e), 0);
	assert_int_equal(c.need, 8);
	assert_int_equal(mm_params_load(spec, &c, o, "f.json", "k", NULL, &e), -1);
	assert_non_null(strstr(e.msg, "f.json: k.module: unknown key"));
	json_decref(o);
}

static void wrong_types(void **state)
{
	expect_error("{\"need\": 1, \"flag\": \"yes\"}", "f.json: sec.flag: expected true or false");
	expect_error("{\"need\": 1, \"flag\": 1}", "f.json: sec.flag: expected true or false");
	expect_error("{\"need\": 1, \"count\": \"two\"}", "f.json: sec.count: expected an integer");
	expect_error("{\"need\": 1, \"count\": 2.0}", "f.json: sec.count: expected an integer");
	expect_error("{\"need\": 1, \"ratio\": \"0.5\"}", "f.json: sec.ratio: expected a number");
	expect_error("{\"need\": 1, \"label\": 3}", "f.json: sec.label: expected a string");
	expect_error("{\"need\": 1, \"mem\": true}",
		     "f.json: sec.mem: expected a size such as \"1008MiB\" or a number of bytes");
	expect_error("{\"need\": 1, \"bw\": \"60MB/h\"}",
		     "f.json: sec.bw: expected a rate such as \"60MB/s\" or a number of bytes/s");
	expect_error("{\"need\": 1, \"lat\": \"4.5 lightyears\"}",
		     "f.json: sec.lat: expected a time such as \"8ms\" or a number of seconds");
	expect_error("{\"need\": 1, \"clk\": \"700 parsecs\"}",
		     "f.json: sec.clk: expected a frequency such as \"700MHz\" or a number of Hz");
	expect_error("{\"need\": 1, \"clk\": -5}",
		     "f.json: sec.clk: expected a frequency such as \"700MHz\" or a number of Hz, not a negative number");
	expect_error("{\"need\": 1, \"cols\": 3}", "f.json: sec.cols: expected an array of integers");
	expect_error("{\"need\": 1, \"cols\": [1, \"2\"]}", "f.json: sec.cols[1]: expected an integer");
	expect_error("{\"need\": null}",
		     "f.json: sec.need: expected a size such as \"1008MiB\" or a number of bytes");
}

static void strings(void **state)
{
	char long_label[MM_PSTR + 40];
	char text[sizeof long_label + 64];
	memset(long_label, 'a', MM_PSTR);
	long_label[MM_PSTR] = '\0';
	snprintf(text, sizeof text, "{\"need\": 1, \"label\": \"%s\"}", long_label);
	expect_error(text, "f.json: sec.label: expected a string shorter than 128 bytes");
	long_label[MM_PSTR - 1] = '\0';   /* 127 bytes fit */
	snprintf(text, sizeof text, "{\"need\": 1, \"label\": \"%s\"}", long_label);
	struct cfg c;
	struct mm_err e;
	assert_int_equal(load(&c, text, &e), 0);
	assert_int_equal(strlen(c.label), MM_PSTR - 1);
}

static void ranges(void **state)
{
	expect_error("{\"need\": 1, \"count\": 0}", "f.json: sec.count: expected a value in [1, 64]");
	expect_error("{\"need\": 1, \"count\": 65}", "f.json: sec.count: expected a value in [1, 64]");
	expect_error("{\"need\": 1, \"ratio\": 1.5}", "f.json: sec.ratio: expected a value in [0, 1]");
	expect_error("{\"need\": 1, \"ratio\": -0.1}", "f.json: sec.ratio: expected a value in [0, 1]");
	expect_error("{\"need\": 1, \"mem\": \"1KiB\"}", "f.json: sec.mem: expected a value in [1MiB, 1TiB]");
	expect_error("{\"need\": 1, \"mem\": \"1025GiB\"}", "f.json: sec.mem: expected a value in [1MiB, 1TiB]");
	expect_error("{\"need\": 1, \"bw\": \"1kB/s\"}",
		     "f.json: sec.bw: expected a value in [100kB/s, 100GB/s]");
	expect_error("{\"need\": 1, \"lat\": \"1s\"}", "f.json: sec.lat: expected a value in [0s, 100ms]");
	expect_error("{\"need\": 1, \"clk\": \"1kHz\"}", "f.json: sec.clk: expected a value in [1MHz, 100GHz]");
	expect_error("{\"need\": 1, \"cols\": [5, 101]}", "f.json: sec.cols[1]: expected a value in [0, 100]");
	expect_error("{\"need\": 1, \"cols\": [-1]}", "f.json: sec.cols[0]: expected a value in [0, 100]");
}

static void sizes_whole_bytes(void **state)
{
	/* a bound that is no round binary size is shown in decimal units */
	static const struct mm_param big[] = {
		MM_PARAM(struct cfg, mem, "size", MM_P_SIZE, 1, 1e15, "1", "capacity"),
		MM_PARAM_END
	};
	struct cfg c;
	struct mm_err e;
	json_t *o = json_pack("{s:s}", "size", "2000TB");
	assert_int_equal(mm_params_load(big, &c, o, "f.json", "d", NULL, &e), -1);
	assert_string_equal(e.msg, "f.json: d.size: expected a value in [1B, 1000TB]");
	json_decref(o);

	expect_error("{\"need\": 1.5}", "f.json: sec.need: expected a whole number of bytes");
	expect_error("{\"need\": \"1.0000001KiB\"}", "f.json: sec.need: expected a whole number of bytes");
	expect_error("{\"need\": 1e20}", "f.json: sec.need: expected a whole number of bytes");
	expect_error("{\"need\": -4096}",
		     "f.json: sec.need: expected a size such as \"1008MiB\" or a number of bytes, not a negative number");
	assert_int_equal(load(&c, "{\"need\": 0}", &e), 0);   /* unchecked range: 0 is fine */
	assert_int_equal(c.need, 0);
}

static void enums(void **state)
{
	expect_error("{\"need\": 1, \"color\": \"purple\"}",
		     "f.json: sec.color: expected one of \"red\", \"green\", \"blue\"");
	expect_error("{\"need\": 1, \"color\": 0}",
		     "f.json: sec.color: expected one of \"red\", \"green\", \"blue\"");
	expect_error("{\"need\": 1, \"color\": \"Red\"}",
		     "f.json: sec.color: expected one of \"red\", \"green\", \"blue\"");
	struct cfg c;
	struct mm_err e;
	assert_int_equal(load(&c, "{\"need\": 1, \"color\": \"red\"}", &e), 0);
	assert_int_equal(c.color, 0);
}

static void intlists(void **state)
{
	struct cfg c;
	struct mm_err e;
	assert_int_equal(load(&c, "{\"need\": 1, \"cols\": [0, 100, 7]}", &e), 0);
	assert_int_equal(c.cols.n, 3);
	assert_int_equal(c.cols.v[0], 0);
	assert_int_equal(c.cols.v[1], 100);
	assert_int_equal(c.cols.v[2], 7);
	char text[256] = "{\"need\": 1, \"cols\": [0";
	for (int i = 1; i < MM_INTLIST_MAX; i++)
		strcat(text, ", 1");
	strcat(text, "]}");
	assert_int_equal(load(&c, text, &e), 0);
	assert_int_equal(c.cols.n, MM_INTLIST_MAX);
	text[strlen(text) - 2] = '\0';
	strcat(text, ", 1]}");
	expect_error(text, "f.json: sec.cols: expected at most 16 integers");
}

static void bad_default_is_internal_error(void **state)
{
	struct cfg c;
	struct mm_err e;
	static const struct mm_param bad[] = {
		MM_PARAM(struct cfg, count, "count", MM_P_INT, 1, 64, "100", "out of its own range"),
		MM_PARAM_END
	};
	assert_int_equal(mm_params_load(bad, &c, NULL, "f.json", "s", NULL, &e), -1);
	assert_string_equal(e.msg, "f.json: s.count: internal: default '100' rejected");
	static const struct mm_param syntax[] = {
		MM_PARAM(struct cfg, count, "count", MM_P_INT, 1, 64, "{", "not JSON"),
		MM_PARAM_END
	};
	assert_int_equal(mm_params_load(syntax, &c, NULL, "f.json", "s", NULL, &e), -1);
	assert_string_equal(e.msg, "f.json: s.count: internal: bad default '{'");
}

/* The dump of a loaded config loads back to the same config. */
static void dump_round_trip(void **state)
{
	struct cfg a, b;
	struct mm_err e;
	assert_int_equal(load(&a, "{\"flag\": false, \"count\": 9, \"label\": \"z\", \"color\": \"blue\","
				  " \"mem\": \"3GiB\", \"bw\": \"70MB/s\", \"lat\": \"8ms\", \"clk\": \"3.2GHz\","
				  " \"cols\": [3, 4, 5], \"need\": 4096}", &e), 0);
	json_t *d = mm_params_dump(spec, &a);
	assert_non_null(d);
	assert_int_equal(json_object_size(d), 11);
	assert_int_equal(json_integer_value(json_object_get(d, "mem")), 3LL << 30);
	assert_string_equal(json_string_value(json_object_get(d, "color")), "blue");
	assert_true(near(json_real_value(json_object_get(d, "clk")), 3.2e9));
	memset(&b, 0, sizeof b);
	assert_int_equal(mm_params_load(spec, &b, d, "f.json", "sec", NULL, &e), 0);
	json_decref(d);
	assert_int_equal(a.flag, b.flag);
	assert_int_equal(a.count, b.count);
	assert_true(a.ratio == b.ratio);
	assert_string_equal(a.label, b.label);
	assert_int_equal(a.color, b.color);
	assert_int_equal(a.mem, b.mem);
	assert_true(a.bw == b.bw && a.lat == b.lat && a.clk == b.clk);
	assert_int_equal(b.cols.n, 3);
	assert_memory_equal(a.cols.v, b.cols.v, 3 * sizeof a.cols.v[0]);
	assert_int_equal(a.need, b.need);
}

static void doc_table(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	mm_params_doc(spec, f);
	fclose(f);
	assert_non_null(strstr(buf, "| key | kind | range | default | meaning |\n|---|---|---|---|---|\n"));
	assert_non_null(strstr(buf, "| `color` | one of the listed names | red, green, blue | \"green\" | a color |\n"));
	assert_non_null(strstr(buf, "| `mem` | a size such as \"1008MiB\" or a number of bytes | 1MiB .. 1TiB | \"64MiB\" | memory |\n"));
	assert_non_null(strstr(buf, "| `need` | a size such as \"1008MiB\" or a number of bytes |  | (required) | required size |\n"));
	assert_non_null(strstr(buf, "| `lat` | a time such as \"8ms\" or a number of seconds | 0s .. 100ms |"));
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parse_unit_accepts),
		cmocka_unit_test(parse_unit_rejects),
		cmocka_unit_test(ptype_names),
		cmocka_unit_test(defaults),
		cmocka_unit_test(values),
		cmocka_unit_test(null_object_gives_defaults_or_missing),
		cmocka_unit_test(not_an_object),
		cmocka_unit_test(unknown_keys),
		cmocka_unit_test(skip_list),
		cmocka_unit_test(wrong_types),
		cmocka_unit_test(strings),
		cmocka_unit_test(ranges),
		cmocka_unit_test(sizes_whole_bytes),
		cmocka_unit_test(enums),
		cmocka_unit_test(intlists),
		cmocka_unit_test(bad_default_is_internal_error),
		cmocka_unit_test(dump_round_trip),
		cmocka_unit_test(doc_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
