/*
 * readfile.h - read a whole input file into memory, with the one-line errors of
 * err.h (cannot open, a directory, too large, out of memory, read error).
 */
#ifndef MMEMU_READFILE_H
#define MMEMU_READFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "emu/core/err.h"

/**
 * mm_read_file() - read all of @path, which may be a regular file, a pipe or a
 * device (read until EOF, never more than @max bytes).
 * @what: what the file should be, for messages ("workfile", "trace file")
 * @max: the largest file accepted, in bytes (below SIZE_MAX)
 * @buf: receives a malloc'ed buffer (not NUL-terminated; free it)
 * @len: receives its length in bytes
 * Returns: 0, or -1 with @e set to "PATH: cannot open (...)", "PATH: expected a
 * WHAT, got a directory", "PATH: expected a WHAT of at most MAX, got N bytes"
 * (a regular file, refused before reading) or "..., got more" (anything else,
 * refused once MAX + 1 bytes were read), "PATH: out of memory while reading the
 * WHAT" or "PATH: cannot read (...)"; *@buf is then NULL.  MAX is written in GiB,
 * MiB or KiB when it is a whole number of them.
 */
int mm_read_file(const char *path, const char *what, size_t max, char **buf, size_t *len,
		 struct mm_err *e);

/**
 * mm_read_confine() - from now on refuse to read (mm_read_file(), mm_map_file())
 * any file whose resolved path does not lie under one of @roots: absolute,
 * resolved directories, NULL-terminated; the array must outlive the confinement.
 * NULL lifts it.  `mmemu serve` confines a client's scenario to the shipped
 * scenarios and workload inputs; the message then is "PATH: expected a shipped
 * scenario or workload input ...".
 * Returns: nothing.
 */
void mm_read_confine(const char *const *roots);

/* The bytes of an input file: mapped (a regular file) or read into a buffer. */
struct mm_filebuf {
	const char *buf;   /* len bytes, not NUL-terminated, read-only */
	size_t len;
	bool mapped;       /* buf is an mmap of the file, else a malloc'ed copy */
};

/**
 * mm_map_file() - the bytes of @path as mm_read_file() gives them (same checks,
 * same messages, same inputs digest), without copying a regular non-empty file:
 * it is mapped read-only.  Pipes, devices and empty files are read.  A mapped
 * file must not be truncated while it is in use (its pages would vanish: SIGBUS).
 * Returns: 0 with @fb filled (release it with mm_unmap_file()), or -1 with @e set
 * as by mm_read_file() and @fb empty.
 */
int mm_map_file(struct mm_filebuf *fb, const char *path, const char *what, size_t max,
		struct mm_err *e);

/** mm_unmap_file() - release what mm_map_file() gave (an empty @fb is fine).
 * Returns: nothing. */
void mm_unmap_file(struct mm_filebuf *fb);

/**
 * mm_bom_len() - the length of a UTF-8 byte-order mark (EF BB BF) at the start
 * of @buf, which the input parsers skip.
 * Returns: 3 if the @len bytes at @buf start with one, else 0.
 */
size_t mm_bom_len(const char *buf, size_t len);

/** mm_inputs_reset() - start a new digest of the files read (mm_inputs_digest());
 * files are hashed only from here to the digest. Returns: nothing. */
void mm_inputs_reset(void);

/**
 * mm_inputs_epoch() - which digest is being made: a number that changes at every
 * mm_inputs_reset().  A caller that keeps a file's parse may skip reading the file
 * again only within the epoch it was read in (the digest has its bytes already).
 * Returns: the current epoch.
 */
unsigned mm_inputs_epoch(void);

/**
 * mm_inputs_digest() - write the FNV-1a 64 digest of the paths and contents of
 * every file mm_read_file() read since mm_inputs_reset() to @out (16 hex digits),
 * and stop hashing.  A regular file read again in the same epoch (same device,
 * inode, size and modification time) adds its path and a tag, not its bytes
 * again: validation maps a 26 MB dbench loadfile once per kernel and sweep point.
 * The scenario loader keys kept sweep results by it, so a regenerated trace or an
 * edited workfile is never mistaken for the one a result was computed from.
 * After the digest, mm_read_file() and mm_map_file() refuse a file of it whose
 * identity and bytes both changed ("expected the bytes the scenario was loaded
 * with"): a sweep's forked child re-reads the loadfile and workfile, and must not
 * compute a result from other bytes than the digest names.
 * Returns: how many files were read.
 */
int mm_inputs_digest(char *out, size_t len);

#endif
