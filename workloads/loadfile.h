/*
 * loadfile.h - dbench's NBench loadfile (workloads.md, "dbench"), parsed into
 * operations a dbench client replays (workloads/dbench.c).
 *
 * Layouts: `Verb args... STATUS` (dbench 4's client.txt, Debian's
 * /usr/share/dbench/client.txt) and `timestamp Verb args... STATUS` (a leading
 * number, the older layout).  The status field starts with NT_STATUS_, 0x,
 * SUCCESS, ERROR or `*`.  Backslashes become `/`; the string `client1` in a path
 * names the replaying client's own directory (dbench substitutes clientN): paths
 * are interned once and each client replays them in its own namespace.  Control
 * lines (LOOP, REPEAT, SLEEP, SETSP, WAITSP, RANDOMSTRING, WRITEPATTERN) are
 * accepted and counted, not replayed.  A bad line is rejected with its number.
 */
#ifndef MMEMU_LOADFILE_H
#define MMEMU_LOADFILE_H

#include <stddef.h>
#include <stdint.h>

#include "emu/core/err.h"

#define LOADFILE_FILE_MAX ((size_t)64 << 20)   /* client.txt is 26 MB */

enum lf_verb {
	LF_NTCREATEX,
	LF_CLOSE,
	LF_READX,
	LF_WRITEX,
	LF_FLUSH,
	LF_QPATHINFO,     /* QUERY_PATH_INFORMATION: stat */
	LF_QFILEINFO,     /* QUERY_FILE_INFORMATION: fstat */
	LF_SFILEINFO,     /* SET_FILE_INFORMATION */
	LF_QFSINFO,       /* QUERY_FS_INFORMATION: statfs */
	LF_FINDFIRST,     /* readdir of the pattern's directory */
	LF_UNLINK,
	LF_RENAME,
	LF_LOCKX,
	LF_UNLOCKX,
	LF_MKDIR,
	LF_DELTREE,
	LF_RMDIR,
	LF_NVERBS
};

struct lf_op {
	uint8_t verb;         /* enum lf_verb */
	uint8_t ok;           /* the line expects success (NT_STATUS_OK, SUCCESS, 0x0, *) */
	uint8_t dir;          /* NTCreateX with FILE_DIRECTORY_FILE (create_options & 1) */
	uint8_t create;       /* NTCreateX disposition creates (2 create, 3 open_if, 5 overwrite_if) */
	uint8_t disp;         /* NTCreateX disposition (4 overwrite, 5 overwrite_if truncate) */
	int32_t path, path2;  /* interned paths, -1 */
	int32_t handle;       /* handle index (0..nhandles-1), -1 */
	uint64_t off, size;   /* ReadX/WriteX: offset, returned size */
	uint32_t line;
};

struct lf_path {
	char *name;           /* with '/' separators, as written ("/clients/client1/...") */
	int32_t parent;       /* the directory holding it, -1 for "/" level */
	uint8_t dir;          /* used as a directory */
	uint64_t extent;      /* largest offset + size read or written through it */
};

struct loadfile {
	struct lf_op *ops;
	uint32_t nops;
	struct lf_path *paths;
	int32_t npaths;
	int32_t nhandles;
	uint32_t control;     /* control lines accepted, not replayed */
	uint32_t lines;       /* lines read (up to the byte limit) */
	uint64_t verbs[LF_NVERBS];
	uint64_t read_bytes, write_bytes;   /* ReadX / WriteX returned sizes */
};

/**
 * loadfile_parse() - parse @len bytes of @buf named @name, stopping after the line
 * at which ReadX + WriteX bytes reach @max_bytes (0: the whole file).
 * Returns: 0, or -1 with @e = "NAME: line N: expected ..." (nothing allocated).
 */
int loadfile_parse(struct loadfile *lf, const char *buf, size_t len, const char *name,
		   uint64_t max_bytes, struct mm_err *e);

/** loadfile_load() - read and parse file @path. Returns: as loadfile_parse(). */
int loadfile_load(struct loadfile *lf, const char *path, uint64_t max_bytes, struct mm_err *e);

/** loadfile_free() - release @lf (a zeroed one is fine). Returns: nothing. */
void loadfile_free(struct loadfile *lf);

/** loadfile_verb_name() - Returns: the loadfile spelling of @v. */
const char *loadfile_verb_name(int v);

#endif
