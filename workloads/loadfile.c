/*
 * loadfile.c - the NBench loadfile parser of the dbench workload (see loadfile.h).
 *
 * Models what dbench's child.c reads (dbench 4.0 child.c, and the 1.x client.txt
 * layout with a leading timestamp): one operation per line, fields separated by
 * blanks, paths in double quotes.  Field counts per verb follow workloads.md.
 * Paths are interned in a hash table (open addressing on the string); handles
 * (the numbers NTCreateX returns in the file) are renumbered 0..nhandles-1 so a
 * client keeps its open files in a plain array.  Each path records its parent
 * directory (interned too, marked as a directory) and the largest extent read or
 * written through a handle opened on it, which sizes the file's region in the
 * client's part of the page cache (dbench.c).
 */
#include "workloads/loadfile.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/core/readfile.h"

static const char *const verb_names[LF_NVERBS] = {
	"NTCreateX", "Close", "ReadX", "WriteX", "Flush", "QUERY_PATH_INFORMATION",
	"QUERY_FILE_INFORMATION", "SET_FILE_INFORMATION", "QUERY_FS_INFORMATION",
	"FIND_FIRST", "Unlink", "Rename", "LockX", "UnlockX", "Mkdir", "Deltree", "Rmdir",
};

/* Arguments between the verb and the status; which are paths ('p'), handles
 * ('h'), numbers ('n'). */
static const char *const verb_args[LF_NVERBS] = {
	"pnnh", "h", "hnnn", "hnnn", "h", "pn", "hn", "hn", "n", "pnnn", "pn", "pp", "hnn", "hnn",
	"p", "p", "p",
};

static const char *const control_names[] = { "LOOP", "REPEAT", "SLEEP", "SETSP", "WAITSP",
					      "RANDOMSTRING", "WRITEPATTERN", NULL };

const char *loadfile_verb_name(int v)
{
	return v >= 0 && v < LF_NVERBS ? verb_names[v] : "?";
}

struct parser {
	struct loadfile *lf;
	const char *name;
	uint32_t line;
	struct mm_err *e;
	/* path intern table */
	int32_t *pslot;
	uint32_t pcap;           /* power of two */
	uint32_t pathcap;
	/* handle renumbering: file handle number -> index */
	uint64_t *hkey;
	int32_t *hval;
	uint32_t hcap;
	int32_t *hpath;          /* handle index -> path of its last NTCreateX */
	uint32_t hpathcap;
	uint32_t opcap;
};

static int perr(struct parser *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int perr(struct parser *ps, const char *fmt, ...)
{
	char path[32];
	va_list ap;
	snprintf(path, sizeof path, "line %u", ps->line);
	va_start(ap, fmt);
	mm_verrf(ps->e, ps->name, path, fmt, ap);
	va_end(ap);
	return -1;
}

static uint64_t hash_str(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ULL;   /* FNV-1a */
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
	return h;
}

static int grow(void **p, uint32_t *cap, uint32_t need, size_t elem)
{
	if (need <= *cap)
		return 0;
	uint32_t n = *cap ? *cap : 64;
	while (n < need)
		n *= 2;
	void *q = realloc(*p, (size_t)n * elem);
	if (!q)
		return -1;
	*p = q;
	*cap = n;
	return 0;
}

static int rehash_paths(struct parser *ps, uint32_t cap)
{
	int32_t *t = malloc((size_t)cap * sizeof *t);
	if (!t)
		return -1;
	for (uint32_t i = 0; i < cap; i++)
		t[i] = -1;
	for (int32_t k = 0; k < ps->lf->npaths; k++) {
		const char *s = ps->lf->paths[k].name;
		uint32_t h = (uint32_t)hash_str(s, strlen(s)) & (cap - 1);
		while (t[h] >= 0)
			h = (h + 1) & (cap - 1);
		t[h] = k;
	}
	free(ps->pslot);
	ps->pslot = t;
	ps->pcap = cap;
	return 0;
}

/* The index of path @s (@n bytes, '/' separators, no trailing '/'), interned
 * with its parents.  Returns: the index, or -1 (out of memory). */
static int32_t intern(struct parser *ps, const char *s, size_t n)
{
	struct loadfile *lf = ps->lf;
	if (!ps->pcap && rehash_paths(ps, 256))
		return -1;
	uint32_t h = (uint32_t)hash_str(s, n) & (ps->pcap - 1);
	while (ps->pslot[h] >= 0) {
		const char *q = lf->paths[ps->pslot[h]].name;
		if (strlen(q) == n && memcmp(q, s, n) == 0)
			return ps->pslot[h];
		h = (h + 1) & (ps->pcap - 1);
	}
	/* the parent first (it may rehash: the slot is looked up again below) */
	int32_t parent = -1;
	size_t cut = n;
	while (cut > 0 && s[cut - 1] != '/')
		cut--;
	if (cut > 1) {
		parent = intern(ps, s, cut - 1);
		if (parent < 0)
			return -1;
		lf->paths[parent].dir = 1;
	}
	/* the room checked after the parents are in: each of them took a slot (a path
	 * of many components filled the table, and the probe below never ended) */
	if ((uint32_t)(lf->npaths + 1) * 2 > ps->pcap && rehash_paths(ps, ps->pcap * 2))
		return -1;
	if (grow((void **)&lf->paths, &ps->pathcap, (uint32_t)lf->npaths + 1, sizeof *lf->paths))
		return -1;
	char *copy = malloc(n + 1);
	if (!copy)
		return -1;
	memcpy(copy, s, n);
	copy[n] = 0;
	int32_t id = lf->npaths++;
	lf->paths[id] = (struct lf_path){ .name = copy, .parent = parent };
	h = (uint32_t)hash_str(s, n) & (ps->pcap - 1);
	while (ps->pslot[h] >= 0)
		h = (h + 1) & (ps->pcap - 1);
	ps->pslot[h] = id;
	return id;
}

/* Handle number @v: its index (a new one when @create).  Returns: -1 if unknown. */
static int32_t handle(struct parser *ps, uint64_t v, bool create)
{
	if ((uint32_t)(ps->lf->nhandles + 1) * 2 > ps->hcap) {
		uint32_t cap = ps->hcap ? ps->hcap * 2 : 256;
		uint64_t *k = malloc((size_t)cap * sizeof *k);
		int32_t *val = malloc((size_t)cap * sizeof *val);
		if (!k || !val) {
			free(k);
			free(val);
			return -2;
		}
		for (uint32_t i = 0; i < cap; i++)
			val[i] = -1;
		for (uint32_t i = 0; i < ps->hcap; i++) {
			if (ps->hval[i] < 0)
				continue;
			uint32_t h = (uint32_t)(ps->hkey[i] * 0x9E3779B97F4A7C15ULL >> 32) & (cap - 1);
			while (val[h] >= 0)
				h = (h + 1) & (cap - 1);
			k[h] = ps->hkey[i];
			val[h] = ps->hval[i];
		}
		free(ps->hkey);
		free(ps->hval);
		ps->hkey = k;
		ps->hval = val;
		ps->hcap = cap;
	}
	uint32_t h = (uint32_t)(v * 0x9E3779B97F4A7C15ULL >> 32) & (ps->hcap - 1);
	while (ps->hval[h] >= 0) {
		if (ps->hkey[h] == v)
			return ps->hval[h];
		h = (h + 1) & (ps->hcap - 1);
	}
	if (!create)
		return -1;
	ps->hkey[h] = v;
	ps->hval[h] = ps->lf->nhandles++;
	return ps->hval[h];
}

struct tok {
	const char *p;
	size_t n;
	bool quoted;
};

#define MAXTOK 12

/* Split a line into tokens; a quoted token may hold blanks.  Returns: the count,
 * or -1 (unterminated quote), -2 (too many). */
static int tokenize(const char *p, const char *end, struct tok *t)
{
	int n = 0;
	while (p < end) {
		while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
			p++;
		if (p >= end)
			break;
		if (n == MAXTOK)
			return -2;
		if (*p == '"') {
			const char *q = memchr(p + 1, '"', (size_t)(end - p - 1));
			if (!q)
				return -1;
			t[n++] = (struct tok){ p + 1, (size_t)(q - p - 1), true };
			p = q + 1;
		} else {
			const char *q = p;
			while (q < end && *q != ' ' && *q != '\t' && *q != '\r')
				q++;
			t[n++] = (struct tok){ p, (size_t)(q - p), false };
			p = q;
		}
	}
	return n;
}

static bool tok_is(const struct tok *t, const char *s)
{
	return !t->quoted && strlen(s) == t->n && memcmp(t->p, s, t->n) == 0;
}

/* A number: decimal, or hex with 0x.  Returns: 0, or -1. */
static int tok_num(const struct tok *t, uint64_t *v)
{
	char buf[32];
	if (t->quoted || t->n == 0 || t->n >= sizeof buf)
		return -1;
	memcpy(buf, t->p, t->n);
	buf[t->n] = 0;
	if (!isdigit((unsigned char)buf[0]))
		return -1;
	char *endp;
	errno = 0;
	unsigned long long x = strtoull(buf, &endp, 0);
	if (*endp || errno)
		return -1;
	*v = x;
	return 0;
}

static bool is_timestamp(const struct tok *t)
{
	if (t->quoted || t->n == 0 || !isdigit((unsigned char)t->p[0]))
		return false;
	for (size_t i = 0; i < t->n; i++)
		if (!isdigit((unsigned char)t->p[i]) && t->p[i] != '.')
			return false;
	return true;
}

/* Returns: 1 ok-status, 0 failure status, -1 not a status. */
static int status_kind(const struct tok *t)
{
	static const char *const pre[] = { "NT_STATUS_", "0x", "SUCCESS", "ERROR", "*" };
	if (t->quoted)
		return -1;
	for (size_t i = 0; i < sizeof pre / sizeof pre[0]; i++) {
		size_t l = strlen(pre[i]);
		if (t->n >= l && memcmp(t->p, pre[i], l) == 0) {
			if (tok_is(t, "NT_STATUS_OK") || tok_is(t, "SUCCESS") || tok_is(t, "*"))
				return 1;
			if (i == 1) {
				uint64_t v;
				return tok_num(t, &v) == 0 && v == 0 ? 1 : 0;
			}
			return 0;
		}
	}
	return -1;
}

/* A path token: backslashes to '/', no trailing '/'.  Returns: its index, or -1
 * with the error set. */
static int32_t path_arg(struct parser *ps, const struct tok *t)
{
	char buf[1024];
	if (t->n == 0 || t->n >= sizeof buf)
		return perr(ps, "expected a path of 1 to %zu bytes", sizeof buf - 1);
	size_t n = 0;
	for (size_t i = 0; i < t->n; i++) {
		char c = t->p[i] == '\\' ? '/' : t->p[i];
		if ((unsigned char)c < 0x20 || c == 0x7f) {
			char q[MM_ERR_QUOTE_SIZE];
			return perr(ps, "expected a path of printable characters, not %s",
				    mm_err_quote(q, sizeof q, t->p, t->n));
		}
		buf[n++] = c;
	}
	while (n > 1 && buf[n - 1] == '/')
		n--;
	if (buf[0] != '/')
		return perr(ps, "expected an absolute path (starting with \\)");
	int32_t id = intern(ps, buf, n);
	if (id < 0)
		return perr(ps, "out of memory");
	return id;
}

static int parse_line(struct parser *ps, const char *p, const char *end, uint64_t *bytes)
{
	struct loadfile *lf = ps->lf;
	struct tok t[MAXTOK];
	char q[MM_ERR_QUOTE_SIZE];
	int n = tokenize(p, end, t);
	if (n == -1)
		return perr(ps, "expected a closing double quote");
	if (n == -2)
		return perr(ps, "expected at most %d fields", MAXTOK);
	if (n == 0 || (!t[0].quoted && t[0].n > 0 && t[0].p[0] == '#'))
		return 0;   /* blank line or comment */
	int i = 0;
	if (is_timestamp(&t[0]))
		i = 1;      /* the layout with timestamps */
	if (i >= n)
		return perr(ps, "expected an operation after the timestamp");
	for (int c = 0; control_names[c]; c++)
		if (tok_is(&t[i], control_names[c])) {
			lf->control++;
			return 0;
		}
	int v = -1;
	for (int k = 0; k < LF_NVERBS; k++)
		if (tok_is(&t[i], verb_names[k]))
			v = k;
	if (v < 0)
		return perr(ps, "unknown operation %s", mm_err_quote(q, sizeof q, t[i].p, t[i].n));
	const char *args = verb_args[v];
	int nargs = (int)strlen(args);
	if (n - i - 1 != nargs + 1)
		return perr(ps, "%s: expected %d fields after the operation (the last a status), found %d",
			    verb_names[v], nargs + 1, n - i - 1);
	int st = status_kind(&t[n - 1]);
	if (st < 0)
		return perr(ps, "expected a status (NT_STATUS_..., 0x..., SUCCESS, ERROR or *), not %s",
			    mm_err_quote(q, sizeof q, t[n - 1].p, t[n - 1].n));
	if (grow((void **)&lf->ops, &ps->opcap, lf->nops + 1, sizeof *lf->ops))
		return perr(ps, "out of memory");
	struct lf_op op = { .verb = (uint8_t)v, .ok = (uint8_t)st, .path = -1, .path2 = -1,
			    .handle = -1, .line = ps->line };
	uint64_t num[4] = { 0 };
	int nn = 0;
	int np = 0;
	uint64_t hnum = 0;
	for (int a = 0; a < nargs; a++) {
		const struct tok *x = &t[i + 1 + a];
		if (args[a] == 'p') {
			if (!x->quoted)
				return perr(ps, "%s: expected a quoted path as field %d", verb_names[v], a + 1);
			int32_t id = path_arg(ps, x);
			if (id < 0)
				return -1;
			if (np++ == 0)
				op.path = id;
			else
				op.path2 = id;
		} else {
			uint64_t val;
			if (tok_num(x, &val))
				return perr(ps, "%s: expected a number as field %d, not %s", verb_names[v],
					    a + 1, mm_err_quote(q, sizeof q, x->p, x->n));
			if (args[a] == 'h')
				hnum = val;
			else if (nn < 4)
				num[nn++] = val;
		}
	}
	if (strchr(args, 'h')) {
		int32_t h = handle(ps, hnum, v == LF_NTCREATEX);
		if (h == -2)
			return perr(ps, "out of memory");
		if (h < 0) {
			/* a handle no NTCreateX returned: a line expecting failure
			 * (an invalid handle) is kept, anything else is an error */
			if (op.ok)
				return perr(ps, "%s: handle %llu was not opened by an earlier NTCreateX",
					    verb_names[v], (unsigned long long)hnum);
		}
		op.handle = h;
	}
	switch (v) {
	case LF_NTCREATEX:
		op.dir = (num[0] & 1) != 0;
		op.create = num[1] == 2 || num[1] == 3 || num[1] == 5;
		op.disp = (uint8_t)(num[1] & 0xff);
		if (op.dir && op.ok)
			lf->paths[op.path].dir = 1;
		if (grow((void **)&ps->hpath, &ps->hpathcap, (uint32_t)lf->nhandles, sizeof *ps->hpath))
			return perr(ps, "out of memory");
		ps->hpath[op.handle] = op.path;
		break;
	case LF_READX:
	case LF_WRITEX:
		op.off = num[0];
		op.size = num[2];   /* the returned size: what the 2002 server moved */
		if (num[2] > num[1])
			return perr(ps, "%s: returned size %llu larger than the size asked, %llu",
				    verb_names[v], (unsigned long long)num[2], (unsigned long long)num[1]);
		if (op.off > (1ULL << 40) || op.size > (1ULL << 30))
			return perr(ps, "%s: expected an offset below 1 TiB and a size below 1 GiB",
				    verb_names[v]);
		if (op.handle >= 0 && op.ok) {
			struct lf_path *fp = &lf->paths[ps->hpath[op.handle]];
			if (op.off + op.size > fp->extent)
				fp->extent = op.off + op.size;
		}
		*bytes += op.size;
		if (v == LF_READX)
			lf->read_bytes += op.size;
		else
			lf->write_bytes += op.size;
		break;
	case LF_MKDIR:
		if (op.ok)
			lf->paths[op.path].dir = 1;
		break;
	default:
		break;
	}
	lf->verbs[v]++;
	lf->ops[lf->nops++] = op;
	return 0;
}

int loadfile_parse(struct loadfile *lf, const char *buf, size_t len, const char *name,
		   uint64_t max_bytes, struct mm_err *e)
{
	memset(lf, 0, sizeof *lf);
	struct parser ps = { .lf = lf, .name = name, .e = e };
	const char *p = buf, *end = buf + len;
	uint64_t bytes = 0;
	int rc = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		ps.line++;
		if (memchr(p, 0, (size_t)(le - p))) {
			rc = perr(&ps, "expected text, found a NUL byte");
			break;
		}
		if (parse_line(&ps, p, le, &bytes)) {
			rc = -1;
			break;
		}
		p = nl ? nl + 1 : end;
		if (max_bytes && bytes >= max_bytes)
			break;
	}
	lf->lines = ps.line;
	if (rc == 0 && lf->nops == 0) {
		mm_errf(e, name, "line 1", "expected at least one operation");
		rc = -1;
	}
	free(ps.pslot);
	free(ps.hkey);
	free(ps.hval);
	free(ps.hpath);
	if (rc)
		loadfile_free(lf);
	return rc;
}

int loadfile_load(struct loadfile *lf, const char *path, uint64_t max_bytes, struct mm_err *e)
{
	memset(lf, 0, sizeof *lf);
	/* mapped, not copied: client.txt is 26 MB and every simulation loads it
	 * (the copy's page clearing was a third of a simulation's start-up) */
	struct mm_filebuf fb;
	if (mm_map_file(&fb, path, "loadfile", LOADFILE_FILE_MAX, e))
		return -1;
	int rc = loadfile_parse(lf, fb.buf, fb.len, path, max_bytes, e);
	mm_unmap_file(&fb);
	return rc;
}

void loadfile_free(struct loadfile *lf)
{
	if (!lf)
		return;
	for (int32_t i = 0; i < lf->npaths; i++)
		free(lf->paths[i].name);
	free(lf->paths);
	free(lf->ops);
	memset(lf, 0, sizeof *lf);
}
