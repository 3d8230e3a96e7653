/*
 * test_cli.c - black-box tests of the mmemu command line.
 *
 * Design: every test runs the built binary ($MMEMU, set by tests/meson.build; the
 * working directory is the source root) in a child process with stdout and stderr
 * redirected to files in a private temporary directory, then asserts the exit
 * status and the exact shape of the output.  The malformed scenarios under
 * tests/bad/ are driven by one table (bad_cases): file -> the JSON path (or
 * "line N") that must follow "FILE: " in the one-line error -> a substring of the
 * message.  Adding a case is one file plus one table line; a file without a table
 * line fails the test (table_covers_every_bad_file).  The contract checked for
 * each: exit 2, exactly one line on stderr naming the file and the path, nothing
 * on stdout, no results file.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "emu/cli/cli.h"
#include "emu/core/version.h"
#include "emu/engine/scenario.h"

/* ---- the malformed scenarios ------------------------------------------------- */

struct bad_case {
	const char *file;   /* under tests/bad/ */
	const char *path;   /* what follows "tests/bad/FILE: " up to the next ": " */
	const char *msg;    /* a substring of the rest of the line */
};

static const struct bad_case bad_cases[] = {
	/* invalid JSON: jansson's message at a line number */
	{ "json-truncated.json", "line 5", "expected near end of file" },
	{ "json-trailing-comma.json", "line 4", "string or '}' expected" },
	{ "json-duplicate-key.json", "line 4", "duplicate object key" },
	{ "json-empty.json", "line 1", "'[' or '{' expected" },
	{ "json-garbage.json", "line 1", "'[' or '{' expected" },
	{ "top-array.json", "(top)", "expected a JSON object" },
	/* top level */
	{ "name-missing.json", "name", "missing" },
	{ "name-number.json", "name", "expected a non-empty string" },
	{ "name-empty.json", "name", "expected a non-empty string" },
	{ "description-number.json", "description", "expected a string" },
	{ "machine-missing.json", "machine", "missing (expected an object)" },
	{ "kernels-missing.json", "kernels", "missing (expected an object)" },
	{ "workload-missing.json", "workload", "missing (expected an object)" },
	{ "machine-array.json", "machine", "expected an object" },
	{ "kernels-string.json", "kernels", "expected an object" },
	{ "workload-number.json", "workload", "expected an object" },
	{ "sweep-array.json", "sweep", "expected an object" },
	{ "engine-string.json", "engine", "expected an object" },
	{ "top-unknown-key.json", "machin", "unknown key (expected one of: name, description" },
	{ "runs-zero.json", "runs", "expected an integer in [1, 1000]" },
	{ "runs-1001.json", "runs", "expected an integer in [1, 1000]" },
	{ "runs-string.json", "runs", "expected an integer in [1, 1000]" },
	{ "seed-negative.json", "seed", "expected a non-negative integer" },
	{ "seed-real.json", "seed", "expected a non-negative integer" },
	/* machine */
	{ "machine-unknown-key.json", "machine.colour", "unknown key (expected one of: cpus, clock, copy_bw, arch, memory" },
	{ "cpus-zero.json", "machine.cpus", "expected a value in [1, 64]" },
	{ "cpus-65.json", "machine.cpus", "expected a value in [1, 64]" },
	{ "cpus-string.json", "machine.cpus", "expected an integer" },
	{ "clock-parsecs.json", "machine.clock", "expected a frequency" },
	{ "clock-negative.json", "machine.clock", "not a negative number" },
	{ "clock-negative-string.json", "machine.clock", "expected a frequency" },
	{ "arch-sparc.json", "machine.arch", "expected one of \"i386\", \"x86_64\", \"alpha\"" },
	{ "memory-null.json", "machine.memory", "expected a size" },
	{ "memory-xb.json", "machine.memory", "expected a size" },
	{ "memory-not-page-multiple.json", "machine.memory", "multiple of the page size (4096 bytes)" },
	{ "memory-1kib.json", "machine.memory", "expected a value in [1MiB, " },
	{ "memory-over-2tib.json", "machine.memory", "expected a value in [1MiB, 2TiB]" },
	{ "memory-i386-over-64gib.json", "machine.memory", "expected at most 64GiB on i386 (PAE)" },
	{ "memory-fraction.json", "machine.memory", "expected a whole number of bytes" },
	{ "page-size-3000.json", "machine.page_size", "power of two" },
	{ "kernel-reserved-ge-memory.json", "machine.kernel_reserved", "less than machine.memory" },
	{ "costs-unknown-key.json", "machine.costs.tlb_miss", "unknown key (expected one of: atomic" },
	{ "costs-string.json", "machine.costs", "expected an object" },
	{ "copy-bw-no-rate.json", "machine.copy_bw", "expected a rate" },
	{ "bus-string.json", "machine.bus", "expected an object such as {\"bandwidth\": \"800MB/s\"}" },
	{ "bus-bandwidth-number-unit.json", "machine.bus.bandwidth", "expected a rate" },
	{ "bus-copy-bytes-negative.json", "machine.bus.copy_bytes", "expected a value in [0, 16]" },
	{ "bus-unknown-key.json", "machine.bus.bandwith", "unknown key (expected one of: bandwidth, copy_bytes, clear_bytes)" },
	/* disks */
	{ "disks-object.json", "machine.disks", "expected an array of disk objects" },
	{ "disks-nine.json", "machine.disks", "expected at most 8 disks" },
	{ "disk-not-object.json", "machine.disks[0]", "expected an object" },
	{ "disk-missing-read.json", "machine.disks[0].read", "missing (expected a rate" },
	{ "disk-rate-per-hour.json", "machine.disks[0].read", "expected a rate" },
	{ "disk-rpm-100.json", "machine.disks[0].rpm", "expected a value in [1000, 20000]" },
	{ "disk-seek-lightyears.json", "machine.disks[0].seek_avg", "expected a time" },
	{ "disk-queue-random.json", "machine.disks[0].queue", "expected one of \"fifo\", \"elevator\"" },
	{ "disk-unknown-key.json", "machine.disks[0].cache_policy", "unknown key" },
	{ "disk-name-xml.json", "machine.disks[0].name", "expected a disk name of letters" },
	{ "disk-track-gt-seek.json", "machine.disks[0]", "track_to_track must not exceed seek_avg" },
	{ "disk-duplicate-name.json", "machine.disks[1]", "duplicate disk name \"sda\"" },
	/* kernels */
	{ "kernels-empty.json", "kernels", "expected at least one kernel" },
	{ "kernel-not-object.json", "kernels.lru", "expected an object" },
	{ "kernel-unknown-key.json", "kernels.lru.policy", "unknown key (expected one of: reclaim" },
	{ "kernel-vm-swappiness.json", "kernels.lru.vm.swappiness", "expected a value in [0, 100]" },
	{ "kernel-description-number.json", "kernels.lru.description", "expected a string" },
	{ "kernel-vm-swap-too-big.json", "kernels.lru2q.vm.swap", "expected at most half of the machine's last disk sdb, 536870912 bytes" },
	{ "kernel-vm-swap-slots.json", "kernels.lru2q.vm.swap", "expected at most 4398046507008 bytes (1073741823 slots of 4096 bytes: a swap entry's offset bits); got 4398046511104 bytes" },
	{ "dbench-loadfile-missing.json", "workload.loadfile", "/nonexistent/client.txt: cannot open (No such file or directory)" },
	{ "kernel-vm-swap-bool.json", "kernels.lru2q.vm.swap", "expected a size" },
	{ "reclaim-unknown-module.json", "kernels.lru.reclaim", "unknown reclaim module \"nosuch\"" },
	{ "kmap-unknown-module.json", "kernels.lru.kmap", "unknown kmap module \"pkmap-typo\" (expected one of: direct, pkmap, atomic)" },
	{ "coloring-unknown-module.json", "kernels.lru.coloring", "unknown coloring module \"rainbow\"" },
	{ "coloring-unknown-param.json", "kernels.lru.coloring.bins", "unknown key" },
	{ "alloc-unknown-module.json", "kernels.lru.alloc", "unknown allocator \"slab\"" },
	{ "reclaim-lru2q-on-trace.json", "kernels.lru.reclaim", "module lru2q needs zones" },
	{ "reclaim-fifo-on-2read.json", "kernels.fifo.reclaim", "module fifo runs only on frames" },
	{ "reclaim-number.json", "kernels.lru.reclaim", "expected a module name or an object" },
	{ "reclaim-no-module.json", "kernels.lru.reclaim.module", "expected a string naming a reclaim module" },
	{ "reclaim-module-number.json", "kernels.lru.reclaim.module", "expected a string naming a reclaim module" },
	{ "reclaim-unknown-param.json", "kernels.lru.reclaim.hand_speed", "unknown key (expected one of: new_page_referenced)" },
	{ "reclaim-param-without-params.json", "kernels.lru.reclaim.lists", "reclaim module \"lru\" has none" },
	{ "clock-referenced-yes.json", "kernels.lru.reclaim.new_page_referenced", "expected true or false" },
	{ "kernel-machine-string.json", "kernels.lru.machine", "expected an object of machine overrides" },
	{ "kernel-machine-bad-field.json", "kernels.lru.machine.memory", "expected a size" },
	{ "kernel-machine-unknown-key.json", "kernels.lru.machine.mem", "unknown key" },
	/* validation refuses what the run would (the run refused it with exit 1) */
	{ "opt-loops.json", "workload.loops", "offline module opt needs loops = 1" },
	/* names are quoted: control bytes escaped, long ones cut in the middle */
	{ "kernel-name-control.json", "kernels.a\\nb\\u001b[31m.machine.mem", "unknown key" },
	{ "machine-key-very-long.json",
	  "machine.kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk...kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk",
	  "unknown key (expected one of: cpus, clock," },
	/* machine.variation (per-host differences) */
	{ "variation-negative.json", "machine.variation.clock", "expected a percentage in [0%, 50%]" },
	{ "variation-too-big.json", "machine.variation.disk", "expected a percentage in [0%, 50%]" },
	{ "variation-number.json", "machine.variation.clock", "expected a percentage such as \"0.5%\"" },
	{ "variation-unit.json", "machine.variation.disk", "expected a percentage such as \"0.5%\"" },
	{ "variation-unknown-key.json", "machine.variation.memory", "unknown key (expected one of: clock, disk, sched, hosts)" },
	{ "variation-sched-string.json", "machine.variation.sched", "expected true or false" },
	{ "variation-not-object.json", "machine.variation", "expected an object such as" },
	/* workload */
	{ "workload-type-missing.json", "workload.type", "missing (expected a workload name)" },
	{ "workload-type-unknown.json", "workload.type", "unknown workload \"nosuch\" (expected one of: " },
	{ "workload-type-number.json", "workload.type", "expected a string naming a workload" },
	{ "workload-unknown-key.json", "workload.files", "unknown key (expected one of: file" },
	{ "workload-file-missing.json", "workload.file", "missing (expected a string)" },
	{ "trace-file-absent.json", "workload.file", "tests/bad/no-such-file.trace: cannot open" },
	{ "trace-bad-line.json", "workload.file", "tests/bad/bad-line.trace: line 4: expected one page number per line" },
	{ "trace-format-xml.json", "workload.format", "expected one of \"auto\", \"plain\"" },
	{ "frames-too-many.json", "workload.frames", "frames (the machine's memory)" },
	{ "frames-negative.json", "workload.frames", "expected a value in [0, 1073741824]" },
	{ "workload-no-disk.json", "machine.disks", "the trace workload needs a disk" },
	{ "reaim-workfile-absent.json", "workload.workfile", "tests/bad/no-such.workfile: cannot open" },
	{ "reaim-workfile-bad-line.json", "workload.workfile", "tests/bad/bad-line.workfile: line 4: expected \"<hits> <test_name>\"" },
	{ "reaim-workfile-filesize-huge.json", "workload.workfile", "tests/bad/huge-filesize.workfile: line 2: expected a FILESIZE of at most 1G" },
	{ "reaim-workfile-hits-total.json", "workload.workfile", "tests/bad/hits-total.workfile: line 3: expected at most 16777216 (2^24) hits in all" },
	{ "reaim-users-start-gt-max.json", "workload.users_start", "expected at most users_max (8)" },
	{ "reaim-mode-unknown.json", "workload.mode", "expected one of \"fixed\", \"peak\", \"quick\"" },
	/* sweep */
	{ "sweep-bad-prefix.json", "sweep.cpus", "expected a parameter path starting with machine." },
	{ "sweep-value-not-array.json", "sweep.workload.frames", "expected a non-empty array" },
	{ "sweep-empty-array.json", "sweep.workload.frames", "expected a non-empty array" },
	{ "sweep-no-kernel.json", "sweep.kernels.clockpro.reclaim", "with NAME a kernel of this scenario" },
	{ "sweep-invalid-point.json", "workload.frames", "(sweep point 1: cpus=1 frames=100000)" },
	{ "sweep-workload-type.json", "sweep.workload.type", "cannot be swept" },
	{ "sweep-into-string.json", "sweep.kernels.lru.reclaim.new_page_referenced", "kernels.lru.reclaim is not an object" },
	{ "sweep-kernel-no-param.json", "sweep.kernels.lru", "expected kernels.NAME.PARAM" },
	/* the point's values are cleaned like the rest of the line: DEL escaped (fuzzing) */
	{ "sweep-point-del.json", "workload.format", "(sweep point 0: format=\"pl\\u007fain\")" },
	/* kernels x points x runs past 2^31: the count wrapped and expansion overflowed the heap */
	{ "runs-sims-overflow.json", "runs", "too many simulations (4294975104; limit 100000)" },
	/* engine */
	{ "engine-quantum-fast.json", "engine.quantum", "expected a time" },
	{ "engine-quantum-2s.json", "engine.quantum", "expected a value in [0s, 1s]" },
	{ "engine-unknown-key.json", "engine.speed", "unknown key (expected one of: quantum, max_time, lookahead, slack)" },
	{ "engine-slack-1s.json", "engine.slack", "expected a value in [0s, 10ms]" },
};

#define NBAD (sizeof bad_cases / sizeof bad_cases[0])

/* ---- running the binary ------------------------------------------------------ */

static char tmpdir[64];   /* private to this test process */
static int nspawn;

struct out {
	int status;           /* exit status, or 128 + signal */
	char *out, *err;      /* everything the command wrote (NUL-terminated) */
};

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap);
	assert_non_null(buf);
	size_t r;
	while ((r = fread(buf + n, 1, cap - n - 1, f)) > 0) {
		n += r;
		if (cap - n - 1 == 0) {
			cap *= 2;
			buf = realloc(buf, cap);
			assert_non_null(buf);
		}
	}
	fclose(f);
	buf[n] = '\0';
	return buf;
}

/*
 * Run mmemu with the NULL-terminated arguments after @env ("NAME=value" put into the
 * child's environment, or NULL).
 */
static struct out run_env(const char *env, ...)
{
	const char *mmemu = getenv("MMEMU");
	assert_non_null(mmemu);
	char *argv[32];
	int argc = 0;
	argv[argc++] = (char *)mmemu;
	va_list ap;
	va_start(ap, env);
	const char *a;
	while ((a = va_arg(ap, const char *)) != NULL && argc < 31)
		argv[argc++] = (char *)a;
	va_end(ap);
	argv[argc] = NULL;

	char opath[128], epath[128];
	nspawn++;
	snprintf(opath, sizeof opath, "%s/stdout.%d", tmpdir, nspawn);
	snprintf(epath, sizeof epath, "%s/stderr.%d", tmpdir, nspawn);
	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int fo = open(opath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int fe = open(epath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int fi = open("/dev/null", O_RDONLY);
		if (fo < 0 || fe < 0 || fi < 0)
			_exit(126);
		dup2(fi, 0);
		dup2(fo, 1);
		dup2(fe, 2);
		if (env)
			putenv((char *)env);
		execv(mmemu, argv);
		_exit(127);
	}
	int st;
	while (waitpid(pid, &st, 0) < 0)
		assert_int_equal(errno, EINTR);
	struct out o;
	o.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	o.out = slurp(opath);
	o.err = slurp(epath);
	unlink(opath);
	unlink(epath);
	return o;
}

#define run(...) run_env(NULL, __VA_ARGS__, (const char *)NULL)

static void out_free(struct out *o)
{
	free(o->out);
	free(o->err);
}

static int exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

/* Exactly one line: one '\n', at the end. */
static int one_line(const char *s)
{
	const char *nl = strchr(s, '\n');
	return nl && nl[1] == '\0';
}

/* Print what a failed check saw, then fail the current test. */
#define CHECK(cond, o, what)                                                               \
	do {                                                                               \
		if (!(cond)) {                                                             \
			print_error("%s: check failed: %s\n  status %d\n  stdout: %s\n  stderr: %s\n", \
				    what, #cond, (o).status, (o).out, (o).err);            \
			fail();                                                            \
		}                                                                          \
	} while (0)

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	return remove(path);
}

static int group_setup(void **state)
{
	snprintf(tmpdir, sizeof tmpdir, "/tmp/mmemu-cli-XXXXXX");
	if (!mkdtemp(tmpdir))
		return -1;
	return 0;
}

static int group_teardown(void **state)
{
	return nftw(tmpdir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* ---- bad scenarios ----------------------------------------------------------- */

/* The one-line error for @c: "mmemu: tests/bad/FILE: PATH: ...MSG..." */
static void check_error_line(const struct bad_case *c, const struct out *o, const char *cmd)
{
	char what[160], head[256];
	snprintf(what, sizeof what, "%s %s", cmd, c->file);
	CHECK(o->status == 2, *o, what);
	CHECK(o->out[0] == '\0', *o, what);
	CHECK(one_line(o->err), *o, what);
	snprintf(head, sizeof head, "mmemu: tests/bad/%s: %s: ", c->file, c->path);
	CHECK(strncmp(o->err, head, strlen(head)) == 0, *o, what);
	CHECK(strstr(o->err + strlen(head), c->msg) != NULL, *o, what);
}

static void bad_scenario(void **state)
{
	const struct bad_case *c = *state;
	char file[256], dir[256], outfile[300];
	snprintf(file, sizeof file, "tests/bad/%s", c->file);
	assert_true(exists(file));
	snprintf(dir, sizeof dir, "%s/run-%s", tmpdir, c->file);
	snprintf(outfile, sizeof outfile, "%s/out.json", dir);

	struct out o = run("run", "-o", outfile, file);
	check_error_line(c, &o, "run");
	CHECK(!exists(outfile), o, c->file);
	CHECK(!exists(dir), o, c->file);   /* not even the directory or a temporary file */
	out_free(&o);

	o = run("validate", file);
	check_error_line(c, &o, "validate");
	out_free(&o);
}

/* Every .json file under tests/bad has a line in the table, and the table no other. */
static void table_covers_every_bad_file(void **state)
{
	DIR *d = opendir("tests/bad");
	assert_non_null(d);
	struct dirent *de;
	int njson = 0;
	while ((de = readdir(d)) != NULL) {
		size_t l = strlen(de->d_name);
		if (l < 6 || strcmp(de->d_name + l - 5, ".json") != 0)
			continue;
		njson++;
		size_t i;
		for (i = 0; i < NBAD; i++)
			if (strcmp(bad_cases[i].file, de->d_name) == 0)
				break;
		if (i == NBAD) {
			print_error("tests/bad/%s has no line in bad_cases\n", de->d_name);
			fail();
		}
	}
	closedir(d);
	assert_int_equal(njson, NBAD);
	assert_true(NBAD >= 45);
}

/* A second scenario after a bad one is not looked at: the first error wins, exit 2. */
static void first_error_wins(void **state)
{
	struct out o = run("validate", "scenarios/teaching/trace-policies.json",
			   "tests/bad/cpus-zero.json", "tests/bad/runs-zero.json");
	CHECK(o.status == 2, o, "validate good bad bad");
	CHECK(one_line(o.err), o, "validate good bad bad");
	CHECK(strstr(o.err, "tests/bad/cpus-zero.json: machine.cpus: ") != NULL, o, "validate");
	out_free(&o);

	char outdir[200];
	snprintf(outdir, sizeof outdir, "%s/many", tmpdir);
	o = run("run", "-q", "-o", outdir, "scenarios/teaching/trace-policies.json",
		"tests/bad/runs-zero.json");
	CHECK(o.status == 2, o, "run good bad");
	CHECK(o.out[0] == '\0', o, "run good bad");
	CHECK(one_line(o.err), o, "run good bad");
	CHECK(strstr(o.err, "tests/bad/runs-zero.json: runs: ") != NULL, o, "run good bad");
	CHECK(!exists(outdir), o, "run good bad: nothing written for the good scenario either");
	out_free(&o);
}

/* ---- shipped scenarios ---------------------------------------------------------- */

static int nshipped;

static int validate_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	size_t l = strlen(path);
	if (flag != FTW_F || l < 6 || strcmp(path + l - 5, ".json") != 0)
		return 0;
	if (strstr(path, "/exercises/"))   /* the web lab's exercises (docs/serve.md), not scenarios */
		return 0;
	struct out o = run("validate", path);
	CHECK(o.status == 0, o, path);
	CHECK(o.err[0] == '\0', o, path);
	CHECK(one_line(o.out), o, path);
	CHECK(strncmp(o.out, path, l) == 0 && strncmp(o.out + l, ": ok: ", 6) == 0, o, path);
	out_free(&o);
	nshipped++;
	return 0;
}

static void shipped_scenarios_validate(void **state)
{
	nshipped = 0;
	assert_int_equal(nftw("scenarios", validate_one, 16, FTW_PHYS), 0);
	assert_true(nshipped >= 1);
}

/* ---- scenario_parse(): the fuzz target's entry point ------------------------------ */

static int nparsed;

/* scenario_parse() of the bytes of @path gives what scenario_load() of @path gives. */
static int parse_matches_load(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	size_t l = strlen(path);
	if (flag != FTW_F || l < 6 || strcmp(path + l - 5, ".json") != 0)
		return 0;
	char *text = slurp(path);
	struct scenario a, b;
	struct mm_err ea = { { 0 } }, eb = { { 0 } };
	int ra = scenario_load(&a, path, &ea);
	int rb = scenario_parse(&b, text, (size_t)sb->st_size, path, &eb);
	if (ra != rb || strcmp(ea.msg, eb.msg) != 0 || strcmp(a.hash, b.hash) != 0 ||
	    strcmp(a.inputs, b.inputs) != 0 || a.nsims != b.nsims) {
		print_error("%s: load %d \"%s\" %s, parse %d \"%s\" %s\n", path, ra, ea.msg, a.hash,
			    rb, eb.msg, b.hash);
		fail();
	}
	scenario_free(&a);
	scenario_free(&b);
	free(text);
	nparsed++;
	return 0;
}

static void parse_is_load(void **state)
{
	nparsed = 0;
	assert_int_equal(nftw("tests/bad", parse_matches_load, 16, FTW_PHYS), 0);
	assert_int_equal(nftw("scenarios", parse_matches_load, 16, FTW_PHYS), 0);
	assert_true(nparsed >= (int)NBAD);
}

/* ---- usage ----------------------------------------------------------------------- */

static void usage_no_args(void **state)
{
	struct out o = run_env(NULL, (const char *)NULL);
	CHECK(o.status == 2, o, "mmemu");
	CHECK(strstr(o.err, "usage") != NULL, o, "mmemu");
	CHECK(o.out[0] == '\0', o, "mmemu");
	out_free(&o);
}

static void usage_unknown_command(void **state)
{
	struct out o = run("frobnicate");
	CHECK(o.status == 2, o, "mmemu frobnicate");
	CHECK(strstr(o.err, "unknown command \"frobnicate\"") != NULL, o, "mmemu frobnicate");
	CHECK(o.out[0] == '\0', o, "mmemu frobnicate");
	out_free(&o);
}

static void usage_version(void **state)
{
	struct out o = run("--version");
	CHECK(o.status == 0, o, "--version");
	CHECK(strcmp(o.out, "mmemu " MMEMU_VERSION "\n") == 0, o, "--version");
	CHECK(o.err[0] == '\0', o, "--version");
	out_free(&o);
}

static void usage_help(void **state)
{
	static const char *const cmds[] = { "run", "validate", "list", "replay", "tracegen" };
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
		char prefix[64];
		snprintf(prefix, sizeof prefix, "usage: mmemu %s", cmds[i]);
		struct out o = run(cmds[i], "--help");
		CHECK(o.status == 0, o, cmds[i]);
		CHECK(strncmp(o.out, prefix, strlen(prefix)) == 0, o, cmds[i]);
		CHECK(o.err[0] == '\0', o, cmds[i]);
		out_free(&o);
		o = run(cmds[i], "-h");
		CHECK(o.status == 0, o, cmds[i]);
		CHECK(strncmp(o.out, prefix, strlen(prefix)) == 0, o, cmds[i]);
		out_free(&o);
	}
	struct out o = run("--help");
	CHECK(o.status == 0, o, "--help");
	CHECK(strncmp(o.out, "usage: mmemu COMMAND", 20) == 0, o, "--help");
	out_free(&o);
}

static void usage_run(void **state)
{
	struct out o = run("run", "--bogus", "scenarios/teaching/trace-policies.json");
	CHECK(o.status == 2, o, "run --bogus");
	CHECK(strstr(o.err, "usage: mmemu run") != NULL, o, "run --bogus");
	CHECK(o.out[0] == '\0', o, "run --bogus");
	out_free(&o);

	o = run("run");
	CHECK(o.status == 2, o, "run");
	CHECK(strstr(o.err, "usage: mmemu run") != NULL, o, "run");
	CHECK(o.out[0] == '\0', o, "run");
	out_free(&o);

	o = run("run", "-o");
	CHECK(o.status == 2, o, "run -o");
	CHECK(o.out[0] == '\0', o, "run -o");
	out_free(&o);

	o = run("validate");
	CHECK(o.status == 2, o, "validate");
	CHECK(strstr(o.err, "usage: mmemu validate") != NULL, o, "validate");
	out_free(&o);

	o = run("list", "--bogus");
	CHECK(o.status == 2, o, "list --bogus");
	out_free(&o);

	/* every section of the scenario is listed, with its keys */
	o = run("list", "--params");
	CHECK(o.status == 0, o, "list --params");
	static const char *const want[] = { "machine section:", "machine.costs:", "machine.disks[]:",
					    "machine.variation", "| `sched` |", "engine section:",
					    "| `lookahead` |", "| `quantum` |" };
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
		CHECK(strstr(o.out, want[i]) != NULL, o, want[i]);
	out_free(&o);
}

static void missing_scenario_file(void **state)
{
	char outfile[200];
	snprintf(outfile, sizeof outfile, "%s/missing/out.json", tmpdir);
	struct out o = run("run", "-o", outfile, "tests/bad/no-such-scenario.json");
	CHECK(o.status == 2, o, "run missing");
	CHECK(one_line(o.err), o, "run missing");
	CHECK(strncmp(o.err, "mmemu: tests/bad/no-such-scenario.json: ", 40) == 0, o, "run missing");
	CHECK(strstr(o.err, "No such file") != NULL, o, "run missing");
	CHECK(o.out[0] == '\0', o, "run missing");
	CHECK(!exists(outfile), o, "run missing");
	out_free(&o);

	o = run("validate", "tests/bad/no-such-scenario.json");
	CHECK(o.status == 2, o, "validate missing");
	CHECK(one_line(o.err), o, "validate missing");
	CHECK(strstr(o.err, "tests/bad/no-such-scenario.json") != NULL, o, "validate missing");
	out_free(&o);

	o = run("validate", "tests/bad");   /* a directory */
	CHECK(o.status == 2, o, "validate dir");
	CHECK(one_line(o.err), o, "validate dir");
	CHECK(strstr(o.err, "tests/bad: expected a scenario file, got a directory") != NULL, o, "validate dir");
	out_free(&o);
}

/* ---- determinism ------------------------------------------------------------------ */

/* Load @path, check and remove its host section. Returns: the canonical dump. */
static char *canonical_without_host(const char *path)
{
	json_error_t je;
	json_t *r = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
	if (!r)
		print_error("%s: %s (line %d)\n", path, je.text, je.line);
	assert_non_null(r);
	json_t *host = json_object_get(r, "host");
	assert_true(json_is_object(host));
	json_t *wall = json_object_get(host, "wall_seconds");
	assert_true(json_is_number(wall));
	assert_true(json_number_value(wall) >= 0);
	assert_true(json_is_array(json_object_get(host, "runs")));
	assert_int_equal(json_array_size(json_object_get(host, "runs")),
			 json_array_size(json_object_get(r, "runs")));
	assert_int_equal(json_object_del(r, "host"), 0);
	assert_string_equal(json_string_value(json_object_get(r, "format")), "mmemu-results/1");
	char *s = json_dumps(r, JSON_SORT_KEYS | JSON_COMPACT);
	assert_non_null(s);
	json_decref(r);
	return s;
}

static void determinism(void **state)
{
	const char *sc = "scenarios/teaching/trace-policies.json";
	char a[200], b[200];
	snprintf(a, sizeof a, "%s/det-a/out.json", tmpdir);
	snprintf(b, sizeof b, "%s/det-b/out.json", tmpdir);

	struct out o = run("run", "-o", a, sc);
	CHECK(o.status == 0, o, "run a");
	CHECK(o.err[0] == '\0', o, "run a");
	CHECK(strstr(o.out, "results: ") != NULL, o, "run a");
	out_free(&o);
	o = run("run", "-q", "-o", b, sc);
	CHECK(o.status == 0, o, "run b");
	CHECK(o.out[0] == '\0', o, "run b (-q)");
	out_free(&o);

	char *ca = canonical_without_host(a), *cb = canonical_without_host(b);
	assert_string_equal(ca, cb);
	free(ca);
	free(cb);

	/* no temporary file left beside the results */
	char dir[200];
	snprintf(dir, sizeof dir, "%s/det-a", tmpdir);
	DIR *d = opendir(dir);
	assert_non_null(d);
	struct dirent *de;
	int n = 0;
	while ((de = readdir(d)) != NULL)
		if (de->d_name[0] != '.')
			n++;
	closedir(d);
	assert_int_equal(n, 1);
}

/* ---- run-time failures -------------------------------------------------------------- */

/*
 * A simulation that fails at run time exits 1 and writes no results: here the child
 * cannot create SimGrid's platform file because $TMPDIR does not exist.
 */
/* The pids of @pid's children (Linux /proc), at most @max. Returns: how many. */
static int children_of(pid_t pid, pid_t *out, int max)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/task/%d/children", (int)pid, (int)pid);
	FILE *f = fopen(path, "r");
	int n = 0;
	if (!f)
		return 0;
	while (n < max && fscanf(f, "%d", &out[n]) == 1)
		n++;
	fclose(f);
	return n;
}

/* Killing `mmemu run` kills the simulation it is running (issue 17: a hung worker
 * outlived its killed parent).  This process becomes the subreaper, so an
 * orphaned worker would be reparented here and still be running after 5 s. */
static void killed_run_takes_children(void **state)
{
	(void)state;
	char scen[200], outfile[200];
	snprintf(scen, sizeof scen, "%s/long.json", tmpdir);
	snprintf(outfile, sizeof outfile, "%s/long-out.json", tmpdir);
	json_t *sc = json_load_file("scenarios/teaching/2read-small.json", 0, NULL);
	assert_non_null(sc);
	json_object_del(sc, "sweep");
	json_object_set_new(json_object_get(sc, "workload"), "duration", json_string("100000s"));
	json_object_set_new(json_object_get(sc, "workload"), "range_mb", json_pack("[i,i]", 16, 56));
	json_object_del(json_object_get(sc, "kernels"), "clockpro");
	assert_int_equal(json_dump_file(sc, scen, 0), 0);
	json_decref(sc);
	assert_int_equal(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);
		dup2(fd, 1);
		dup2(fd, 2);
		execl(getenv("MMEMU"), "mmemu", "run", "-o", outfile, scen, (char *)NULL);
		_exit(127);
	}
	pid_t kids[4];
	int n = 0;
	for (int i = 0; i < 100 && n == 0; i++) {
		usleep(50000);
		n = children_of(pid, kids, 4);
	}
	assert_true(n > 0);   /* the run forked its simulation */
	kill(pid, SIGKILL);
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	int gone = 0;
	for (int i = 0; i < 100 && !gone; i++) {
		pid_t w = waitpid(-1, &st, WNOHANG);
		if (w < 0 && errno == ECHILD)
			gone = 1;
		else if (w == 0)
			usleep(50000);
	}
	for (int i = 0; !gone && i < n; i++)
		kill(kids[i], SIGKILL);   /* do not leave it behind when the test fails */
	while (waitpid(-1, &st, WNOHANG) > 0)
		;
	prctl(PR_SET_CHILD_SUBREAPER, 0);
	assert_true(gone);
	assert_false(exists(outfile));
}

/* --set overrides a scenario value before validation; --check turns the invariant
 * checker on and fails on a violation (issue 17: the seed invariant job). */
static void run_set_and_check(void **state)
{
	(void)state;
	char outfile[200];
	snprintf(outfile, sizeof outfile, "%s/check.json", tmpdir);
	struct out o = run("run", "-q", "--check", "--set", "workload.duration=2s", "--set", "runs=1",
			   "--set", "sweep={}", "--set", "workload.range_mb=[16,56]", "-o", outfile,
			   "scenarios/teaching/2read-small.json");
	CHECK(o.status == 0, o, "run --check");
	out_free(&o);
	json_t *r = json_load_file(outfile, 0, NULL);
	assert_non_null(r);
	json_t *runs = json_object_get(r, "runs");
	assert_int_equal(json_array_size(runs), 2);   /* 2 kernels x 1 point x 1 run */
	size_t i;
	json_t *v;
	json_array_foreach(runs, i, v) {
		json_t *w = json_object_get(json_object_get(v, "params"), "workload");
		assert_true(json_number_value(json_object_get(w, "duration")) == 2.0);   /* --set */
		assert_true(json_is_true(json_object_get(w, "check")));                 /* --check */
		assert_true(json_number_value(json_object_get(json_object_get(v, "metrics"),
							      "invariants_ok")) == 1.0);
	}
	json_decref(r);
	/* a workload without an invariant checker: refused before anything runs */
	o = run("run", "-q", "--check", "-o", outfile, "scenarios/teaching/trace-policies.json");
	CHECK(o.status == 2, o, "run --check on trace");
	CHECK(one_line(o.err), o, "run --check on trace");
	CHECK(strstr(o.err, "workload.check: unknown key") != NULL, o, "run --check on trace");
	out_free(&o);
	o = run("run", "--set", "machine.cpus.x=1", "-o", outfile, "scenarios/teaching/2read-small.json");
	CHECK(o.status == 2, o, "run --set through a number");
	CHECK(strstr(o.err, "--set: machine.cpus.x: expected a path through objects") != NULL, o,
	      "run --set through a number");
	out_free(&o);
	o = run("run", "--set", "runs", "-o", outfile, "scenarios/teaching/2read-small.json");
	CHECK(o.status == 2, o, "run --set without =");
	out_free(&o);
}

/* cli_check_invariants(): a run with invariants_ok 0 (or without it) fails --check. */
static void check_verdict(void **state)
{
	(void)state;
	struct scenario sc;
	memset(&sc, 0, sizeof sc);
	sc.file = "s.json";
	json_t *res = json_loads("{\"runs\": [{\"kernel\": \"k\", \"point\": {}, \"run\": 0,"
				 " \"metrics\": {\"invariants_ok\": 1}}]}", 0, NULL);
	assert_int_equal(cli_check_invariants(&sc, res), 0);
	json_decref(res);
	res = json_loads("{\"runs\": [{\"kernel\": \"k\", \"point\": {}, \"run\": 0,"
			 " \"metrics\": {\"invariants_ok\": 1}}, {\"kernel\": \"k\", \"point\": {},"
			 " \"run\": 1, \"metrics\": {\"invariants_ok\": 0}}]}", 0, NULL);
	assert_int_equal(cli_check_invariants(&sc, res), 1);
	json_decref(res);
	res = json_loads("{\"runs\": [{\"kernel\": \"k\", \"point\": {}, \"run\": 0, \"metrics\": {}}]}",
			 0, NULL);
	assert_int_equal(cli_check_invariants(&sc, res), 1);
	json_decref(res);
	/* the violation itself is printed, cleaned to one line of printable text */
	res = json_loads("{\"runs\": [{\"kernel\": \"k\", \"point\": {}, \"run\": 2,"
			 " \"metrics\": {\"invariants_ok\": 0},"
			 " \"invariant_error\": \"pfn 7: count -1\\nflags\\u0001\"}]}", 0, NULL);
	assert_non_null(res);
	char path[300];
	snprintf(path, sizeof path, "%s/check-verdict.err", tmpdir);
	fflush(stderr);
	int saved = dup(2), fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0600);
	assert_true(saved >= 0 && fd >= 0);
	dup2(fd, 2);
	int rc = cli_check_invariants(&sc, res);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	close(fd);
	json_decref(res);
	assert_int_equal(rc, 1);
	char buf[600] = "";
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = 0;
	assert_string_equal(buf, "mmemu: s.json: kernel k, point , run 2: the mm invariant checker found a "
				 "violation (metrics.invariants_ok = 0): pfn 7: count -1\\nflags\\u0001\n");
}

static void run_failure_exits_1(void **state)
{
	char outfile[200];
	snprintf(outfile, sizeof outfile, "%s/fail/out.json", tmpdir);
	struct out o = run_env("TMPDIR=/nonexistent/mmemu-test", "run", "-o", outfile,
			       "scenarios/teaching/trace-policies.json", (const char *)NULL);
	CHECK(o.status == 1, o, "run with a bad TMPDIR");
	CHECK(strstr(o.err, "cannot write the SimGrid platform") != NULL, o, "run with a bad TMPDIR");
	CHECK(o.out[0] == '\0', o, "run with a bad TMPDIR");
	CHECK(!exists(outfile), o, "run with a bad TMPDIR");
	out_free(&o);
}

/* The results cannot be written (the output's parent is a regular file): exit 1. */
/* -o naming a device writes to it and never renames over it (issue 17: as root,
 * `run -o /dev/full` replaced the device node with a JSON file).  /dev/full
 * refuses every write: exit 1, one line naming it, and it is still a device. */
static void results_to_device(void **state)
{
	(void)state;
	struct stat st;
	if (stat("/dev/full", &st) || !S_ISCHR(st.st_mode))
		skip();
	struct out o = run("run", "-q", "--set", "sweep={}", "-o", "/dev/full",
			   "scenarios/teaching/trace-policies.json");
	CHECK(o.status == 1, o, "run -o /dev/full");
	CHECK(one_line(o.err), o, "run -o /dev/full");
	CHECK(strstr(o.err, "/dev/full") != NULL, o, "run -o /dev/full");
	out_free(&o);
	assert_int_equal(stat("/dev/full", &st), 0);
	assert_true(S_ISCHR(st.st_mode));
	o = run("run", "-q", "--set", "sweep={}", "-o", "/dev/null",
		"scenarios/teaching/trace-policies.json");
	CHECK(o.status == 0, o, "run -o /dev/null");
	out_free(&o);
	assert_int_equal(stat("/dev/null", &st), 0);
	assert_true(S_ISCHR(st.st_mode));
}

static void unwritable_results_exit_1(void **state)
{
	char blocker[200], outfile[260];
	snprintf(blocker, sizeof blocker, "%s/blocker", tmpdir);
	FILE *f = fopen(blocker, "w");
	assert_non_null(f);
	fclose(f);
	snprintf(outfile, sizeof outfile, "%s/out.json", blocker);
	struct out o = run("run", "-q", "-o", outfile, "scenarios/teaching/trace-policies.json");
	CHECK(o.status == 1, o, "run -o under a file");
	CHECK(one_line(o.err), o, "run -o under a file");
	CHECK(strstr(o.err, outfile) != NULL, o, "run -o under a file");
	out_free(&o);
	unlink(blocker);
}

int main(void)
{
	struct CMUnitTest bad[NBAD];
	for (size_t i = 0; i < NBAD; i++) {
		struct CMUnitTest t = cmocka_unit_test_prestate(bad_scenario, (void *)&bad_cases[i]);
		t.name = bad_cases[i].file;
		bad[i] = t;
	}
	const struct CMUnitTest other[] = {
		cmocka_unit_test(table_covers_every_bad_file),
		cmocka_unit_test(first_error_wins),
		cmocka_unit_test(shipped_scenarios_validate),
		cmocka_unit_test(parse_is_load),
		cmocka_unit_test(usage_no_args),
		cmocka_unit_test(usage_unknown_command),
		cmocka_unit_test(usage_version),
		cmocka_unit_test(usage_help),
		cmocka_unit_test(usage_run),
		cmocka_unit_test(missing_scenario_file),
		cmocka_unit_test(determinism),
		cmocka_unit_test(run_failure_exits_1),
		cmocka_unit_test(run_set_and_check),
		cmocka_unit_test(check_verdict),
		cmocka_unit_test(killed_run_takes_children),
		cmocka_unit_test(unwritable_results_exit_1),
		cmocka_unit_test(results_to_device),
	};
	int failed = cmocka_run_group_tests_name("bad scenarios", bad, group_setup, group_teardown);
	failed += cmocka_run_group_tests_name("cli", other, group_setup, group_teardown);
	return failed ? 1 : 0;
}
